//! Code generation end to end: clbench kernels compiled with
//! `clift_jit::compile` and their work-group functions run by hand over a
//! few work-groups, against host computations.

use clift_jit::launch_abi::{arg_offsets, WorkGroupCtx};
use clift_jit::{compile, front_end, BuildOptions, CodegenConfig, CompiledProgram, FrontEnd};

fn load(opt: &str, name: &str) -> FrontEnd {
    let path = format!(
        "{}/../../shared/clbench/spv/{opt}/{name}.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    front_end(&bytes, &BuildOptions::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// An argument block: 16-byte aligned storage, written at the offsets
/// `launch_abi::arg_offsets` gives.
struct Args {
    words: Vec<u128>,
    offsets: Vec<usize>,
}

impl Args {
    fn new(front: &FrontEnd, kernel: &str) -> Args {
        let info = front.built().kernels.iter().find(|k| k.name == kernel).expect("kernel");
        let (offsets, size) = arg_offsets(info);
        Args {
            words: vec![0; size.div_ceil(16)],
            offsets,
        }
    }

    fn set(&mut self, k: usize, bytes: &[u8]) {
        let at = self.offsets[k];
        let all: &mut [u8] = bytemuck_bytes(&mut self.words);
        all[at..at + bytes.len()].copy_from_slice(bytes);
    }

    fn set_ptr<T>(&mut self, k: usize, p: *mut T) {
        self.set(k, &(p as u64).to_ne_bytes());
    }
}

fn bytemuck_bytes(w: &mut [u128]) -> &mut [u8] {
    let len = std::mem::size_of_val(w);
    // SAFETY: u128 has no padding and every byte pattern is a valid u8; the
    // slice covers exactly the words' memory and borrows them mutably.
    unsafe { std::slice::from_raw_parts_mut(w.as_mut_ptr().cast::<u8>(), len) }
}

/// Runs kernel `name` of `prog` over a 1-D NDRange of `global` work-items in
/// groups of `local` (the last group may be smaller).
fn run_1d(prog: &CompiledProgram, name: &str, args: &Args, global: u64, local: u64) {
    let f = prog.kernel(name).expect("compiled kernel").func;
    let groups = global.div_ceil(local);
    for g in 0..groups {
        let ctx = WorkGroupCtx {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [global, 1, 1],
            local_size: [local.min(global - g * local), 1, 1],
            enqueued_local_size: [local, 1, 1],
            num_groups: [groups, 1, 1],
            group_id: [g, 0, 0],
            args: args.words.as_ptr().cast(),
            local_arena: std::ptr::null_mut(),
            local_arena_size: 0,
            private_arena: std::ptr::null_mut(),
            private_arena_size: 0,
            printf: std::ptr::null(),
            default_queue: 0,
            device_enqueue: std::ptr::null(),
        };
        // SAFETY: `f` is the work-group function of `name`, whose arguments
        // `args` holds at the ABI's offsets: buffer addresses that stay
        // alive and large enough for every global id of the NDRange.
        unsafe { f(&ctx) };
    }
}

#[test]
fn vadd_matches_host() {
    for opt in ["O0", "O2"] {
        let front = load(opt, "vadd");
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}: {e:?}"));
        let n = 1000usize;
        let mut a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let mut b: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
        let mut c = vec![-1.0f32; n + 8];
        let mut args = Args::new(&front, "vadd");
        args.set_ptr(0, a.as_mut_ptr());
        args.set_ptr(1, b.as_mut_ptr());
        args.set_ptr(2, c.as_mut_ptr());
        args.set(3, &(n as u32).to_ne_bytes());
        // 1008 work-items in groups of 64 (the last one holds 48), so the
        // kernel's `if (i < n)` guard is exercised as well.
        run_1d(&prog, "vadd", &args, 1008, 64);
        for i in 0..n {
            assert_eq!(c[i], a[i] + b[i], "{opt}: c[{i}]");
        }
        assert!(c[n..].iter().all(|&x| x == -1.0), "{opt}: wrote past n");
    }
}

#[test]
fn saxpy_matches_host() {
    for opt in ["O0", "O2"] {
        let front = load(opt, "saxpy");
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}: {e:?}"));
        let n = 777usize;
        let alpha = 2.5f32;
        let mut x: Vec<f32> = (0..n).map(|i| (i as f32).sin()).collect();
        let y0: Vec<f32> = (0..n).map(|i| i as f32 / 7.0).collect();
        let mut y = y0.clone();
        let mut args = Args::new(&front, "saxpy");
        args.set(0, &alpha.to_ne_bytes());
        args.set_ptr(1, x.as_mut_ptr());
        args.set_ptr(2, y.as_mut_ptr());
        args.set(3, &(n as u32).to_ne_bytes());
        run_1d(&prog, "saxpy", &args, n as u64, 100);
        for i in 0..n {
            // mad may be fused or not; both are within an ulp or so.
            let want = alpha.mul_add(x[i], y0[i]);
            assert!(
                (y[i] - want).abs() <= 1e-5 * want.abs().max(1.0),
                "{opt}: y[{i}] = {} want {want}",
                y[i]
            );
        }
    }
}

