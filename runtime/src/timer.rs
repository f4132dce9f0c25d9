//! The one clock: device and host timestamps are both `CLOCK_MONOTONIC` in
//! nanoseconds, so `clGetDeviceAndHostTimer` answers the same instant twice and
//! profiling timestamps can be compared with host times.

/// Nanoseconds on `CLOCK_MONOTONIC`.
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    debug_assert_eq!(rc, 0);
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

/// Resolution of [`now_ns`] in nanoseconds.
pub fn resolution_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_getres(libc::CLOCK_MONOTONIC, &mut ts) };
    if rc != 0 {
        return 1;
    }
    ((ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64).max(1)
}
