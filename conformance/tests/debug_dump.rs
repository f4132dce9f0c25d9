//! Debug dumps (README, "Debugging"): with `CLIFT_DUMP=<dir>` set, each
//! clBuildProgram writes, per kernel and helper function, the SPIR-V
//! disassembly, the Cranelift IR before and after optimisation and the
//! machine code to `<dir>/<module hash>/`.
//!
//! The variable is set before the first OpenCL call, so this file is its
//! own test process with a single test: no other test builds programs with
//! dumps on or off behind its back.

use std::path::Path;
use std::ptr;

use clift_conformance::dump::{self, Dumps};
use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn build_writes_spirv_clif_and_machine_code_per_kernel() {
    // Before the first OpenCL call (and so before any build): the variable
    // is read at each build.
    let mut dumps = Dumps::new("clift-dump-test");
    let ctx = context();
    let q = queue(ctx, 0);

    for level in ["O0", "O2"] {
        let (p, dir) = dumps.build(ctx, &spirv(&format!("clbench/{level}/vadd")), level);
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        assert!(
            name.len() == 16 && name.chars().all(|c| c.is_ascii_hexdigit()),
            "folder named by a 16-digit hash: {name}"
        );

        let module = read(&dir.join("module.spvasm"));
        assert!(module.contains("OpCapability Kernel"), "{module}");
        assert!(module.contains("OpEntryPoint Kernel"), "{module}");
        assert!(module.contains("\"vadd\""), "{module}");

        let spv = read(&dir.join("vadd.spvasm"));
        assert!(
            spv.starts_with(char::is_whitespace) && spv.contains("= OpFunction "),
            "{spv}"
        );
        assert!(spv.trim_end().ends_with("OpFunctionEnd"), "{spv}");

        let clif = read(&dir.join("vadd.clif"));
        assert!(clif.starts_with("function "), "{clif}");
        assert!(clif.contains("block0(v0: i64)"), "{clif}");
        let opt = read(&dir.join("vadd.opt.clif"));
        assert!(opt.starts_with("function "), "{opt}");
        // The 8-lane body's chunk (four vector loads: both parts' a[i] and
        // b[i]) is entered on one comparison, i + 7 < n: the guard holds
        // for every lane when it does for part 1's last (the parts' ids are
        // consecutive), so part 0's i + 3 < n is not tested as well.
        let blocks: Vec<&str> = opt.split("\nblock").collect();
        let (chunk, _) = blocks
            .iter()
            .filter_map(|b| b.split_once(':'))
            .find(|(_, body)| body.matches("load.f32x4").count() == 4)
            .unwrap_or_else(|| panic!("{level}: an 8-lane chunk of vadd: {opt}"));
        let entry = blocks
            .iter()
            .find(|b| {
                b.lines()
                    .any(|l| l.trim_start().starts_with("brif") && l.contains(&format!(" block{chunk},")))
            })
            .unwrap_or_else(|| panic!("{level}: the branch to block{chunk}: {opt}"));
        assert_eq!(
            entry.matches(" icmp").count(),
            1,
            "{level}: the test before vadd's chunk: {entry}"
        );
        // The helper or inlined body adds two floats: an fadd somewhere in
        // the optimised IR of the kernel or of a helper.
        let all_opt: String = std::fs::read_dir(&dir)
            .expect("dump folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".opt.clif"))
            .map(|p| read(&p))
            .collect();
        assert!(all_opt.contains("fadd"), "{all_opt}");

        let asm = read(&dir.join("vadd.asm"));
        assert!(asm.contains("bytes of machine code"), "{asm}");
        assert!(asm.contains("ret"), "a listing with a return: {asm}");
        assert!(asm.contains("\n000000:"), "hex bytes with offsets: {asm}");
        let bin = std::fs::read(dir.join("vadd.bin")).expect("vadd.bin");
        assert!(!bin.is_empty());
        let hex_count = asm
            .lines()
            .filter(|l| l.len() > 7 && l.as_bytes()[6] == b':' && l[..6].chars().all(|c| c.is_ascii_hexdigit()))
            .count();
        assert_eq!(hex_count, bin.len().div_ceil(16), "one hex line per 16 code bytes");

        // The dumped kernel still runs: c = a + b over 1024 floats, with
        // the guard i < m at 1024 and inside the last chunk of eight: in
        // its second part (1021), at its end (1023), at the parts'
        // boundary (1020) and in its first part (1018); c[i] past m keeps
        // -1.
        let n = 1024usize;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
        let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_ne_bytes()).collect::<Vec<u8>>();
        let (ba, bb, bc) = (
            buffer(ctx, CL_MEM_READ_WRITE, 4 * n),
            buffer(ctx, CL_MEM_READ_WRITE, 4 * n),
            buffer(ctx, CL_MEM_READ_WRITE, 4 * n),
        );
        write_bytes(q, ba, 0, &bytes(&a));
        write_bytes(q, bb, 0, &bytes(&b));
        let k = kernel(p, "vadd");
        check(set_arg(k, 0, &ba));
        check(set_arg(k, 1, &bb));
        check(set_arg(k, 2, &bc));
        for m in [n, 1021, 1023, 1020, 1018] {
            write_bytes(q, bc, 0, &bytes(&vec![-1.0; n]));
            check(set_arg(k, 3, &(m as u32)));
            // SAFETY: valid queue and kernel with every argument set; one
            // dimension of n work-items, NULL local size, no events.
            check(unsafe {
                clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &n, ptr::null(), 0, ptr::null(), ptr::null_mut())
            });
            let out = read_bytes(q, bc, 0, 4 * n);
            for (i, c) in out.chunks_exact(4).enumerate() {
                let c = f32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
                let want = if i < m { 3.0 * i as f32 } else { -1.0 };
                assert_eq!(c, want, "{level}: n = {m}, c[{i}]");
            }
        }
        for m in [ba, bb, bc] {
            release_mem(m);
        }
        // SAFETY: valid handles, released once.
        unsafe {
            check(clReleaseKernel(k));
            check(clReleaseProgram(p));
        }
    }
    // Which kernels got a 4-lane body (jit/src/lower/simd), and why the
    // others did not: `<kernel>.scalar.txt`.
    for level in [Opt::O0, Opt::O2] {
        let (p, dir) = dumps.build(ctx, &exec::corpus_spirv("simd", level), &format!("{level:?}"));
        let guarded = read(&dir.join("guarded_add.opt.clif"));
        let scalar = |k: &str| std::fs::read_to_string(dir.join(format!("{k}.scalar.txt"))).ok();
        match level {
            Opt::O2 => {
                assert!(guarded.contains("f32x4"), "guarded_add runs 4 lanes at -O2: {guarded}");
                let barriers = read(&dir.join("barrier_shapes.opt.clif"));
                assert!(barriers.contains("f32x4"), "chunk phases: {barriers}");
                assert_eq!(scalar("guarded_add"), None);
                // A loop whose lanes leave at different iterations runs
                // under a mask, side effects included (each lane's only
                // while it is in the loop).
                assert_eq!(scalar("varying_loop"), None);
                assert_eq!(scalar("escape"), None);
                assert_eq!(scalar("varying_loop_atomic"), None);
                // A struct passed by value whose lanes differ, and a
                // generic pointer cast back per lane.
                assert_eq!(scalar("byval_lanes"), None);
                assert_eq!(scalar("cast_back"), None);
                // islessgreater: a vector compare x86-64 makes of two.
                assert_eq!(scalar("ordered_compares"), None);
                assert!(!dir.join("module.scalar.txt").exists());
            }
            Opt::O0 => {
                // -O0 keeps every local in a private variable: shared by
                // the lanes when it only ever holds values the same in
                // every lane, else one copy per lane side by side.
                let vec4 = read(&dir.join("vec4.opt.clif"));
                assert!(vec4.contains("f32x4"), "vec4 runs 4 lanes at -O0: {vec4}");
                // In kernels with barriers too: a chunk's frame holds a
                // copy per lane of each variable the lanes do not share.
                assert_eq!(scalar("barrier_shapes"), None, "barrier_shapes runs 4 lanes at -O0");
                let barriers = read(&dir.join("barrier_shapes.opt.clif"));
                assert!(barriers.contains("x4"), "chunk phases at -O0: {barriers}");
            }
        }
        // mad24 and mul24 as vector multiplies: a 4-lane body at both
        // levels (at -O0, lane by lane, they outweighed it).
        let ints = read(&dir.join("int_builtins.opt.clif"));
        assert!(ints.contains("i32x4"), "{level:?}: int_builtins runs 4 lanes: {ints}");
        assert_eq!(scalar("int_builtins"), None, "{level:?}");
        // rotate, popcount, clz and mul_hi as vector code.
        let bits = read(&dir.join("int_bits.opt.clif"));
        assert!(
            bits.contains("uwiden_low") && bits.contains("swiden_low"),
            "{level:?}: int_bits multiplies as vectors: {bits}"
        );
        assert_eq!(scalar("int_bits"), None, "{level:?}");
        // Shifts of int lanes left by a count per lane: multiplied by
        // powers of two made from float exponents (`x << n`, `1 << i`,
        // `x << (n & 7)`, in each part of the 8-lane body; lane by lane,
        // none).
        let shifts = dump::vector_ir(&dir, "shifts_by_lanes", &format!("{level:?}: simd"));
        let powers = shifts.matches("x86_cvtt2dq").count();
        assert!(
            powers >= 2 * 3,
            "{level:?}: shifts_by_lanes makes {powers} powers of two: {shifts}"
        );
        // A masked loop carrying short and char values (their blends
        // once failed Cranelift's verifier, which dropped the body).
        dump::vector_ir(&dir, "masked_narrow_loop", &format!("{level:?}: simd"));
        // `int i = get_global_id(0)` as an index (clang -O2: the id's
        // low bits sign-extended by two shifts): one vector load where
        // the lanes do not wrap (lane by lane before, 2.4x slower:
        // criterion math/index_int).
        let ids = dump::vector_ir(&dir, "sign_extended_ids", &format!("{level:?}: simd"));
        assert!(
            ids.contains("load.f32x4"),
            "{level:?}: sign_extended_ids gathers its loads: {ids}"
        );
        // vload4, uchar4 and its components through such an index: whole
        // blocks where it does not wrap (gathered before).
        let small = dump::vector_ir(&dir, "wrapped_small_vectors", &format!("{level:?}: simd"));
        assert!(
            small.contains("load.i8x16"),
            "{level:?}: wrapped_small_vectors gathers its blocks: {small}"
        );
        // Forms found by their instructions, at least so many of each:
        // - indices clamped to a buffer or taken modulo a width: one vector
        //   access where no lane is clamped or wraps (every access of these
        //   kernels gathered before): clamped_indices' seven floats moving
        //   by 4 bytes and its float4 blocks, the box filter's reads;
        // - vload_half and its vector forms: each component's four halves
        //   widened to `i32x4` at once (lane by lane before, a host call per
        //   half, which the scalar body still makes);
        // - vstore_half and its vector forms rounding to nearest even: each
        //   component's four halves encoded at once (`unarrow`), the blocks
        //   written whole;
        // - 32-bit values through pointers moving by 8 or 12 bytes: two
        //   reads and a shuffle each (gathered before: 81 insertions);
        // - vload3 and vstore3: two shuffles per component or vector (lane
        //   by lane before, 27 and 24 moves in and out of vectors);
        // - fmod and remainder of floats: in double where every lane's
        //   quotient is small (`f64x2` halves, demoted), else the host
        //   function per lane on its own branch;
        // - lanes moving down (`in[n - 1 - i]`): one vector read and a
        //   shuffle (gathered before), of ints, longs (beside the reads
        //   moving up) and local memory.
        for (kernel, pattern, least) in [
            ("clamped_indices", "load.f32x4", 7),
            ("clamped_indices", "load.i8x16", 1),
            ("remainder_indices", "load.f32x4", 3),
            ("clamped_blur", "load.f32x4", 1),
            ("half_loads_lanes", "uwiden_low", 7),
            ("half_stores_lanes", "unarrow", 7),
            ("strided_loads_lanes", "= shuffle", 8),
            ("vector3_lanes", "= shuffle", 12),
            ("remainders_lanes", "fvdemote", 8),
            ("reversed_access", "load.i32x4", 6),
            ("reversed_access", "load.i64x2", 12),
            ("reversed_local", "load.f32x4", 9),
        ] {
            let ir = dump::vector_ir(&dir, kernel, &format!("{level:?}: simd"));
            let n = ir.matches(pattern).count();
            assert!(
                n >= least,
                "{level:?}: {kernel} has {n} `{pattern}`, not {least} (its vector form is gone): {ir}"
            );
        }
        // Indices clamped by hand (`i < 0 ? 0 : i`, `i + 1 < w ? i + 1 :
        // i`): at -O2 (selects; -O0's branches stay gathers) five of
        // selected_indices' eight reads are one vector each in each body
        // (gathered before).
        if level == Opt::O2 {
            let ir = dump::vector_ir(&dir, "selected_indices", "O2: simd");
            let n = ir.matches("load.f32x4").count();
            assert!(n >= 15, "O2: selected_indices has {n} vector reads: {ir}");
        }
        // sincos, fract and modf with their second result through a
        // pointer: both results vector code (lane by lane before, the
        // lanes put back together after each call).
        let pointers = dump::vector_ir(&dir, "pointer_results_lanes", &format!("{level:?}: simd"));
        assert!(
            !pointers.contains("insertlane"),
            "{level:?}: pointer_results_lanes computes lane by lane: {pointers}"
        );
        // Division and remainder of 8-, 16- and 32-bit lanes in double by
        // divisors that are not constants (fourteen, two truncations each,
        // in the 4-lane body and in each part of the 8-lane body) and by
        // constants as multiplies: no result built lane by lane (the lanes
        // are taken out only to be stored; lane by lane, 90 insertions).
        for kernel in ["divide_by_lanes", "remainder_by_lanes"] {
            let ir = dump::vector_ir(&dir, kernel, &format!("{level:?}: simd"));
            let truncs = ir.matches("= trunc").count();
            assert!(
                truncs >= 3 * 14 * 2 && !ir.contains("insertlane"),
                "{level:?}: {kernel} divides {truncs} / 2 times in double: {ir}"
            );
        }
        // abs_diff, add_sat, sub_sat, hadd, rhadd and mad_hi of every
        // width (lane by lane before, 648 insertions), logb, ilogb and
        // nextafter of floats from the bits, powr and rootn with selects,
        // signbit of floats and doubles, ctz of ints, bitselect and
        // upsample of integers, popcount, clz, ctz, mul_hi and rotate of
        // 8- and 16-bit integers, mad_sat of 8- to 32-bit integers, mad_hi
        // of 8- and 16-bit ones, rotates of longs by a count the same in
        // every lane, acospi, asinpi, atanpi and atan2pi of doubles (one
        // four-lane call, then the pi part and special values as
        // vectors): vector code.
        for kernel in [
            "int_builtins_lanes",
            "sign_bits_lanes",
            "ctz_lanes",
            "bitselect_lanes",
            "upsample_lanes",
            "narrow_bits_lanes",
            "mad_sat_lanes",
            "pi_forms_double",
            "exponent_lanes",
            "nextafter_lanes",
            "powr_lanes",
            "rootn_lanes",
        ] {
            let ir = dump::vector_ir(&dir, kernel, &format!("{level:?}: simd"));
            assert!(
                !ir.contains("insertlane"),
                "{level:?}: {kernel} computes lane by lane: {ir}"
            );
        }
        // Of 64-bit lanes: in double where every lane is below 2^51 in
        // magnitude (a test of the lanes, then the `f64x2` quotients), and
        // conversions between them and floats through the 32-bit ones
        // where every lane is below 2^31 (a test, then `cvttps2dq`, ...);
        // lane by lane on the other branch.
        for kernel in [
            "divide_longs_by_lanes",
            "remainder_longs_by_lanes",
            "long_conversions_by_lanes",
        ] {
            let ir = dump::vector_ir(&dir, kernel, &format!("{level:?}: simd"));
            assert!(
                ir.contains("vany_true")
                    && if kernel == "long_conversions_by_lanes" {
                        ir.contains("vall_true") && ir.contains("x86_cvtt2dq")
                    } else {
                        ir.contains("= trunc")
                    },
                "{level:?}: {kernel} has no path in double: {ir}"
            );
        }
        // exp, log, erf, sin and cos: in the 4-lane body one call each,
        // the four lanes in a vector register both ways (no stack slot);
        // in the 8-lane body one call each for both parts (the 8-lane
        // form: the two parts in vector registers, the results through a
        // stack slot).
        assert_eq!(scalar("math4"), None, "{level:?}");
        let math = read(&dir.join("math4.opt.clif"));
        #[cfg(all(target_arch = "x86_64", not(windows)))]
        {
            assert_eq!(
                math.matches("(f32x4) -> f32x4").count(),
                5,
                "{level:?}: math4 calls the register forms: {math}"
            );
            assert_eq!(
                math.matches("(f32x4, f32x4, i64) system_v").count(),
                5,
                "{level:?}: math4 calls the 8-lane forms: {math}"
            );
        }
        assert!(
            !dir.join("int_bits.lanes.txt").exists(),
            "{level:?}: int_bits keeps vectors"
        );
        // The hash loop: a 4-lane body with every value per lane.
        assert_eq!(scalar("hash_lanes"), None, "{level:?}");
        let why = read(&dir.join("hash_lanes.lanes.txt"));
        assert!(why.contains("scalars per lane"), "{level:?}: {why}");
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
    }
    // Masked execution (kernels/cl/simd_masked.cl): at -O2 every kernel
    // gets a 4-lane body, those with barriers and branches whose lanes
    // differ included.
    {
        let (p, dir) = dumps.build(ctx, &exec::corpus_spirv("simd_masked", Opt::O2), "simd_masked O2");
        for k in [
            "grid_sum",
            "collatz",
            "branch_after_store",
            "nested_in_loop",
            "arms_across_barrier",
            "guarded_tail",
            "calls_under_masks",
            "crossing_paths",
            "guarded_rotated_loop",
            "private_across_barriers",
            "loop_in_arm",
            "switch_with_loops",
        ] {
            let why = std::fs::read_to_string(dir.join(format!("{k}.scalar.txt"))).ok();
            assert_eq!(why, None, "{k} runs 4 lanes at -O2");
            let clif = read(&dir.join(format!("{k}.opt.clif")));
            assert!(clif.contains("x4"), "{k}: {clif}");
        }
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
        // At -O0 too, where clang keeps every call: the calls in an arm
        // and in a masked loop are inlined under the caller's mask.
        let (p, dir) = dumps.build(ctx, &exec::corpus_spirv("simd_masked", Opt::O0), "simd_masked O0");
        for k in [
            "calls_under_masks",
            "crossing_paths",
            "loop_in_arm",
            "uniform_access_in_crossing_paths",
            "switch_with_loops",
        ] {
            let why = std::fs::read_to_string(dir.join(format!("{k}.scalar.txt"))).ok();
            assert_eq!(why, None, "{k} runs 4 lanes at -O0");
        }
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
        // 8-lane bodies (kernels/cl/simd_wide.cl): no `<kernel>.narrow.txt`
        // (written for every kernel without one) at either level.
        // `narrowed` and `crowded_escape`, whose loop exits differ between
        // work-items, get them too (each part has its own active lanes).
        for level in Opt::BOTH {
            let (p, dir) = dumps.build(
                ctx,
                &exec::corpus_spirv("simd_wide", level),
                &format!("simd_wide {level:?}"),
            );
            // (At -O0, private_calls' and tiles_across_barriers' loops
            // move values between vectors and scalars per lane: a 4-lane
            // body holding scalars.)
            // tiles_across_barriers and tree_sums have barriers.
            let wide: &[&str] = match level {
                Opt::O0 => &[
                    "dot_columns",
                    "counts_and_ids",
                    "moves",
                    "masked_arm",
                    "crossing",
                    "tree_sums",
                    "narrowed",
                    "crowded_escape",
                ],
                Opt::O2 => &[
                    "dot_columns",
                    "narrowed",
                    "crowded_escape",
                    "strided",
                    "private_calls",
                    "counts_and_ids",
                    "moves",
                    "masked_arm",
                    "crossing",
                    "tiles_across_barriers",
                    "tree_sums",
                ],
            };
            // math8: exp, log, erf, sin, cos, tan and pow of a float and
            // of a float2's two components, each one call of the 8-lane
            // form for both parts.
            #[cfg(all(target_arch = "x86_64", not(windows)))]
            {
                let math = read(&dir.join("math8.opt.clif"));
                assert_eq!(
                    math.matches("(f32x4, f32x4, i64) system_v").count(),
                    18,
                    "{level:?}: math8 calls the 8-lane forms: {math}"
                );
                assert_eq!(
                    math.matches("(f32x4, f32x4, f32x4, f32x4, i64) system_v").count(),
                    3,
                    "{level:?}: math8 calls pow's 8-lane form: {math}"
                );
                // The half_ and native_ forms the table implements with
                // the plain functions get those functions' 8-lane forms;
                // exp2, exp10, log2 and log10 have their own.
                let native = read(&dir.join("math8_native.opt.clif"));
                assert_eq!(
                    native.matches("(f32x4, f32x4, i64) system_v").count(),
                    9,
                    "{level:?}: math8_native calls the 8-lane forms: {native}"
                );
                // math8_sincos: sincos of a float, a float2's two
                // components, a float through global memory and a double,
                // each the 8-lane sin and cos for both parts (each part's
                // own 4-lane calls before: twice as many).
                let sincos = read(&dir.join("math8_sincos.opt.clif"));
                assert_eq!(
                    (
                        sincos.matches("(f32x4, f32x4, i64) system_v").count(),
                        sincos.matches("(f64x2, f64x2, f64x2, f64x2, i64) system_v").count()
                    ),
                    (8, 2),
                    "{level:?}: math8_sincos calls the 8-lane sin and cos: {sincos}"
                );
                // math8_libm: 16 one-argument functions and atan2,
                // atan2pi of a float and of a float2's two components
                // (builtins/src/libm_float_lanes.rs), one call of the
                // 8-lane form each.
                let libm = dump::eight_lane_ir(&dir, "math8_libm", &format!("{level:?}"));
                assert_eq!(
                    libm.matches("(f32x4, f32x4, i64) system_v").count(),
                    48,
                    "{level:?}: math8_libm calls the 8-lane forms: {libm}"
                );
                assert_eq!(
                    libm.matches("(f32x4, f32x4, f32x4, f32x4, i64) system_v").count(),
                    6,
                    "{level:?}: math8_libm calls atan2's and atan2pi's 8-lane forms: {libm}"
                );
                // The lane-wise recipes of floats and doubles, round,
                // fdim, ldexp and conversions with rounding modes as
                // vectors (common_lanes: no lane taken out; the only
                // calls the scalar body's seventeen, two rounds, fdim,
                // ldexp, native_rsqrt, half_rsqrt, two powns, two
                // sinpis, two cospis and two tanpis of floats, round,
                // fdim and pown of doubles; and in each 4-lane part, the
                // 8-lane body's two and the 4-lane body's, the four-lane
                // pow of the three powns, nine in all, and the four-lane
                // sin and cos of each sinpi and cospi and tan of each
                // tanpi, 30);
                // cross, length, distance and
                // normalize (geometry_lanes: no call, and at -O2 no lane
                // taken out; -O0 stores its double3 per lane, a copy each).
                let geometry = dump::eight_lane_ir(&dir, "geometry_lanes", &format!("{level:?}"));
                assert!(
                    (level == Opt::O0 || !geometry.contains("extractlane")) && !geometry.contains("call_indirect"),
                    "{level:?}: geometry_lanes computes lane by lane: {geometry}"
                );
                let common = dump::eight_lane_ir(&dir, "common_lanes", &format!("{level:?}"));
                let calls = common.matches("call_indirect").count();
                assert!(
                    !common.contains("extractlane")
                        && calls == 56
                        && common.matches("= (f64x2, f64x2, f64x2, f64x2, i64) system_v").count() == 9
                        && common.matches("= (f64x2, f64x2, i64) system_v").count() == 30,
                    "{level:?}: common_lanes computes lane by lane ({calls} calls): {common}"
                );
                // The scalar functions are called by the scalar body only
                // (the same function: 16 one-argument ones and atan2,
                // atan2pi and hypot, of a float and two components); the
                // vector bodies compute hypot inline.
                assert_eq!(
                    (
                        libm.matches(") -> f32 system_v").count(),
                        libm.matches("(f32, f32) -> f32 system_v").count()
                    ),
                    (57, 9),
                    "{level:?}: math8_libm calls scalar functions lane by lane: {libm}"
                );
            }
            for k in wide
                .iter()
                .chain(&["math8", "math8_libm", "math8_sincos", "geometry_lanes_double"])
            {
                let narrow = std::fs::read_to_string(dir.join(format!("{k}.narrow.txt"))).ok();
                assert_eq!(narrow, None, "{k} runs 8 lanes at {level:?}");
                assert_eq!(std::fs::read_to_string(dir.join(format!("{k}.scalar.txt"))).ok(), None);
            }
            // crowded_escape's loop reads its invariants from memory
            // (jit/src/invariant_loads.rs: each use a load of the
            // invariant slot, which the optimiser's own loads never are).
            let crowded = read(&dir.join("crowded_escape.opt.clif"));
            let slot_loads = crowded.matches("load.f32x4 notrap aligned v").count()
                + crowded.matches("load.f64x2 notrap aligned v").count();
            assert!(
                slot_loads >= 6,
                "{level:?}: crowded_escape reads {slot_loads} invariants from memory: {crowded}"
            );
            // Its exit values are merged under the lanes' masks with one
            // blend each (jit/src/lower/simd/masked.rs, `blend`).
            let asm = read(&dir.join("crowded_escape.asm"));
            assert!(
                asm.contains("blendvps"),
                "{level:?}: crowded_escape merges without blendv: {asm}"
            );
            // A loop carrying a float8 and an int8: 16 registers a part.
            let why = read(&dir.join("vector_chains.narrow.txt"));
            assert!(
                why.contains("would take more than 14 vector registers in an 8-lane body"),
                "{level:?}: {why}"
            );
            assert_eq!(std::fs::read_to_string(dir.join("vector_chains.scalar.txt")).ok(), None);
            // At -O0 strided's second loop follows its first one's exit
            // block, whose phis do not count as the second loop's
            // counters (each lane's value comes from the iteration it left
            // the first loop in): its values held as scalars per lane, a
            // 4-lane body.
            for k in ["narrowed", "crossing", "strided", "loops_in_a_row"] {
                assert_eq!(std::fs::read_to_string(dir.join(format!("{k}.scalar.txt"))).ok(), None);
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
        // A module with a kernel that cannot run (its private array is
        // more than a work-item's stack): the others keep 4-lane bodies.
        let (p, dir) = dumps.build(ctx, &exec::corpus_spirv("unsupported", Opt::O2), "unsupported O2");
        assert_eq!(std::fs::read_to_string(dir.join("runs.scalar.txt")).ok(), None);
        let runs = read(&dir.join("runs.opt.clif"));
        assert!(runs.contains("i32x4"), "runs keeps its 4-lane body: {runs}");
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
        // clbench's reduce and hist_local shapes (barriers, branches and
        // loops whose lanes differ, local atomics), and private arrays
        // indexed by each lane's values and kept across barriers
        // (live_across, big_group: a copy per lane in the chunk's frame),
        // at -O0 too (where reduce's first loop, whose exit differs, is
        // followed by a block with a barrier: its exit, not a tail of it).
        for (module, level, ks) in [
            ("local_barrier", Opt::O2, &["reduce", "live_across", "big_group"][..]),
            ("atomics", Opt::O2, &["hist_local"][..]),
            ("local_barrier", Opt::O0, &["reduce", "live_across", "big_group"][..]),
            ("atomics", Opt::O0, &["hist_local"][..]),
        ] {
            let (p, dir) = dumps.build(ctx, &exec::corpus_spirv(module, level), &format!("{module} {level:?}"));
            for k in ks {
                let why = std::fs::read_to_string(dir.join(format!("{k}.scalar.txt"))).ok();
                assert_eq!(why, None, "{k} runs 4 lanes at {level:?}");
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
    }
    // clbench's sgemm_tiled at -O2: after its first barrier, the block of
    // 16 multiply-adds on loads from the two tiles. Each multiply-add
    // stays next to its two loads (lower/schedule.rs: not all 32 loads
    // first, then the chain), and the 32 tile addresses are computed
    // again from the local ids (lower/remat.rs: not 32 loads from the
    // frame), in both bodies.
    {
        let (p, dir) = dumps.build(ctx, &spirv("clbench/O2/sgemm_tiled"), "sgemm_tiled");
        // Its chunks of eight as two parts, besides those of four.
        assert_eq!(std::fs::read_to_string(dir.join("sgemm_tiled.narrow.txt")).ok(), None);
        let clif = read(&dir.join("sgemm_tiled.opt.clif"));
        let lines: Vec<&str> = clif.lines().collect();
        let mut chains = 0;
        let mut start = 0;
        let mut seen = false;
        for (n, l) in lines.iter().enumerate() {
            if l.starts_with("block") {
                (start, seen) = (n, false);
            }
            if seen || !(l.contains(" = fma ") || l.contains(" = fma.")) {
                continue;
            }
            // The first multiply-add of its block: what the block does
            // before it (besides its two loads, the sum reloaded from the
            // frame; in the 8-lane body, each part's sum and B row, and
            // the A element they share).
            seen = true;
            let before = &lines[start..n];
            let loads = |ty: &str| before.iter().filter(|l| l.contains(&format!(" = load.{ty} "))).count();
            assert!(
                loads("f32") + loads("f32x4") <= 5,
                "loads before the first multiply-add: {}",
                before.join("\n")
            );
            assert!(loads("i64") < 8, "frame loads before the chain: {}", before.join("\n"));
            chains += 1;
        }
        assert!(chains >= 2, "a chain in each body: {clif}");
        // Every multiply-add but a chain's last is pinned (stored to the
        // scratch slot right after it), in both parts of the 8-lane body:
        // the parts' pins in one place let Cranelift drop part 0's.
        let fmas: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.trim().split_once(" = fma").map(|(v, _)| v))
            .collect();
        let unpinned = fmas
            .iter()
            .filter(|v| !clif.contains(&format!("store notrap {v}, ")))
            .count();
        assert!(
            fmas.len() >= 64 && unpinned <= 4,
            "{unpinned} of {} multiply-adds not pinned: {clif}",
            fmas.len()
        );
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
    }
    // clbench's sgemm_naive at -O0: its loop counter is a private variable
    // the lanes share, so the loop's exit is the same in every lane.
    let (p, dir) = dumps.build(ctx, &spirv("clbench/O0/sgemm_naive"), "sgemm_naive");
    let sgemm = read(&dir.join("sgemm_naive.opt.clif"));
    assert!(sgemm.contains("f32x4"), "sgemm_naive runs 4 lanes at -O0: {sgemm}");
    // SAFETY: a valid program, released once.
    unsafe { check(clReleaseProgram(p)) };
    // clang -O0 keeps every local in a Function variable; the build turns
    // those only loaded and stored into values (jit/src/promote.rs), so
    // vadd's `i` is known consecutive across the lanes and `a[i]` is one
    // vector load per part, not a load per lane; mandelbrot's loop, whose
    // exit differs between work-items, hands its values on through phis
    // at its exit and gets a 4-lane body, as it does with
    // -cl-clift-keep-variables (its values then pass through memory,
    // which the mask covers); kept, vadd's `a[i]` is a load per lane.
    for (options, promoted) in [("", true), ("-cl-clift-keep-variables", false)] {
        // A root of its own: the -O0 vadd above has a folder already.
        let mut dumps = Dumps::new(&format!("clift-dump-promoted-{promoted}"));
        let (p, dir) = dumps.build_with(ctx, &spirv("clbench/O0/vadd"), options, &format!("vadd O0 {options}"));
        let vadd = read(&dir.join("vadd.opt.clif"));
        let vector_loads = vadd.matches("load.f32x4").count();
        let lane_loads = vadd.matches("load.f32 ").count();
        if promoted {
            assert!(vector_loads >= 2 && lane_loads <= 2, "vadd at -O0: {vadd}");
        } else {
            assert!(lane_loads >= 8, "vadd at -O0 with {options}: {vadd}");
        }
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
        let (p, dir) = dumps.build_with(
            ctx,
            &spirv("clbench/O0/mandelbrot"),
            options,
            &format!("mandelbrot O0 {options}"),
        );
        let why = std::fs::read_to_string(dir.join("mandelbrot.scalar.txt")).ok();
        assert_eq!(why, None, "mandelbrot at -O0 {options}");
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
    }
    std::env::set_var("CLIFT_DUMP", dumps.root());
    // clift's own -cl-clift-max-lanes=1 keeps the scalar body alone (tests
    // and the differential generator run programs in every mode with it).
    {
        drop(dumps);
        let mut scalar_dumps = Dumps::new("clift-dump-scalar");
        let (p, dir) = scalar_dumps.build_with(
            ctx,
            &exec::corpus_spirv("simd", Opt::O2),
            "-cl-clift-max-lanes=1",
            "O2 scalar",
        );
        let guarded = read(&dir.join("guarded_add.opt.clif"));
        assert!(
            !guarded.contains("x4"),
            "no 4-lane body with -cl-clift-max-lanes=1: {guarded}"
        );
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
        drop(scalar_dumps);
        // At least 8 lanes asked for: the masked loops get 8-lane bodies
        // too (tests/exec_simd_wide.rs runs them); at most 4: every
        // kernel's dump says so.
        let mut wide_dumps = Dumps::new("clift-dump-wide");
        let mut narrow_dumps = Dumps::new("clift-dump-narrow");
        for level in Opt::BOTH {
            std::env::set_var("CLIFT_DUMP", wide_dumps.root());
            let (p, dir) = wide_dumps.build_with(
                ctx,
                &exec::corpus_spirv("simd_wide", level),
                "-cl-clift-min-lanes=8",
                &format!("simd_wide {level:?} min-lanes=8"),
            );
            for k in [
                "dot_columns",
                "private_calls",
                "counts_and_ids",
                "moves",
                "masked_arm",
                "narrowed",
                "math8_masked",
                "tiles_across_barriers",
                "tree_sums",
                "strided",
                "loops_in_a_row",
                "vector_chains",
            ] {
                let narrow = std::fs::read_to_string(dir.join(format!("{k}.narrow.txt"))).ok();
                assert_eq!(narrow, None, "{k} runs 8 lanes at {level:?} with -cl-clift-min-lanes=8");
            }
            // Its five calls in the arms and the masked loop: each one
            // call of the 8-lane form for both parts at -O2 (at -O0 `acc`
            // is a private variable the loop reads and writes, and the
            // body holds scalars per lane).
            #[cfg(all(target_arch = "x86_64", not(windows)))]
            if level == Opt::O2 {
                let math = read(&dir.join("math8_masked.opt.clif"));
                assert_eq!(
                    math.matches("(f32x4, f32x4, i64) system_v").count(),
                    5,
                    "{level:?}: math8_masked calls the 8-lane forms: {math}"
                );
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
            let (p, dir) = wide_dumps.build_with(
                ctx,
                &exec::corpus_spirv("simd_masked", level),
                "-cl-clift-min-lanes=8",
                &format!("simd_masked {level:?} min-lanes=8"),
            );
            for k in [
                "grid_sum",
                "collatz",
                "guarded_rotated_loop",
                "nested_in_loop",
                "loop_in_arm",
                "calls_under_masks",
                "crossing_paths",
                "uniform_access_in_crossing_paths",
                "switch_with_loops",
            ] {
                let narrow = std::fs::read_to_string(dir.join(format!("{k}.narrow.txt"))).ok();
                assert_eq!(narrow, None, "{k} runs 8 lanes at {level:?} with -cl-clift-min-lanes=8");
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
            std::env::set_var("CLIFT_DUMP", narrow_dumps.root());
            let (p, dir) = narrow_dumps.build_with(
                ctx,
                &exec::corpus_spirv("simd_wide", level),
                "-cl-clift-max-lanes=4",
                &format!("simd_wide {level:?} max-lanes=4"),
            );
            let why = read(&dir.join("dot_columns.narrow.txt"));
            assert!(why.contains("-cl-clift-max-lanes=4"), "{level:?}: {why}");
            assert_eq!(std::fs::read_to_string(dir.join("dot_columns.scalar.txt")).ok(), None);
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
    }
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}