/// Runs kernel `name` of `prog` over a 2-D NDRange `global` in groups of
/// `local` (edge groups may be smaller).
fn run_2d(prog: &CompiledProgram, name: &str, args: &Args, global: [u64; 2], local: [u64; 2]) {
    let f = prog.kernel(name).expect("compiled kernel").func;
    let groups = [global[0].div_ceil(local[0]), global[1].div_ceil(local[1])];
    for gy in 0..groups[1] {
        for gx in 0..groups[0] {
            let ctx = WorkGroupCtx {
                work_dim: 2,
                global_offset: [0; 3],
                global_size: [global[0], global[1], 1],
                local_size: [
                    local[0].min(global[0] - gx * local[0]),
                    local[1].min(global[1] - gy * local[1]),
                    1,
                ],
                enqueued_local_size: [local[0], local[1], 1],
                num_groups: [groups[0], groups[1], 1],
                group_id: [gx, gy, 0],
                args: args.words.as_ptr().cast(),
                local_arena: std::ptr::null_mut(),
                local_arena_size: 0,
                private_arena: std::ptr::null_mut(),
                private_arena_size: 0,
                printf: std::ptr::null(),
                default_queue: 0,
                device_enqueue: std::ptr::null(),
            };
            // SAFETY: as in `run_1d`: `args` holds live buffers large
            // enough for every global id of the NDRange.
            unsafe { f(&ctx) };
        }
    }
}

#[test]
fn sgemm_naive_matches_host() {
    for opt in ["O0", "O2"] {
        let front = load(opt, "sgemm_naive");
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}: {e:?}"));
        let (m, n, k) = (37usize, 29usize, 23usize);
        let mut a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
        let mut b: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
        let mut c = vec![f32::NAN; m * n];
        let mut args = Args::new(&front, "sgemm_naive");
        args.set_ptr(0, a.as_mut_ptr());
        args.set_ptr(1, b.as_mut_ptr());
        args.set_ptr(2, c.as_mut_ptr());
        for (i, v) in [m, n, k].into_iter().enumerate() {
            args.set(3 + i, &(v as u32).to_ne_bytes());
        }
        // Rounded-up NDRange: the kernel's bounds check drops the rest.
        run_2d(&prog, "sgemm_naive", &args, [32, 40], [8, 8]);
        for row in 0..m {
            for col in 0..n {
                let want: f32 = (0..k).map(|x| a[row * k + x] * b[x * n + col]).sum();
                let got = c[row * n + col];
                assert!(
                    (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                    "{opt}: C[{row}][{col}] = {got} want {want}"
                );
            }
        }
    }
}

