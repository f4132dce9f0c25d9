//! Fuzzes the code generator with whole programs from clift's random
//! OpenCL C generator (`clift-clgen`, the differential tests' generator):
//! the input's first 8 bytes (little-endian, zero-padded) are the seed, bit
//! 0 of the ninth byte asks for `half` arithmetic and bit 1 for -O0 instead
//! of -O2. The program is compiled to SPIR-V the way `clBuildProgram` does
//! it (clang and llvm-spirv through clift's front end, with its
//! workarounds), then goes through `front_end` and `compile_kernels` with
//! 4-lane bodies on and off. Compiled kernels are never run (the
//! differential tests run them).
//!
//! Every generated program is valid OpenCL C that clift must build: a
//! compile failure, a module the front end rejects or a kernel code
//! generation refuses is a crash, as is any panic. clang makes this target
//! slow (a few inputs per second): see jit/fuzz/README.md.
#![no_main]

use std::sync::Once;

use libfuzzer_sys::fuzz_target;

static CACHE_OFF: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    // Every input is a new program: caching its compile would only fill
    // the disk. Set before clift's configuration is first read.
    CACHE_OFF.call_once(|| std::env::set_var("CLIFT_CACHE", "0"));
    let mut seed = [0u8; 8];
    let n = data.len().min(8);
    seed[..n].copy_from_slice(&data[..n]);
    let seed = u64::from_le_bytes(seed);
    let flags = data.get(8).copied().unwrap_or(0);
    let unit = clift_clgen::generate(seed, flags & 1 != 0);
    let source = unit.source();
    let level = if flags & 2 != 0 { "-O0" } else { "-O2" };
    let options = clift_runtime::options::parse_options(level, clift_runtime::options::OptionsOf::Build)
        .unwrap_or_else(|e| panic!("options {level}: {e:?}"));
    let compiled = match clift_runtime::compiler::compile(&source, &[], &options) {
        Ok(c) => c,
        Err(e) => panic!("seed {seed} ({level}) did not compile: {e:?}\n{source}"),
    };
    let front = clift_jit::front_end(&compiled.spirv, &clift_jit::BuildOptions::default())
        .unwrap_or_else(|e| panic!("seed {seed} ({level}): the front end refused the module: {e:?}\n{source}"));
    for simd in [true, false] {
        let config = clift_jit::CodegenConfig { simd, ..Default::default() };
        let (program, failed) = clift_jit::compile_kernels(&front, &config);
        assert!(
            program.is_some() && failed.is_empty(),
            "seed {seed} ({level}, simd {simd}): kernels not compiled: {failed:?}\n{source}"
        );
    }
});
