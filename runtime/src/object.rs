//! The header every API-visible object carries.
//!
//! The API layer hands each object out as a handle (an opaque address it
//! chooses) and records that address here, so that info queries can answer
//! with the handles of related objects (a queue's context, a sub-buffer's
//! parent). The header also holds the application-visible reference count. It
//! is kept apart from the `Arc` count on purpose: commands, sub-buffers and
//! queues hold `Arc`s to the objects they use, and those internal references
//! must neither show in `CL_*_REFERENCE_COUNT` nor be released by an
//! application that calls `clRelease*` once too often.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;

/// Handle and application reference count of an API-visible object.
#[derive(Debug)]
pub struct ApiHeader {
    handle: AtomicUsize,
    refcount: AtomicU32,
}

impl Default for ApiHeader {
    fn default() -> Self {
        Self::new()
    }
}

impl ApiHeader {
    /// A header with reference count 1 and no handle yet.
    pub fn new() -> Self {
        ApiHeader {
            handle: AtomicUsize::new(0),
            refcount: AtomicU32::new(1),
        }
    }

    /// The handle the API layer gave this object (0 if none).
    pub fn handle(&self) -> usize {
        self.handle.load(Ordering::Acquire)
    }

    /// Records the object's handle (set once, when the object is handed out).
    pub fn set_handle(&self, handle: usize) {
        self.handle.store(handle, Ordering::Release);
    }

    /// The application-visible reference count.
    pub fn ref_count(&self) -> u32 {
        self.refcount.load(Ordering::Acquire)
    }

    /// Adds one application reference.
    pub fn retain(&self) {
        self.refcount.fetch_add(1, Ordering::AcqRel);
    }

    /// Adds an application reference only while the count is above zero
    /// (a handle being released to zero concurrently is not brought back).
    pub fn try_retain(&self) -> bool {
        let mut cur = self.refcount.load(Ordering::Acquire);
        while cur > 0 {
            match self
                .refcount
                .compare_exchange_weak(cur, cur + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return true,
                Err(now) => cur = now,
            }
        }
        false
    }

    /// Drops one application reference and returns how many are left.
    /// Never goes below zero.
    pub fn release(&self) -> u32 {
        let mut cur = self.refcount.load(Ordering::Acquire);
        loop {
            if cur == 0 {
                return 0;
            }
            match self
                .refcount
                .compare_exchange_weak(cur, cur - 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return cur - 1,
                Err(now) => cur = now,
            }
        }
    }
}

/// An object that the API hands out as a handle.
pub trait ApiObject: Send + Sync + 'static {
    /// The object's header.
    fn header(&self) -> &ApiHeader;
}

/// The handle of an API object (0 if it was never handed out).
pub fn handle_of<T: ApiObject>(obj: &Arc<T>) -> usize {
    obj.header().handle()
}

/// Implements [`ApiObject`] for a type with a field `header: ApiHeader`.
#[macro_export]
macro_rules! api_object {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::object::ApiObject for $t {
            fn header(&self) -> &$crate::object::ApiHeader {
                &self.header
            }
        })*
    };
}