#[test]
fn mandelbrot_matches_host() {
    for opt in ["O0", "O2"] {
        let front = load(opt, "mandelbrot");
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}: {e:?}"));
        let (w, h, maxit) = (48usize, 40usize, 200u32);
        let (x0, y0, dx, dy) = (-2.0f32, -1.25f32, 2.5f32 / w as f32, 2.5f32 / h as f32);
        let mut out = vec![u32::MAX; w * h];
        let mut args = Args::new(&front, "mandelbrot");
        args.set_ptr(0, out.as_mut_ptr());
        for (i, v) in [x0, y0, dx, dy].into_iter().enumerate() {
            args.set(1 + i, &v.to_ne_bytes());
        }
        args.set(5, &(w as u32).to_ne_bytes());
        args.set(6, &maxit.to_ne_bytes());
        run_2d(&prog, "mandelbrot", &args, [w as u64, h as u64], [16, 8]);
        let mut differ = 0;
        for py in 0..h {
            for px in 0..w {
                let (cx, cy) = (x0 + px as f32 * dx, y0 + py as f32 * dy);
                let (mut zx, mut zy, mut it) = (0.0f32, 0.0f32, 0u32);
                while it < maxit {
                    let (zx2, zy2) = (zx * zx, zy * zy);
                    if zx2 + zy2 > 4.0 {
                        break;
                    }
                    zy = 2.0 * zx * zy + cy;
                    zx = zx2 - zy2 + cx;
                    it += 1;
                }
                let got = out[py * w + px];
                assert!(got <= maxit, "{opt}: out[{py}][{px}] = {got}");
                differ += usize::from(got != it);
            }
        }
        // -O2 may contract into mad (fused here), which can change the
        // escape iteration of a few chaotic points.
        assert!(differ * 100 <= w * h, "{opt}: {differ} of {} pixels differ", w * h);
    }
}

#[test]
fn simple_kernels_compile() {
    for opt in ["O0", "O2"] {
        for name in ["empty", "sgemm_naive", "mandelbrot"] {
            let front = load(opt, name);
            let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}/{name}: {e:?}"));
            for k in &front.built().kernels {
                assert!(prog.kernel(&k.name).is_some(), "{opt}/{name}: {}", k.name);
            }
        }
    }
}

#[test]
fn kernels_with_barriers_get_frames_and_others_none() {
    for opt in ["O0", "O2"] {
        // sgemm_tiled: two barriers per tile, two 16x16 __local tiles
        // declared in the kernel.
        let front = load(opt, "sgemm_tiled");
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}: {e:?}"));
        let k = prog.kernel("sgemm_tiled").expect("kernel");
        assert!(k.private_frame >= 8, "{opt}: frame {}", k.private_frame);
        assert!(k.local_static >= 2 * 16 * 16 * 4, "{opt}: local {}", k.local_static);
        let front = load(opt, "vadd");
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{opt}: {e:?}"));
        let k = prog.kernel("vadd").expect("kernel");
        assert_eq!((k.private_frame, k.local_static), (0, 0), "{opt}");
    }
}

#[test]
fn every_clbench_kernel_compiles_or_reports() {
    // Whatever the lowering does not support must be a diagnostic, never a
    // panic.
    for opt in ["O0", "O2"] {
        let dir = format!("{}/../../shared/clbench/spv/{opt}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(&dir).expect("clbench") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "spv") {
                let bytes = std::fs::read(&path).expect("read");
                let front = front_end(&bytes, &BuildOptions::default()).expect("front end");
                if let Err(e) = compile(&front, &CodegenConfig::default()) {
                    assert!(!e.diagnostics.is_empty(), "{}", path.display());
                }
            }
        }
    }
}

