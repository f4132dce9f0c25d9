//! Fuzzes the whole build: `front_end` and then `compile_kernels` on every
//! module the front end accepts. Compiled kernels are never run.
//!
//! Most random byte changes break a module's validation, so the mutator is
//! structure-aware: it decodes the instruction stream and changes an operand
//! of an existing instruction (an id for another id of the same type, a
//! literal or constant for an interesting value), moves, copies or deletes
//! an instruction, and only sometimes falls back to libFuzzer's byte-level
//! mutations. Every 2^k-th module that reaches code generation is counted on
//! stderr (`codegen: N of M inputs reached compile_kernels`).
//!
//! `CLIFT_FUZZ_IGNORE_PANICS=file.rs,other.rs`: panics raised in those
//! source files are left to `compile_kernels`' catch_unwind (a diagnostic)
//! instead of aborting, so a known bug someone else is fixing does not stop
//! the run.
#![no_main]

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

static INPUTS: AtomicU64 = AtomicU64::new(0);
static REACHED: AtomicU64 = AtomicU64::new(0);
static COMPILED: AtomicU64 = AtomicU64::new(0);
static HOOK: Once = Once::new();

/// Lets panics from the files named in CLIFT_FUZZ_IGNORE_PANICS unwind into
/// `compile_kernels`' catch_unwind; every other panic aborts (libFuzzer's
/// hook, installed before the first input).
fn install_hook() {
    HOOK.call_once(|| {
        let Ok(files) = std::env::var("CLIFT_FUZZ_IGNORE_PANICS") else {
            return;
        };
        let files: Vec<String> = files.split(',').map(str::to_string).filter(|s| !s.is_empty()).collect();
        let abort_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let ignored = info
                .location()
                .is_some_and(|l| files.iter().any(|f| l.file().ends_with(f.as_str())));
            if !ignored {
                abort_hook(info);
            }
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    install_hook();
    let n = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    let Ok(front) = clift_jit::front_end(data, &clift_jit::BuildOptions::default()) else {
        return;
    };
    let r = REACHED.fetch_add(1, Ordering::Relaxed) + 1;
    let (program, _failed) = clift_jit::compile_kernels(&front);
    if program.is_some() {
        COMPILED.fetch_add(1, Ordering::Relaxed);
    }
    if r.is_power_of_two() {
        eprintln!(
            "codegen: {r} of {n} inputs reached compile_kernels, {} compiled at least one kernel",
            COMPILED.load(Ordering::Relaxed)
        );
    }
    // Dropping the program frees its code: nothing ever runs it.
    drop(program);
});

/// xorshift64*, seeded by libFuzzer.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const INTERESTING: [u32; 16] = [
    0, 1, 2, 3, 4, 7, 8, 16, 31, 32, 63, 64, 255, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff,
];

/// The module's instructions as (offset, word count), if `words` is a
/// well-formed stream after the header.
fn instructions(words: &[u32]) -> Option<Vec<(usize, usize)>> {
    let mut at = 5;
    let mut out = Vec::new();
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        out.push((at, count));
        at += count;
    }
    Some(out)
}

/// Opcodes whose word 1 is a result type and word 2 a result id (the value
/// instructions) are most of them; these are the exceptions that define a
/// result id at word 1 (types, labels, strings, ext-inst imports).
fn result_at_word1(op: u32) -> bool {
    matches!(op, 7 | 11 | 19..=39 | 248)
}

/// One structure-aware mutation of `words` in place (the header kept).
fn mutate_words(words: &mut Vec<u32>, rng: &mut Rng) -> bool {
    let Some(insts) = instructions(words) else {
        return false;
    };
    if insts.is_empty() {
        return false;
    }
    // id -> type of the value it names; type -> ids of that type.
    let mut type_of: HashMap<u32, u32> = HashMap::new();
    let mut of_type: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut constants: Vec<usize> = Vec::new();
    let mut first_function = insts.len();
    for (i, &(at, count)) in insts.iter().enumerate() {
        let op = words[at] & 0xffff;
        if op == 54 && first_function == insts.len() {
            first_function = i;
        }
        if op == 43 || op == 50 {
            // OpConstant, OpSpecConstant: literal words from word 3.
            constants.push(i);
        }
        if count >= 3 && !result_at_word1(op) && op != 54 {
            type_of.insert(words[at + 2], words[at + 1]);
            of_type.entry(words[at + 1]).or_default().push(words[at + 2]);
        }
    }
    let (at, count) = insts[rng.below(insts.len())];
    match rng.below(10) {
        // An id operand becomes another id of the same type.
        0..=3 => {
            if count < 2 {
                return false;
            }
            let ops: Vec<usize> = (1..count).filter(|&k| type_of.contains_key(&words[at + k])).collect();
            let Some(&k) = ops.get(rng.below(ops.len())) else {
                return false;
            };
            let same = &of_type[&type_of[&words[at + k]]];
            words[at + k] = same[rng.below(same.len())];
        }
        // A constant's value becomes an interesting one.
        4 => {
            let Some(&i) = constants.get(rng.below(constants.len())) else {
                return false;
            };
            let (at, count) = insts[i];
            if count < 4 {
                return false;
            }
            let k = 3 + rng.below(count - 3);
            words[at + k] = match rng.below(3) {
                0 => INTERESTING[rng.below(INTERESTING.len())],
                1 => words[at + k].wrapping_add(1 + rng.below(3) as u32),
                _ => words[at + k].wrapping_sub(1 + rng.below(3) as u32),
            };
        }
        // Any operand word becomes an interesting value or a neighbour.
        5 => {
            if count < 2 {
                return false;
            }
            let k = 1 + rng.below(count - 1);
            words[at + k] = match rng.below(3) {
                0 => INTERESTING[rng.below(INTERESTING.len())],
                1 => words[at + k].wrapping_add(1),
                _ => words[at + k].wrapping_sub(1),
            };
        }
        // An instruction is deleted.
        6 => {
            words.drain(at..at + count);
        }
        // An instruction in a function is copied or moved to another place
        // in the functions.
        7 | 8 => {
            if first_function >= insts.len() {
                return false;
            }
            let (src, n) = insts[first_function + rng.below(insts.len() - first_function)];
            let (dst, _) = insts[first_function + rng.below(insts.len() - first_function)];
            let inst: Vec<u32> = words[src..src + n].to_vec();
            let moving = rng.chance(50);
            if moving {
                words.drain(src..src + n);
            }
            let dst = if moving && dst > src { dst - n } else { dst };
            words.splice(dst..dst, inst);
        }
        // Two operands of one instruction are swapped.
        _ => {
            if count < 3 {
                return false;
            }
            let a = 1 + rng.below(count - 1);
            let b = 1 + rng.below(count - 1);
            words.swap(at + a, at + b);
        }
    }
    true
}

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng(u64::from(seed) | 1 << 40);
    let bytes = &data[..size];
    let parsed = clift_jit::words(bytes).ok();
    let Some(mut words) = parsed.filter(|_| !rng.chance(10)) else {
        return fuzzer_mutate(data, size, max_size);
    };
    let mut changed = false;
    for _ in 0..1 + rng.below(3) {
        changed |= mutate_words(&mut words, &mut rng);
    }
    if !changed || words.len() * 4 > max_size {
        return fuzzer_mutate(data, size, max_size);
    }
    // Little-endian, whatever the input's byte order was.
    for (i, w) in words.iter().enumerate() {
        data[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    words.len() * 4
});
