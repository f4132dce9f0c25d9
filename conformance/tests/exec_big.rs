//! Large NDRanges: 2^26 work-items (one byte each, every byte
//! checked) and 3D ranges with thousands of work-groups, including
//! non-uniform ones. Kernels: `kernels/cl/big.cl` at -O0 and -O2.

use clift_conformance::exec::{Arg, Kernel, Opt};

#[test]
fn two_to_the_26_work_items() {
    let n = 1usize << 26;
    for (opt, local) in [(Opt::O0, Some([1024usize])), (Opt::O2, None)] {
        let mut out = vec![0u8; n];
        Kernel::new("big", opt, "fill")
            .arg(Arg::output(&mut out))
            .run(&[n], local.as_ref().map(|l| &l[..]));
        // Compare in chunks, so a failure names the first bad index
        // without formatting 64 MiB.
        let mut want = vec![0u8; 1 << 16];
        for (c, chunk) in out.chunks(1 << 16).enumerate() {
            let base = c << 16;
            for (j, w) in want.iter_mut().enumerate() {
                let g = base + j;
                *w = (g.wrapping_mul(131) + (g >> 13)) as u8;
            }
            if chunk != &want[..] {
                let j = chunk.iter().zip(&want).position(|(a, b)| a != b).unwrap();
                panic!(
                    "{opt:?} local {local:?}: byte {} is {}, want {}",
                    base + j,
                    chunk[j],
                    want[j]
                );
            }
        }
    }
}

fn ids3d_case(global: [usize; 3], local: Option<[usize; 3]>) {
    let total: usize = global.iter().product();
    for opt in Opt::BOTH {
        let mut out = vec![u32::MAX; total];
        Kernel::new("big", opt, "ids3d")
            .arg(Arg::output(&mut out))
            .run(&global, local.as_ref().map(|l| &l[..]));
        // With a NULL local size the group ids depend on clift's choice: use
        // the group size read back from item (0,0,0)'s neighbours only when
        // given; otherwise check only the id part.
        for z in 0..global[2] {
            for y in 0..global[1] {
                for x in 0..global[0] {
                    let i = x + global[0] * (y + global[1] * z);
                    let ids = (x * 7 + y * 1000 + z * 100000) as u32;
                    match local {
                        Some(l) => {
                            let grp = (x / l[0] + (y / l[1]) * 3 + (z / l[2]) * 5) as u32;
                            assert_eq!(out[i], ids ^ grp, "{opt:?}: item ({x},{y},{z})");
                        }
                        None => assert!(
                            out[i] != u32::MAX && (out[i] ^ ids) < 1 << 20,
                            "{opt:?}: item ({x},{y},{z}) wrote {:#x}",
                            out[i]
                        ),
                    }
                }
            }
        }
    }
}

#[test]
fn a_3d_range_with_thousands_of_groups() {
    // 64x64x64 items in 4x4x2 groups: 8192 groups.
    ids3d_case([64, 64, 64], Some([4, 4, 2]));
}

#[test]
fn a_3d_range_with_non_uniform_groups() {
    // 7x5x3 groups (the last of each dimension smaller): 105 groups.
    ids3d_case([99, 37, 21], Some([16, 8, 8]));
    ids3d_case([99, 37, 21], None);
}

#[test]
fn every_group_of_a_3d_range_runs_each_of_its_items_once() {
    for (global, local) in [
        ([128usize, 32usize, 16usize], [8usize, 4usize, 2usize]),
        ([50, 30, 10], [8, 8, 4]),
    ] {
        let groups: Vec<usize> = (0..3).map(|d| global[d].div_ceil(local[d])).collect();
        let ngroups: usize = groups.iter().product();
        let mut want = vec![0u32; ngroups];
        for gz in 0..groups[2] {
            for gy in 0..groups[1] {
                for gx in 0..groups[0] {
                    let size: usize = (0..3)
                        .map(|d| {
                            let g = [gx, gy, gz][d];
                            local[d].min(global[d] - g * local[d])
                        })
                        .product();
                    want[gx + groups[0] * (gy + groups[1] * gz)] = size as u32;
                }
            }
        }
        for opt in Opt::BOTH {
            let mut counts = vec![0u32; ngroups];
            Kernel::new("big", opt, "count_groups3d")
                .arg(Arg::output(&mut counts))
                .run(&global, Some(&local));
            assert_eq!(counts, want, "{opt:?}: global {global:?} local {local:?}");
        }
    }
}

#[test]
fn a_local_argument_as_large_as_the_device_allows() {
    use clift_conformance::*;
    let device_local: cl_ulong = device_value(device(), CL_DEVICE_LOCAL_MEM_SIZE);
    for opt in Opt::BOTH {
        let k = Kernel::new("stress", opt, "fill_local");
        // What the kernel itself uses besides the argument.
        let own: cl_ulong = k.work_group_info(CL_KERNEL_LOCAL_MEM_SIZE);
        drop(k);
        let bytes = ((device_local - own) as usize) & !127;
        let n = bytes / 4;
        let (global, local) = (4 * 128usize, 128usize);
        let mut want = vec![0i32; global];
        for (i, w) in want.iter_mut().enumerate() {
            let (l, grp) = (i % local, i / local);
            *w = (0..16usize)
                .map(|k| ((l * 7 + k * 13 + k * n / 16) % n * 3 + grp) as i32)
                .sum();
        }
        let mut out = vec![0i32; global];
        Kernel::new("stress", opt, "fill_local")
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(bytes))
            .arg(Arg::value(n as u32))
            .run(&[global], Some(&[local]));
        assert_eq!(out, want, "{opt:?}: {bytes} bytes of __local memory");
    }
}

#[test]
fn eight_kib_of_private_memory_per_work_item_across_a_barrier() {
    for opt in Opt::BOTH {
        let k = Kernel::new("stress", opt, "big_private");
        let max: usize = k.work_group_info(clift_conformance::CL_KERNEL_WORK_GROUP_SIZE);
        drop(k);
        let local = max.min(256);
        let global = local * 6;
        // Small values: the kernel's int sum must not overflow (UB in C).
        let input: Vec<i32> = (0..global as i32).map(|i| (i * 7919) % (1 << 20) - (1 << 19)).collect();
        let want: Vec<i32> = input
            .iter()
            .map(|&x| (0..64).map(|i| x ^ ((i * 37 + x) & 2047)).fold(0i32, i32::wrapping_add))
            .collect();
        let mut out = vec![0i32; global];
        Kernel::new("stress", opt, "big_private")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[global], Some(&[local]));
        assert_eq!(out, want, "{opt:?}: local {local}");
    }
}
