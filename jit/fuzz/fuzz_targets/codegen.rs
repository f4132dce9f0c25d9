//! Fuzzes the whole build: `front_end` and then `compile_kernels` on every
//! module the front end accepts. Compiled kernels are never run.
//!
//! Most random byte changes break a module's validation, so the mutator is
//! structure-aware: it decodes the instruction stream and changes an
//! operand of an existing instruction (an id for another id of the same
//! type that is global or defined earlier in the block, a constant's value
//! for an interesting one), an opcode for another of its family (integer
//! arithmetic, comparisons, atomics, OpenCL.std instruction numbers...),
//! deletes or repeats a statement, or moves an instruction within its block;
//! only sometimes does it fall back to libFuzzer's byte-level mutations.
//! Every 2^k-th module that reaches code generation is counted on stderr
//! (`codegen: N of M inputs reached compile_kernels`); with
//! CLIFT_FUZZ_STATS=file, the counts are appended to `file` every 128
//! inputs (-fork mode drops the jobs' stderr).
//!
//! `CLIFT_FUZZ_IGNORE_PANICS=file.rs,other.rs`: panics raised in those
//! source files are left to `compile_kernels`' catch_unwind (a diagnostic)
//! instead of aborting, so a known bug someone else is fixing does not stop
//! the run.
#![no_main]

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate, Corpus};

static INPUTS: AtomicU64 = AtomicU64::new(0);
static REACHED: AtomicU64 = AtomicU64::new(0);
static COMPILED: AtomicU64 = AtomicU64::new(0);
static HOOK: Once = Once::new();