#[test]
fn builtins_over_a_non_uniform_3d_range() {
    // tests/data/codegen/builtins.spvasm: each work-item writes every
    // built-in variable at out[get_global_linear_id() * 27].
    let path = format!("{}/tests/data/codegen/builtins.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("builtins.spv");
    let front = front_end(&bytes, &BuildOptions::default()).expect("front end");
    let prog = compile(&front, &CodegenConfig::default()).expect("compile");
    let f = prog.kernel("builtins").expect("kernel").func;
    let (global, offset, local) = ([5u64, 4, 3], [10u64, 20, 30], [2u64, 3, 2]);
    let groups = [0, 1, 2].map(|d| global[d].div_ceil(local[d]));
    let total = (global[0] * global[1] * global[2]) as usize;
    let mut out = vec![u64::MAX; total * 27];
    let mut args = Args::new(&front, "builtins");
    args.set_ptr(0, out.as_mut_ptr());
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let g = [gx, gy, gz];
                let ctx = WorkGroupCtx {
                    work_dim: 3,
                    global_offset: offset,
                    global_size: global,
                    local_size: [0, 1, 2].map(|d| local[d].min(global[d] - g[d] * local[d])),
                    enqueued_local_size: local,
                    num_groups: groups,
                    group_id: g,
                    args: args.words.as_ptr().cast(),
                    local_arena: std::ptr::null_mut(),
                    local_arena_size: 0,
                    private_arena: std::ptr::null_mut(),
                    private_arena_size: 0,
                    printf: std::ptr::null(),
                    default_queue: 0,
                    device_enqueue: std::ptr::null(),
                };
                // SAFETY: `out` holds 27 ulongs for every global linear id.
                unsafe { f(&ctx) };
            }
        }
    }
    for z in 0..global[2] {
        for y in 0..global[1] {
            for x in 0..global[0] {
                let id = [x, y, z];
                let lin = (z * global[1] + y) * global[0] + x;
                let g = [0, 1, 2].map(|d| id[d] / local[d]);
                let l = [0, 1, 2].map(|d| id[d] % local[d]);
                let lsz = [0, 1, 2].map(|d| local[d].min(global[d] - g[d] * local[d]));
                let mut want = Vec::new();
                want.extend([0, 1, 2].map(|d| id[d] + offset[d]));
                want.extend(l);
                want.extend(g);
                want.extend(global);
                want.extend(lsz);
                want.extend(groups);
                want.extend(offset);
                want.extend(local);
                want.push(lin);
                want.push((l[2] * lsz[1] + l[1]) * lsz[0] + l[0]);
                want.push(3);
                let at = lin as usize * 27;
                assert_eq!(&out[at..at + 27], &want[..], "work-item {id:?}");
            }
        }
    }
}

#[test]
fn compiled_programs_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<CompiledProgram>();
}

#[test]
fn work_groups_run_concurrently() {
    let front = load("O2", "vadd");
    let prog = compile(&front, &CodegenConfig::default()).expect("compile");
    let f = prog.kernel("vadd").expect("kernel").func;
    let (n, local) = (4096usize, 64u64);
    let mut a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut b: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
    let mut c = vec![0.0f32; n];
    let mut args = Args::new(&front, "vadd");
    args.set_ptr(0, a.as_mut_ptr());
    args.set_ptr(1, b.as_mut_ptr());
    args.set_ptr(2, c.as_mut_ptr());
    args.set(3, &(n as u32).to_ne_bytes());
    let groups = n as u64 / local;
    let block = args.words.as_ptr() as usize;
    std::thread::scope(|s| {
        for t in 0..4u64 {
            s.spawn(move || {
                for g in (t..groups).step_by(4) {
                    let ctx = WorkGroupCtx {
                        work_dim: 1,
                        global_offset: [0; 3],
                        global_size: [n as u64, 1, 1],
                        local_size: [local, 1, 1],
                        enqueued_local_size: [local, 1, 1],
                        num_groups: [groups, 1, 1],
                        group_id: [g, 0, 0],
                        args: block as *const u8,
                        local_arena: std::ptr::null_mut(),
                        local_arena_size: 0,
                        private_arena: std::ptr::null_mut(),
                        private_arena_size: 0,
                        printf: std::ptr::null(),
                        default_queue: 0,
                        device_enqueue: std::ptr::null(),
                    };
                    // SAFETY: the buffers outlive the scope; each group
                    // writes only its own 64 elements of `c`.
                    unsafe { f(&ctx) };
                }
            });
        }
    });
    assert!(c.iter().enumerate().all(|(i, &x)| x == 3.0 * i as f32));
}

// Regressions found by fuzzing code generation (jit/fuzz, target `codegen`):
// each module in tests/data/codegen/ must build or fail with diagnostics,
// quickly and without crashing.

