//! The argument limits the device reports are kernels that build and run,
//! from OpenCL C source and from SPIR-V that `spirv-val --target-env
//! opencl2.2` accepts (SPIR-V allows a function 255 parameters at most, and
//! the CTS validates the modules of its SPIR-V mode): a kernel whose
//! arguments add up to CL_DEVICE_MAX_PARAMETER_SIZE (longs and one pointer,
//! as the CTS's api/min_max_parameter_size builds), a function that takes
//! one pointer per 8 bytes of it plus one more (the CTS's
//! generic_address_space/max_number_of_params), a kernel of
//! CL_DEVICE_MAX_CONSTANT_ARGS `__constant` arguments and an output
//! (api/min_max_constant_args), and a kernel of 255 arguments, the most
//! the API spec allows.

use std::ffi::c_void;
use std::ptr;

use clift_conformance::offline;
use clift_conformance::programs::{release_context, release_program, source_program};
use clift_conformance::*;

/// Both ways a kernel reaches clift.
#[derive(Debug, Clone, Copy)]
enum From {
    Source,
    Spirv,
}

/// Builds `source` both ways (panics with the log if a build fails) and
/// calls `test` with the context, a queue and kernel `name` of each build,
/// releasing them afterwards.
fn each_build(source: &str, name: &str, mut test: impl FnMut(From, cl_context, cl_command_queue, cl_kernel)) {
    let ctx = context();
    let q = default_queue(ctx);
    for from in [From::Source, From::Spirv] {
        let p = match from {
            From::Source => source_program(ctx, source),
            From::Spirv => il_program(ctx, &offline::spirv_of(source, &["-cl-std=CL2.0"])),
        };
        let rc = build(p, "-cl-std=CL2.0");
        assert_eq!(rc, CL_SUCCESS, "{from:?}: {}", build_log(p, device()));
        let k = kernel(p, name);
        test(from, ctx, q, k);
        // SAFETY: the kernel created above, released once.
        check(unsafe { clReleaseKernel(k) });
        release_program(p);
    }
    // SAFETY: the queue created above, released once.
    check(unsafe { clReleaseCommandQueue(q) });
    release_context(ctx);
}

/// The first `n` ints of `m`.
fn read_ints(q: cl_command_queue, m: cl_mem, n: usize) -> Vec<i32> {
    read_bytes(q, m, 0, n * 4)
        .chunks_exact(4)
        .map(|c| i32::from_ne_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// Runs `k` over `n` work-items in one work-group and waits.
fn run(q: cl_command_queue, k: cl_kernel, n: usize) {
    let (global, local) = ([n], [n]);
    let mut ev = ptr::null_mut();
    // SAFETY: valid queue and kernel whose arguments are set; one dimension.
    check(unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            global.as_ptr(),
            local.as_ptr(),
            0,
            ptr::null(),
            &mut ev,
        )
    });
    // SAFETY: a valid event, released once.
    unsafe {
        check(clWaitForEvents(1, &ev));
        check(clReleaseEvent(ev));
    }
}

fn set_bytes(k: cl_kernel, i: usize, bytes: &[u8]) {
    // SAFETY: `bytes` is readable for its length during the call.
    check(unsafe { clSetKernelArg(k, i as cl_uint, bytes.len(), bytes.as_ptr().cast::<c_void>()) });
}

#[test]
fn the_limits_are_at_least_the_full_profile_minimums() {
    let size: usize = device_value(device(), CL_DEVICE_MAX_PARAMETER_SIZE);
    let constants: cl_uint = device_value(device(), CL_DEVICE_MAX_CONSTANT_ARGS);
    assert!(size >= 1024, "CL_DEVICE_MAX_PARAMETER_SIZE {size}");
    assert!(constants >= 8, "CL_DEVICE_MAX_CONSTANT_ARGS {constants}");
}

#[test]
fn a_kernel_whose_arguments_fill_the_parameter_size_runs() {
    let size: usize = device_value(device(), CL_DEVICE_MAX_PARAMETER_SIZE);
    // The output pointer, then longs, then chars for what is left.
    let longs = (size - 8) / 8;
    let chars = (size - 8) % 8;
    let mut params = Vec::new();
    let mut body = String::from("    long s = 0;\n");
    for i in 0..longs {
        params.push(format!("long a{i}"));
        body.push_str(&format!("    s += a{i};\n"));
    }
    for i in 0..chars {
        params.push(format!("char c{i}"));
        body.push_str(&format!("    s += c{i};\n"));
    }
    params.push("global long *result".into());
    let source = format!(
        "kernel void fill({}) {{\n{body}    result[0] = s;\n}}\n",
        params.join(", ")
    );
    each_build(&source, "fill", |from, ctx, q, k| {
        assert_eq!(
            kernel_value::<cl_uint>(k, CL_KERNEL_NUM_ARGS) as usize,
            longs + chars + 1
        );
        let mut want = 0i64;
        for i in 0..longs {
            let v = (i as i64 + 1) << 20;
            want += v;
            set_bytes(k, i, &v.to_ne_bytes());
        }
        for i in 0..chars {
            want += i as i64 + 1;
            set_bytes(k, longs + i, &[i as u8 + 1]);
        }
        let out = buffer(ctx, CL_MEM_READ_WRITE, 8);
        check(set_arg(k, (longs + chars) as cl_uint, &out));
        run(q, k, 1);
        let got = i64::from_ne_bytes(read_bytes(q, out, 0, 8).try_into().expect("8 bytes"));
        assert_eq!(got, want, "{from:?}: {size} bytes of arguments");
        release_mem(out);
    });
}