/// Lets panics from the files named in CLIFT_FUZZ_IGNORE_PANICS unwind into
/// `compile_kernels`' catch_unwind; every other panic aborts (libFuzzer's
/// hook, installed before the first input).
fn install_hook() {
    HOOK.call_once(|| {
        let Some(files) = clift_env::text("CLIFT_FUZZ_IGNORE_PANICS") else {
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

// Modules the front end rejects are kept out of the corpus (the front_end
// target covers them): mutants of valid modules reach code generation far
// more often.
fuzz_target!(|data: &[u8]| -> Corpus {
    install_hook();
    let n = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    if n.is_multiple_of(128) {
        write_stats(n - 1, REACHED.load(Ordering::Relaxed));
    }
    let Ok(front) = clift_jit::front_end(data, &clift_jit::BuildOptions::default()) else {
        return Corpus::Reject;
    };
    let r = REACHED.fetch_add(1, Ordering::Relaxed) + 1;
    let (program, _failed) = clift_jit::compile_kernels(&front, &clift_jit::CodegenConfig::default());
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
    Corpus::Keep
});

/// CLIFT_FUZZ_STATS=file: appends `pid inputs reached compiled` lines (in
/// -fork mode the jobs' stderr is not kept; the last line per pid counts).
fn write_stats(n: u64, r: u64) {
    use std::io::Write;
    let Some(path) = clift_env::value("CLIFT_FUZZ_STATS") else {
        return;
    };
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
        let _ = writeln!(f, "{} {n} {r} {}", std::process::id(), COMPILED.load(Ordering::Relaxed));
    }
}

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

/// Values that make good constants, lengths and literals: small ones,
/// powers of two and their neighbours, the extremes.
#[rustfmt::skip]
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

/// Opcode families whose members take the same operands: one may replace
/// another and keep the module valid.
const FAMILIES: &[&[u32]] = &[
    // Integer arithmetic, shifts and bitwise operations.
    &[128, 130, 132, 134, 135, 137, 138, 139, 194, 195, 196, 197, 198, 199],
    // Float arithmetic.
    &[129, 131, 133, 136, 140, 141],
    // Integer comparisons.
    &[170, 171, 172, 173, 174, 175, 176, 177, 178, 179],
    // Float comparisons.
    &[180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191],
    // Logical operations.
    &[164, 165, 166, 167],
    // Atomic read-modify-writes.
    &[234, 235, 236, 237, 238, 239, 240, 241, 242, 229],
    // Conversions between integers.
    &[113, 114, 124],
    // Memory access chains.
    &[65, 66, 67, 70],
    // Barriers.
    &[224, 225],
];

/// Instructions without a result that may be deleted or repeated: OpStore,
/// OpCopyMemory(Sized), OpControlBarrier, OpMemoryBarrier, OpAtomicStore,
/// OpLifetimeStart/Stop, OpAtomicFlagClear.
fn plain_statement(op: u32) -> bool {
    matches!(op, 62 | 63 | 64 | 224 | 225 | 228 | 256 | 257 | 319)
}

/// One structure-aware mutation of `words` in place (the header kept).
fn mutate_words(words: &mut Vec<u32>, rng: &mut Rng) -> bool {
    let Some(insts) = instructions(words) else {
        return false;
    };
    if insts.is_empty() {
        return false;
    }
    // id -> type of the value it names; type -> ids of that type defined
    // before the functions (constants, variables: usable anywhere).
    let mut type_of: HashMap<u32, u32> = HashMap::new();
    let mut global_of_type: HashMap<u32, Vec<u32>> = HashMap::new();
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
        if count >= 3 && !result_at_word1(op) && op != 54 && op != 55 {
            type_of.insert(words[at + 2], words[at + 1]);
            if i < first_function {
                global_of_type.entry(words[at + 1]).or_default().push(words[at + 2]);
            }
        }
    }
    let pick = rng.below(insts.len());
    let (at, count) = insts[pick];
    let op = words[at] & 0xffff;
    match rng.below(16) {
        // An id operand becomes another id of the same type: a global one,
        // or one defined earlier in the same block.
        0..=4 => {
            if count < 2 {
                return false;
            }
            let ops: Vec<usize> = (1..count)
                .filter(|&k| (k != 2 || result_at_word1(op)) && type_of.contains_key(&words[at + k]))
                .collect();
            let Some(&k) = ops.get(rng.below(ops.len())) else {
                return false;
            };
            let ty = type_of[&words[at + k]];
            let globals = global_of_type.get(&ty).cloned().unwrap_or_default();
            // The values of type `ty` defined earlier in this block.
            let mut earlier = Vec::new();
            if pick > first_function {
                let mut j = pick;
                while j > first_function && words[insts[j].0] & 0xffff != 248 {
                    j -= 1;
                    let (a, c) = insts[j];
                    if c >= 3 && words[a + 1] == ty && !result_at_word1(words[a] & 0xffff) {
                        earlier.push(words[a + 2]);
                    }
                }
            }
            let candidates = if earlier.is_empty() || (!globals.is_empty() && rng.chance(40)) {
                globals
            } else {
                earlier
            };
            let Some(&new) = candidates.get(rng.below(candidates.len())) else {
                return false;
            };
            words[at + k] = new;
        }
        // A constant's value becomes an interesting one.
        5 | 6 => {
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
        // An opcode becomes another of its family.
        7..=9 => {
            let Some(family) = FAMILIES.iter().find(|f| f.contains(&op)) else {
                // Or an OpenCL.std instruction another one.
                if op == 12 && count >= 5 {
                    words[at + 4] = if rng.chance(50) {
                        rng.below(200) as u32
                    } else {
                        words[at + 4].wrapping_add(1)
                    };
                    return true;
                }
                return false;
            };
            let new = family[rng.below(family.len())];
            words[at] = (words[at] & 0xffff_0000) | new;
        }
        // Any operand word becomes an interesting value or a neighbour.
        10 => {
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
        // A statement is deleted.
        11 => {
            if !plain_statement(op) {
                return false;
            }
            words.drain(at..at + count);
        }
        // A statement is copied elsewhere in its block.
        12 | 13 => {
            if !plain_statement(op) {
                return false;
            }
            let inst: Vec<u32> = words[at..at + count].to_vec();
            // Forward, up to the block's terminator.
            let mut j = pick + 1;
            while j < insts.len() && rng.chance(70) {
                let o = words[insts[j].0] & 0xffff;
                if (245..=255).contains(&o) || o == 250 {
                    break;
                }
                j += 1;
            }
            let dst = insts.get(j).map_or(words.len(), |&(a, _)| a);
            words.splice(dst..dst, inst);
        }
        // A block's instruction is moved one place up or down.
        14 => {
            if pick + 1 >= insts.len() || pick < first_function {
                return false;
            }
            let (next_at, next_count) = insts[pick + 1];
            let next_op = words[next_at] & 0xffff;
            if op == 248 || next_op == 248 || (245..=255).contains(&next_op) || op == 245 || next_op == 245 {
                return false;
            }
            let moved: Vec<u32> = words[next_at..next_at + next_count].to_vec();
            words.drain(next_at..next_at + next_count);
            words.splice(at..at, moved);
        }
        // Two operands of one instruction are swapped.
        _ => {
            if count < 4 {
                return false;
            }
            let a = 3 + rng.below(count - 3);
            let b = 3 + rng.below(count - 3);
            words.swap(at + a, at + b);
        }
    }
    true
}

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng(u64::from(seed) | 1 << 40);
    let bytes = &data[..size];
    let parsed = clift_jit::words(bytes).ok();
    let Some(mut words) = parsed.filter(|_| !rng.chance(5)) else {
        return fuzzer_mutate(data, size, max_size);
    };
    let mut changed = false;
    for _ in 0..1 + rng.below(2) {
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
