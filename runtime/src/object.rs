//! The header every API-visible object starts with.
//!
//! An OpenCL handle is the address of a runtime object. The ICD loader reads the
//! first word behind a handle as the address of the dispatch table, so every
//! object that the API hands out is `#[repr(C)]` with an [`ApiHeader`] first.
//! The runtime never interprets that word: the API layer registers it once with
//! [`set_dispatch_word`] before creating any object.
//!
//! The header also holds the application-visible reference count. It is kept
//! apart from the `Arc` count on purpose: commands, sub-buffers and queues hold
//! `Arc`s to the objects they use, and those internal references must neither
//! show in `CL_*_REFERENCE_COUNT` nor be released by an application that calls
//! `clRelease*` once too often.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;

static DISPATCH_WORD: AtomicUsize = AtomicUsize::new(0);

/// Sets the word that the API layer wants at the start of every object.
pub fn set_dispatch_word(word: usize) {
    DISPATCH_WORD.store(word, Ordering::Release);
}

/// First field of every API-visible object.
#[repr(C)]
#[derive(Debug)]
pub struct ApiHeader {
    dispatch: usize,
    refcount: AtomicU32,
}

impl Default for ApiHeader {
    fn default() -> Self {
        Self::new()
    }
}

impl ApiHeader {
    /// A header with reference count 1.
    pub fn new() -> Self {
        ApiHeader {
            dispatch: DISPATCH_WORD.load(Ordering::Acquire),
            refcount: AtomicU32::new(1),
        }
    }

    /// The application-visible reference count.
    pub fn ref_count(&self) -> u32 {
        self.refcount.load(Ordering::Acquire)
    }

    /// Adds one application reference.
    pub fn retain(&self) {
        self.refcount.fetch_add(1, Ordering::AcqRel);
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

/// The handle value (the object's address) of an API object.
pub fn handle_of<T: ApiObject>(obj: &Arc<T>) -> usize {
    Arc::as_ptr(obj) as usize
}

/// Implements [`ApiObject`] for a type whose first field is `header: ApiHeader`.
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