#[test]
fn a_function_of_one_pointer_per_eight_bytes_and_one_more_runs() {
    let size: usize = device_value(device(), CL_DEVICE_MAX_PARAMETER_SIZE);
    let n = size / 8 + 1;
    let params: Vec<String> = (0..n).map(|i| format!("global int *p{i}")).collect();
    // One store through each pointer (the pointers may alias as far as the
    // compiler knows, so they stay n separate stores).
    let body: String = (0..n).map(|i| format!("    *p{i} += {};\n", i + 1)).collect();
    let args: Vec<String> = (0..n).map(|i| format!("a + {i}")).collect();
    let source = format!(
        "__attribute__((noinline)) void bump({}) {{\n{body}}}\n\
         kernel void k(global int *a) {{ bump({}); }}\n",
        params.join(", "),
        args.join(", ")
    );
    each_build(&source, "k", |from, ctx, q, k| {
        let a = buffer(ctx, CL_MEM_READ_WRITE, n * 4);
        let data: Vec<u8> = (0..n).flat_map(|i| (i as i32 * 1000).to_ne_bytes()).collect();
        write_bytes(q, a, 0, &data);
        check(set_arg(k, 0, &a));
        run(q, k, 1);
        let want: Vec<i32> = (0..n).map(|i| i as i32 * 1000 + i as i32 + 1).collect();
        assert_eq!(read_ints(q, a, n), want, "{from:?}: {n} pointer parameters");
        release_mem(a);
    });
}

#[test]
fn a_kernel_of_every_constant_argument_runs() {
    let count: cl_uint = device_value(device(), CL_DEVICE_MAX_CONSTANT_ARGS);
    let count = count as usize;
    let size: usize = device_value(device(), CL_DEVICE_MAX_PARAMETER_SIZE);
    assert!(
        (count + 1) * 8 <= size,
        "{count} constant pointers and an output fit in {size} bytes"
    );
    let params: Vec<String> = (0..count).map(|i| format!("constant int *c{i}")).collect();
    let sum: Vec<String> = (0..count).map(|i| format!("c{i}[t]")).collect();
    let source = format!(
        "kernel void k({}, global int *out) {{ int t = get_global_id(0); out[t] = {}; }}\n",
        params.join(", "),
        sum.join(" + ")
    );
    const N: usize = 8;
    each_build(&source, "k", |from, ctx, q, k| {
        let inputs: Vec<cl_mem> = (0..count)
            .map(|i| {
                let m = buffer(ctx, CL_MEM_READ_ONLY, N * 4);
                let data: Vec<u8> = (0..N).flat_map(|t| ((i * N + t) as i32).to_ne_bytes()).collect();
                write_bytes(q, m, 0, &data);
                m
            })
            .collect();
        for (i, m) in inputs.iter().enumerate() {
            check(set_arg(k, i as cl_uint, m));
        }
        let out = buffer(ctx, CL_MEM_READ_WRITE, N * 4);
        check(set_arg(k, count as cl_uint, &out));
        run(q, k, N);
        let want: Vec<i32> = (0..N).map(|t| (0..count).map(|i| (i * N + t) as i32).sum()).collect();
        assert_eq!(read_ints(q, out, N), want, "{from:?}: {count} constant arguments");
        for m in inputs {
            release_mem(m);
        }
        release_mem(out);
    });
}

#[test]
fn a_kernel_of_255_arguments_runs() {
    // "For all other values [of CL_DEVICE_MAX_PARAMETER_SIZE than 1024], a
    // maximum of 255 arguments can be passed to a kernel": 254 chars and a
    // pointer.
    let params: Vec<String> = (0..254).map(|i| format!("uchar c{i}")).collect();
    let sum: Vec<String> = (0..254).map(|i| format!("c{i}")).collect();
    let source = format!(
        "kernel void k({}, global int *out) {{ out[0] = {}; }}\n",
        params.join(", "),
        sum.join(" + ")
    );
    each_build(&source, "k", |from, ctx, q, k| {
        for i in 0..254 {
            set_bytes(k, i, &[i as u8]);
        }
        let out = buffer(ctx, CL_MEM_READ_WRITE, 4);
        check(set_arg(k, 254, &out));
        run(q, k, 1);
        assert_eq!(read_ints(q, out, 1), [(0..254).sum::<i32>()], "{from:?}");
        release_mem(out);
    });
}
