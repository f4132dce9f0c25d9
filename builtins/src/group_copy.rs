//! The copy of `async_work_group_copy` and `async_work_group_strided_copy`
//! (OpGroupAsyncCopy), which one work-item performs for its whole
//! work-group. JIT code calls it through its address.

/// Copies `n` elements of `size` bytes: element `k` from
/// `src + k * size * src_stride` to `dst + k * size * dst_stride`.
///
/// # Safety
/// Every element's source and destination must be valid for `size` bytes,
/// as for the kernel's own accesses: OpenCL makes a copy outside the
/// buffers undefined behaviour of the kernel, and the generated code passes
/// the kernel's own pointers and counts.
pub unsafe extern "C" fn clift_group_copy(
    dst: *mut u8,
    src: *const u8,
    n: u64,
    size: u64,
    dst_stride: u64,
    src_stride: u64,
) {
    let (Ok(size), Ok(ds), Ok(ss)) = (
        usize::try_from(size),
        usize::try_from(dst_stride),
        usize::try_from(src_stride),
    ) else {
        return;
    };
    let (Some(dstep), Some(sstep)) = (size.checked_mul(ds), size.checked_mul(ss)) else {
        return;
    };
    for k in 0..n as usize {
        let (Some(d), Some(s)) = (k.checked_mul(dstep), k.checked_mul(sstep)) else {
            return;
        };
        // SAFETY: the caller guarantees element k's ranges are valid (see
        // above); `copy` allows them to overlap.
        unsafe { std::ptr::copy(src.wrapping_add(s), dst.wrapping_add(d), size) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_copies_in_both_directions() {
        let src: Vec<u32> = (0..12).collect();
        let mut dst = vec![0u32; 4];
        // SAFETY: 4 elements of 4 bytes, the source read at stride 3 (up
        // to element 9 of 12), the destination contiguous.
        unsafe { clift_group_copy(dst.as_mut_ptr().cast(), src.as_ptr().cast(), 4, 4, 1, 3) };
        assert_eq!(dst, [0, 3, 6, 9]);
        let mut wide = vec![0u32; 8];
        // SAFETY: 4 elements written at stride 2 (up to element 6 of 8).
        unsafe { clift_group_copy(wide.as_mut_ptr().cast(), dst.as_ptr().cast(), 4, 4, 2, 1) };
        assert_eq!(wide, [0, 0, 3, 0, 6, 0, 9, 0]);
    }
}
