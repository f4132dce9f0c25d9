//! Fuzzes the front end: words() + spec_constants() + build(), the latter
//! also with every specialization constant set from the input's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if clift_jit::words(data).is_err() {
        return;
    }
    let _ = clift_jit::build(data, &clift_jit::BuildOptions::default());
    if let Ok(specs) = clift_jit::spec_constants(data) {
        if specs.is_empty() {
            return;
        }
        let mut options = clift_jit::BuildOptions::default();
        for (k, s) in specs.iter().enumerate() {
            let bytes = (0..s.size)
                .map(|i| data.get(k * 3 + i).copied().unwrap_or(0x5a))
                .collect();
            options.spec_constants.insert(s.spec_id, bytes);
        }
        let _ = clift_jit::build(data, &options);
    }
});
