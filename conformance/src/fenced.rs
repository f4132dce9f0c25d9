//! Host memory ending exactly where an inaccessible page starts, for
//! `CL_MEM_USE_HOST_PTR` buffers: a kernel that reads or writes one byte
//! past its buffer's end faults (the test process dies), so tests of code
//! that accesses more than the bytes asked for (vector accesses at buffer
//! ends) see any access past the end.

use std::ptr;

use crate::exec::Pod;

/// `count` values of `T` ending where an inaccessible page starts.
pub struct Fenced<T: Pod> {
    base: *mut libc::c_void,
    len: usize,
    /// How many values of `T` the memory holds.
    pub count: usize,
    marker: std::marker::PhantomData<T>,
}

const PAGE: usize = 4096;

impl<T: Pod> Fenced<T> {
    /// `count` values, zeroed.
    pub fn new(count: usize) -> Fenced<T> {
        let data = count * std::mem::size_of::<T>();
        let len = data.div_ceil(PAGE) * PAGE + PAGE;
        // SAFETY: an anonymous private mapping; the result is checked.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED);
        // SAFETY: the last page of the mapping made above.
        let r = unsafe {
            libc::mprotect(
                (base as *mut u8).add(len - PAGE) as *mut libc::c_void,
                PAGE,
                libc::PROT_NONE,
            )
        };
        assert_eq!(r, 0);
        Fenced {
            base,
            len,
            count,
            marker: std::marker::PhantomData,
        }
    }

    /// The values: the `count` before the fence.
    pub fn data(&self) -> *mut T {
        // SAFETY: inside the mapping, `count` values before its last page.
        unsafe { (self.base as *mut u8).add(self.len - PAGE - self.count * std::mem::size_of::<T>()) as *mut T }
    }

    /// The size of the values in bytes.
    pub fn bytes(&self) -> usize {
        self.count * std::mem::size_of::<T>()
    }

    /// The values, borrowed mutably.
    pub fn slice(&mut self) -> &mut [T] {
        // SAFETY: `count` values of this mapping (zeroed or written since:
        // `T` accepts any bit pattern), borrowed mutably from self.
        unsafe { std::slice::from_raw_parts_mut(self.data(), self.count) }
    }
}

impl<T: Pod> Drop for Fenced<T> {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { libc::munmap(self.base, self.len) };
    }
}