/// Compiles tests/data/codegen/`name`.spv with `compile_kernels`: the
/// diagnostics of the kernels that failed, all joined (empty if every
/// kernel compiled).
fn compile_fuzz_case(name: &str) -> String {
    let path = format!("{}/tests/data/codegen/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let front = front_end(&bytes, &BuildOptions::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    let start = std::time::Instant::now();
    let (program, failed) = clift_jit::compile_kernels(&front, &CodegenConfig::default());
    assert!(
        // Generous: debug builds of Cranelift are slow, and the inlining
        // budgets let a module inline tens of thousands of instructions.
        start.elapsed() < std::time::Duration::from_secs(120),
        "{name}: compiling took {:?}",
        start.elapsed()
    );
    let mut log = String::new();
    for (kernel, e) in &failed {
        assert!(
            !e.diagnostics.is_empty(),
            "{name}: {kernel} failed without a diagnostic"
        );
        for d in &e.diagnostics {
            log += &format!("{kernel}: {d}\n");
        }
    }
    assert_eq!(
        program.is_some(),
        failed.len() < front.built().kernels.len(),
        "{name}: {log}"
    );
    log
}

#[test]
fn barrier_functions_inlined_exponentially_often_are_refused() {
    // f39 calls f38 twice, ..., f1 calls f0 (a barrier) twice: 2^39 copies.
    let log = compile_fuzz_case("barrier_inline_exponential");
    assert!(log.contains("SPIR-V instructions"), "{log}");
}

#[test]
fn byval_read_only_check_is_not_exponential() {
    // The by-value struct goes down 7 levels of 60 calls each.
    let log = compile_fuzz_case("byval_read_only_exponential");
    assert!(log.is_empty(), "{log}");
}

#[test]
fn inlining_is_bounded_over_the_whole_module() {
    // 60 functions, each calling the previous one twice: each helper
    // function would inline the budget's worth of its callees.
    let log = compile_fuzz_case("helpers_inline_chain");
    assert!(log.is_empty(), "{log}");
}

#[test]
fn huge_functions_with_barriers_are_refused() {
    // 3,000 values live across a chain of 3,000 blocks after a barrier:
    // the liveness analysis would keep millions of set entries (generated
    // by tests/data/codegen/gen.py; the .spvasm is not checked in).
    let log = compile_fuzz_case("barrier_liveness_large");
    assert!(log.contains("too large for code generation"), "{log}");
}

#[test]
fn one_bad_kernel_among_many_is_found_and_the_others_compile() {
    let path = format!(
        "{}/tests/data/codegen/many_kernels_one_bad.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).expect("many_kernels_one_bad.spv");
    let front = front_end(&bytes, &BuildOptions::default()).expect("front end");
    let (program, failed) = clift_jit::compile_kernels(&front, &CodegenConfig::default());
    let names: Vec<&str> = failed.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["bad"]);
    assert!(failed[0].1.diagnostics[0].rule.contains("SPIR-V instructions"));
    let program = program.expect("the other kernels compile");
    assert_eq!(program.kernel_names().count(), 64);
}

#[test]
fn nested_empty_structs_are_refused_quickly() {
    // struct { struct { struct { struct {} x1000 } x1000 } x1000 }: no
    // components, but 10^9 leaves to walk.
    let log = compile_fuzz_case("empty_struct_nest");
    assert!(log.contains("nest too many structs"), "{log}");
}

#[test]
fn kernels_taking_too_many_instructions_are_refused() {
    // 600 stores of a 1,024-element constant array: 600k Cranelift stores.
    let log = compile_fuzz_case("big_constant_stores");
    assert!(log.contains("Cranelift instructions"), "{log}");
}

/// A build that leaves 8-lane bodies for later.
fn wide_later() -> CodegenConfig {
    CodegenConfig {
        wide_later: true,
        ..CodegenConfig::default()
    }
}

/// The kernels of `front` that a build at once gives 8-lane bodies: those
/// whose debug dump says neither why they keep 4 lanes nor why they run
/// one work-item at a time.
fn wide_now(front: &FrontEnd, tag: &str) -> Vec<String> {
    let root = std::env::temp_dir().join(format!("clift-jit-wide-now-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let config = CodegenConfig {
        dump_dir: Some(root.clone()),
        ..CodegenConfig::default()
    };
    let prog = compile(front, &config).expect(tag);
    assert!(
        prog.wide_later().is_empty(),
        "{tag}: a build at once leaves nothing for later"
    );
    let dir = std::fs::read_dir(&root)
        .expect("dump")
        .next()
        .expect("module folder")
        .expect("entry")
        .path();
    let wide = front
        .built()
        .kernels
        .iter()
        .map(|k| k.name.clone())
        .filter(|k| {
            !["narrow", "scalar"]
                .iter()
                .any(|r| dir.join(format!("{k}.{r}.txt")).exists())
        })
        .collect();
    let _ = std::fs::remove_dir_all(&root);
    wide
}

#[test]
fn wide_later_names_the_kernels_that_get_8_lane_bodies() {
    let mut got = Vec::new();
    for opt in ["O0", "O2"] {
        let dir = format!("{}/../../shared/clbench/spv/{opt}", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("clbench")
            .filter_map(|e| {
                let path = e.expect("entry").path();
                let spv = path.extension().is_some_and(|x| x == "spv");
                spv.then(|| path.file_stem().expect("name").to_string_lossy().into_owned())
            })
            .collect();
        names.sort_unstable();
        for name in &names {
            let name = name.as_str();
            let front = load(opt, name);
            let (prog, failed) = clift_jit::compile_kernels(&front, &wide_later());
            assert!(failed.is_empty(), "{opt}/{name}");
            let prog = prog.expect(name);
            // Every kernel runs at once, with its 4-lane body.
            for k in &front.built().kernels {
                assert!(prog.kernel(&k.name).is_some(), "{opt}/{name}: {}", k.name);
            }
            // The kernels left for later are those a build at once gives
            // 8-lane bodies.
            let mut later: Vec<String> = prog.wide_later().to_vec();
            later.sort_unstable();
            let mut now = wide_now(&front, &format!("{opt}-{name}"));
            now.sort_unstable();
            assert_eq!(later, now, "{opt}/{name}");
            // What the later compilation makes is those kernels alone.
            let wide = clift_jit::compile_wide(&front, &prog);
            let mut names: Vec<&str> = wide.as_ref().map_or(Vec::new(), |w| w.kernel_names().collect());
            names.sort_unstable();
            assert_eq!(names, later, "{opt}/{name}");
            if opt == "O2" {
                got.extend(later);
            }
        }
    }
    // Every kernel, with barriers or not, less hash (values held as
    // scalars per lane). mandelbrot's loop, whose exit depends on data,
    // gets 8 lanes too since its invariants are read from memory
    // (src/invariant_loads.rs).
    got.sort_unstable();
    assert_eq!(
        got,
        [
            "blackscholes",
            "empty",
            "hist_global",
            "hist_local",
            "mandelbrot",
            "nbody",
            "reduce",
            "saxpy",
            "sgemm_naive",
            "sgemm_tiled",
            "vadd"
        ]
    );
}

#[test]
fn the_later_8_lane_program_shares_the_program_scope_variables() {
    // conformance/kernels/cl/mem_globals.cl: `bump` adds i to zeroed[i]
    // (and work-item 0 bumps `counter`, `*gp` and `wide`), `read_back`
    // copies them out. Launches alternate between the build's program and
    // the later one: every bump must land in the same variables.
    let path = format!(
        "{}/../conformance/kernels/spv/O2/mem_globals.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).expect("mem_globals.spv");
    let front = front_end(&bytes, &BuildOptions::default()).expect("front end");
    let (narrow, failed) = clift_jit::compile_kernels(&front, &wide_later());
    assert!(failed.is_empty());
    let narrow = narrow.expect("program");
    assert!(
        narrow.wide_later().iter().any(|k| k == "bump"),
        "{:?}",
        narrow.wide_later()
    );
    let wide = clift_jit::compile_wide(&front, &narrow).expect("8-lane program");
    assert!(wide.kernel("bump").is_some());
    let mut out = vec![-1i32; 24];
    let mut args = Args::new(&front, "bump");
    args.set_ptr(0, out.as_mut_ptr());
    run_1d(&narrow, "bump", &args, 16, 16);
    run_1d(&wide, "bump", &args, 16, 16);
    run_1d(&narrow, "bump", &args, 16, 16);
    let mut args = Args::new(&front, "read_back");
    args.set_ptr(0, out.as_mut_ptr());
    run_1d(&narrow, "read_back", &args, 16, 16);
    for (i, &v) in out[..16].iter().enumerate() {
        let extra = if i == 3 { 300 } else { 0 };
        assert_eq!(v, 3 * i as i32 + extra, "zeroed[{i}]");
    }
    // counter starts at 5, wide at 2^32.
    assert_eq!(out[16..19], [8, 1, 3]);
}
