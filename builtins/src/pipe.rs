//! Pipes as kernels see them: the layout of a pipe's store (which the
//! runtime allocates and whose header it writes at `clCreatePipe`) and the
//! operations generated code calls through their addresses (OpReadPipe,
//! OpWritePipe, the reservations, their reads, writes and commits, and the
//! packet counts).
//!
//! **Layout** (the store starts 128-byte aligned; every counter has a
//! cache-line pair of its own):
//!
//! | offset | what |
//! |---|---|
//! | 0 | packet size in bytes (`u32`, written at creation) |
//! | 4 | capacity in packets, `clCreatePipe`'s `pipe_max_packets` (`u32`) |
//! | 128 | `W`: packets reserved for writing since creation (`u64`, atomic) |
//! | 256 | `R`: packets reserved for reading since creation (`u64`, atomic) |
//! | 384 | one state word (`u64`, atomic) per packet slot |
//! | [`packets_offset`] | the packet slots, `capacity` x packet size bytes |
//!
//! **Protocol.** Packets have positions 0, 1, 2... in the order they pass
//! through the pipe; position `p` uses slot `p % capacity` in lap
//! `p / capacity`. A slot's state word says where it is in its lap: `2 *
//! lap` = free for the writer of that lap's position, `2 * lap + 1` =
//! written and committed, readable. All states start at 0 (the store is
//! zeroed), so a new pipe is empty.
//!
//! - A write reservation of `n` packets takes positions `W .. W + n` by a
//!   compare-and-swap of `W`, only if every one of those slots is free for
//!   its position (state `2 * lap`, read with acquire); otherwise it fails
//!   at once. A read reservation takes `R .. R + n` the same way, only if
//!   every slot is readable (`2 * lap + 1`). Reservations therefore never
//!   wait: a full pipe fails a write, an empty one (or one whose next
//!   packet is reserved but not yet committed) fails a read.
//! - Reserved packets are copied into or out of their slots by their
//!   owner alone; a commit then stores each slot's next state with release
//!   (`2 * lap + 1` after writing, `2 * lap + 2`, free for the next lap,
//!   after reading). Commits never wait either, and may come in any order:
//!   a slot becomes readable exactly when its own write reservation
//!   commits, and positions keep the reservation's order, so a committed
//!   reservation's packets are read in order, once each, and never lost.
//! - The acquire load of a state in a reservation pairs with the release
//!   store of the commit before it, so a reader sees the writer's bytes and
//!   a writer never overwrites bytes a reader has not finished copying.
//! - `read_pipe` and `write_pipe` without a reservation are a reservation
//!   of one packet, its copy and its commit.
//!
//! Nothing blocks and no lock is taken, so producer and consumer kernels
//! may run at the same time on any threads without deadlock; each
//! operation is lock-free (a compare-and-swap fails only when another
//! reservation succeeded).
//!
//! **Reservation ids** are 64-bit words: the reservation's first position
//! modulo 2^40 in the low 40 bits and its packet count in the high 24.
//! Valid ids have counts 1 to [`MAX_RESERVATION`]; 0 (what a failed
//! reservation returns) and all ones (OpenCL C's `CLK_NULL_RESERVE_ID`)
//! are invalid. While a write reservation is outstanding, `W - capacity <=
//! first < W` (its slots cannot be freed for the next lap, so `W` cannot pass
//! them by a whole lap), and likewise for a read reservation and `R`, so
//! the full position is the one below `W` (or `R`) with the id's low 40
//! bits; capacities are below 2^32. An id that is not a live reservation
//! of this pipe (undefined behaviour in OpenCL) still only reaches the
//! pipe's own slots: every slot index is taken modulo the capacity and
//! every copy is at most the pipe's packet size.
//!
//! Sizes: an instruction's packet size must not exceed the pipe's (the
//! operation fails otherwise); only that many bytes of each packet are
//! copied.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of header before the state words.
pub const HEADER_SIZE: u64 = 384;
/// Where the packet size (`u32`) is.
const PACKET_SIZE_AT: usize = 0;
/// Where the capacity (`u32`) is.
const CAPACITY_AT: usize = 4;
/// Where `W` is.
const WRITE_AT: usize = 128;
/// Where `R` is.
const READ_AT: usize = 256;
/// Bits of a reservation id holding its first position.
const POSITION_BITS: u32 = 40;
const POSITION_MASK: u64 = (1 << POSITION_BITS) - 1;
/// The most packets one reservation may take (a larger one fails).
pub const MAX_RESERVATION: u32 = (1 << 24) - 2;

/// Where the packet slots of a pipe of `capacity` packets start.
pub fn packets_offset(capacity: u32) -> u64 {
    (HEADER_SIZE + 8 * u64::from(capacity)).next_multiple_of(128)
}

/// The size in bytes of the store of a pipe of `capacity` packets of
/// `packet_size` bytes.
pub fn store_size(packet_size: u32, capacity: u32) -> u64 {
    packets_offset(capacity) + u64::from(packet_size) * u64::from(capacity)
}

/// The bytes the runtime writes at offset 0 of a new (zeroed) store.
pub fn header(packet_size: u32, capacity: u32) -> [u8; 8] {
    let mut h = [0u8; 8];
    h[PACKET_SIZE_AT..PACKET_SIZE_AT + 4].copy_from_slice(&packet_size.to_ne_bytes());
    h[CAPACITY_AT..CAPACITY_AT + 4].copy_from_slice(&capacity.to_ne_bytes());
    h
}

/// Whether `id` names a reservation (OpIsValidReserveId; generated code
/// computes the same inline).
pub fn is_valid(id: u64) -> bool {
    (id >> POSITION_BITS).wrapping_sub(1) < u64::from(MAX_RESERVATION)
}

/// A view of a pipe's store.
struct Pipe {
    base: *mut u8,
    packet_size: u32,
    capacity: u32,
}

impl Pipe {
    /// The pipe at `base`, if `base` is not NULL and its header is sound.
    ///
    /// # Safety
    /// `base` is NULL or the start of a pipe store laid out as above that
    /// stays allocated while the view is used (a pipe argument: the launch
    /// holds the pipe object).
    unsafe fn at(base: *mut u8) -> Option<Pipe> {
        if base.is_null() {
            return None;
        }
        // SAFETY: the header's first 8 bytes belong to the store (caller);
        // they are written once, at creation, before any kernel sees it.
        let (packet_size, capacity) = unsafe {
            (
                base.add(PACKET_SIZE_AT).cast::<u32>().read(),
                base.add(CAPACITY_AT).cast::<u32>().read(),
            )
        };
        (packet_size != 0 && capacity != 0).then_some(Pipe {
            base,
            packet_size,
            capacity,
        })
    }

    fn word(&self, at: usize) -> &AtomicU64 {
        // SAFETY: `at` is WRITE_AT, READ_AT or a state word's offset below
        // `packets_offset(capacity)`: inside the store, 8-byte aligned (the
        // store is 128-byte aligned), and only ever accessed atomically.
        unsafe { AtomicU64::from_ptr(self.base.add(at).cast::<u64>()) }
    }

    fn state(&self, position: u64) -> &AtomicU64 {
        self.word(HEADER_SIZE as usize + 8 * (position % u64::from(self.capacity)) as usize)
    }

    /// The state word value of `position`'s slot when free for it.
    fn free(&self, position: u64) -> u64 {
        2 * (position / u64::from(self.capacity))
    }

    /// The address of `position`'s packet.
    fn packet(&self, position: u64) -> *mut u8 {
        let slot = position % u64::from(self.capacity);
        let at = packets_offset(self.capacity) + slot * u64::from(self.packet_size);
        self.base.wrapping_add(at as usize)
    }

    /// Reserves `n` positions for writing (`write`) or reading: the first.
    fn reserve(&self, n: u32, write: bool) -> Option<u64> {
        if n == 0 || n > self.capacity || n > MAX_RESERVATION {
            return None;
        }
        let (counter, want) = if write { (WRITE_AT, 0) } else { (READ_AT, 1) };
        let counter = self.word(counter);
        let mut first = counter.load(Ordering::Relaxed);
        loop {
            let ready =
                (first..first + u64::from(n)).all(|p| self.state(p).load(Ordering::Acquire) == self.free(p) + want);
            if !ready {
                // Fail only if nobody moved the counter meanwhile (the
                // slots were checked against an up-to-date first position).
                let now = counter.load(Ordering::Relaxed);
                if now == first {
                    return None;
                }
                first = now;
                continue;
            }
            match counter.compare_exchange_weak(first, first + u64::from(n), Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(first),
                Err(now) => first = now,
            }
        }
    }

    /// The first position and count of reservation `id` of this pipe
    /// (`write`: a write reservation), if `id` is valid.
    fn reservation(&self, id: u64, write: bool) -> Option<(u64, u32)> {
        if !is_valid(id) {
            return None;
        }
        let counter = self
            .word(if write { WRITE_AT } else { READ_AT })
            .load(Ordering::Relaxed);
        let back = counter.wrapping_sub(id) & POSITION_MASK;
        Some((counter.wrapping_sub(back), (id >> POSITION_BITS) as u32))
    }

    /// Stores the state after a write (`write`) or a read of `n` positions
    /// from `first`.
    fn commit(&self, first: u64, n: u32, write: bool) {
        for p in (0..u64::from(n)).map(|k| first.wrapping_add(k)) {
            let next = self.free(p) + if write { 1 } else { 2 };
            self.state(p).store(next, Ordering::Release);
        }
    }

    /// Copies `size` bytes into (`write`) or out of `position`'s packet.
    ///
    /// # Safety
    /// `data` is valid for `size` bytes (the kernel's own pointer).
    unsafe fn copy(&self, position: u64, data: *mut u8, size: u32, write: bool) {
        let packet = self.packet(position);
        // SAFETY: `size <= packet_size` (checked by every caller), so the
        // packet's bytes lie inside the store; `data` is the caller's. The
        // slot is owned by this reservation until its commit.
        unsafe {
            if write {
                std::ptr::copy_nonoverlapping(data, packet, size as usize);
            } else {
                std::ptr::copy_nonoverlapping(packet, data, size as usize);
            }
        }
    }
}

/// Makes a reservation id.
fn id_of(first: u64, n: u32) -> u64 {
    (first & POSITION_MASK) | (u64::from(n) << POSITION_BITS)
}

/// The pipe at `pipe` if packets of `size` bytes fit its packets.
///
/// # Safety
/// As [`Pipe::at`].
unsafe fn pipe_for(pipe: *mut u8, size: u32) -> Option<Pipe> {
    // SAFETY: the caller's contract.
    unsafe { Pipe::at(pipe) }.filter(|p| size <= p.packet_size)
}

/// OpReadPipe (`write` false) and OpWritePipe: one packet of `size` bytes
/// between the pipe and `data`; 0, or -1 if the pipe is empty (full).
///
/// # Safety
/// `pipe` is NULL or a pipe store (a pipe kernel argument); `data` is
/// valid for `size` bytes, as for the kernel's own accesses.
pub unsafe extern "C" fn clift_pipe_packet(pipe: *mut u8, data: *mut u8, size: u32, write: u32) -> i32 {
    let write = write != 0;
    // SAFETY: the caller's contract.
    let Some(p) = (unsafe { pipe_for(pipe, size) }) else {
        return -1;
    };
    let Some(first) = p.reserve(1, write) else {
        return -1;
    };
    // SAFETY: the caller's contract; `size` fits the packets.
    unsafe { p.copy(first, data, size, write) };
    p.commit(first, 1, write);
    0
}

/// OpReserveWritePipePackets (`write` nonzero) and
/// OpReserveReadPipePackets, and the group forms' one reservation: the
/// reservation id, or 0 (invalid) when it cannot be made.
///
/// # Safety
/// `pipe` is NULL or a pipe store (a pipe kernel argument).
pub unsafe extern "C" fn clift_pipe_reserve(pipe: *mut u8, n: u32, size: u32, write: u32) -> u64 {
    // SAFETY: the caller's contract.
    let Some(p) = (unsafe { pipe_for(pipe, size) }) else {
        return 0;
    };
    p.reserve(n, write != 0).map_or(0, |first| id_of(first, n))
}

/// OpReservedWritePipe (`write` nonzero) and OpReservedReadPipe: packet
/// `index` of reservation `id`; 0, or -1 if the id is invalid or the index
/// out of its range.
///
/// # Safety
/// As [`clift_pipe_packet`].
pub unsafe extern "C" fn clift_pipe_reserved_packet(
    pipe: *mut u8,
    id: u64,
    index: u32,
    data: *mut u8,
    size: u32,
    write: u32,
) -> i32 {
    let write = write != 0;
    // SAFETY: the caller's contract.
    let Some(p) = (unsafe { pipe_for(pipe, size) }) else {
        return -1;
    };
    let Some((first, n)) = p.reservation(id, write) else {
        return -1;
    };
    if index >= n {
        return -1;
    }
    // SAFETY: the caller's contract; `size` fits the packets.
    unsafe { p.copy(first.wrapping_add(u64::from(index)), data, size, write) };
    0
}

/// OpCommitWritePipe (`write` nonzero) and OpCommitReadPipe, and the group
/// forms' one commit: the reservation's packets become readable (free).
/// An invalid id commits nothing.
///
/// # Safety
/// `pipe` is NULL or a pipe store (a pipe kernel argument).
pub unsafe extern "C" fn clift_pipe_commit(pipe: *mut u8, id: u64, size: u32, write: u32) {
    let write = write != 0;
    // SAFETY: the caller's contract.
    let Some(p) = (unsafe { pipe_for(pipe, size) }) else {
        return;
    };
    if let Some((first, n)) = p.reservation(id, write) {
        p.commit(first, n, write);
    }
}

/// OpGetNumPipePackets (`max` zero: the packets written or being written
/// and not yet reserved for reading, at most the capacity; a value stale
/// at once, as the spec says) and OpGetMaxPipePackets (the capacity).
///
/// # Safety
/// `pipe` is NULL or a pipe store (a pipe kernel argument).
pub unsafe extern "C" fn clift_pipe_packets(pipe: *mut u8, max: u32) -> u32 {
    // SAFETY: the caller's contract.
    let Some(p) = (unsafe { Pipe::at(pipe) }) else {
        return 0;
    };
    if max != 0 {
        return p.capacity;
    }
    // R first: W only grows, so W >= R here.
    let r = p.word(READ_AT).load(Ordering::Acquire);
    let w = p.word(WRITE_AT).load(Ordering::Acquire);
    w.saturating_sub(r).min(u64::from(p.capacity)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zeroed, 128-byte aligned pipe store.
    struct Store(Vec<u128>);

    impl Store {
        fn new(packet_size: u32, capacity: u32) -> Store {
            let len = store_size(packet_size, capacity) as usize;
            let mut v = vec![0u128; len.div_ceil(16) + 8];
            let h = header(packet_size, capacity);
            // SAFETY: the vector has at least 8 bytes.
            unsafe { std::ptr::copy_nonoverlapping(h.as_ptr(), v.as_mut_ptr().cast::<u8>(), 8) };
            Store(v)
        }
        fn ptr(&mut self) -> *mut u8 {
            self.0.as_mut_ptr().cast()
        }
    }

    #[test]
    fn ids_tell_valid_from_invalid() {
        assert!(!is_valid(0));
        assert!(!is_valid(u64::MAX));
        assert!(is_valid(id_of(5, 1)));
        assert!(is_valid(id_of(u64::MAX, MAX_RESERVATION)));
        assert!(!is_valid(id_of(7, 0)));
    }

    #[test]
    fn packets_pass_in_order_and_full_and_empty_fail() {
        let mut s = Store::new(4, 3);
        let p = s.ptr();
        for round in 0..5u32 {
            for k in 0..3u32 {
                let mut v = round * 10 + k;
                // SAFETY: a pipe store and a 4-byte value.
                assert_eq!(unsafe { clift_pipe_packet(p, (&raw mut v).cast(), 4, 1) }, 0);
            }
            let mut v = 99u32;
            // SAFETY: as above.
            assert_eq!(unsafe { clift_pipe_packet(p, (&raw mut v).cast(), 4, 1) }, -1, "full");
            // SAFETY: as above.
            assert_eq!(unsafe { clift_pipe_packets(p, 0) }, 3);
            for k in 0..3u32 {
                let mut v = 0u32;
                // SAFETY: as above.
                assert_eq!(unsafe { clift_pipe_packet(p, (&raw mut v).cast(), 4, 0) }, 0);
                assert_eq!(v, round * 10 + k);
            }
            // SAFETY: as above.
            assert_eq!(unsafe { clift_pipe_packet(p, (&raw mut v).cast(), 4, 0) }, -1, "empty");
        }
        // A larger packet than the pipe's fails.
        let mut big = [0u8; 8];
        // SAFETY: as above, 8 bytes.
        assert_eq!(unsafe { clift_pipe_packet(p, big.as_mut_ptr(), 8, 1) }, -1);
    }

    #[test]
    fn reservations_commit_out_of_order() {
        let mut s = Store::new(8, 4);
        let p = s.ptr();
        // SAFETY: a pipe store, 8-byte values.
        unsafe {
            let a = clift_pipe_reserve(p, 2, 8, 1);
            let b = clift_pipe_reserve(p, 2, 8, 1);
            assert!(is_valid(a) && is_valid(b));
            assert_eq!(clift_pipe_reserve(p, 1, 8, 1), 0, "full");
            for (id, base) in [(b, 20u64), (a, 10)] {
                for k in 0..2u32 {
                    let mut v = base + u64::from(k);
                    assert_eq!(clift_pipe_reserved_packet(p, id, k, (&raw mut v).cast(), 8, 1), 0);
                }
                let mut v = 0u64;
                assert_eq!(clift_pipe_reserved_packet(p, id, 2, (&raw mut v).cast(), 8, 1), -1);
            }
            clift_pipe_commit(p, b, 8, 1);
            // a is not committed: nothing is readable yet.
            assert_eq!(clift_pipe_reserve(p, 1, 8, 0), 0);
            clift_pipe_commit(p, a, 8, 1);
            let r = clift_pipe_reserve(p, 4, 8, 0);
            assert!(is_valid(r));
            for k in 0..4u32 {
                let mut v = 0u64;
                assert_eq!(clift_pipe_reserved_packet(p, r, k, (&raw mut v).cast(), 8, 0), 0);
                assert_eq!(v, [10, 11, 20, 21][k as usize]);
            }
            assert_eq!(clift_pipe_reserve(p, 1, 8, 1), 0, "not freed before the read commit");
            clift_pipe_commit(p, r, 8, 0);
            assert!(is_valid(clift_pipe_reserve(p, 4, 8, 1)));
        }
    }

    #[test]
    fn threads_lose_and_duplicate_nothing() {
        const N: u64 = 200_000;
        let mut s = Store::new(8, 16);
        let addr = s.ptr() as usize;
        let producers: Vec<_> = (0..2u64)
            .map(|t| {
                std::thread::spawn(move || {
                    let p = addr as *mut u8;
                    let mut k = 0;
                    while k < N / 2 {
                        let mut v = t * N + k;
                        // SAFETY: the store outlives the threads (joined below).
                        if unsafe { clift_pipe_packet(p, (&raw mut v).cast(), 8, 1) } == 0 {
                            k += 1;
                        }
                    }
                })
            })
            .collect();
        let received = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let consumers: Vec<_> = (0..2)
            .map(|_| {
                let received = received.clone();
                std::thread::spawn(move || {
                    let p = addr as *mut u8;
                    let mut got = Vec::new();
                    while received.load(Ordering::Relaxed) < N {
                        let mut v = 0u64;
                        // SAFETY: as above.
                        if unsafe { clift_pipe_packet(p, (&raw mut v).cast(), 8, 0) } == 0 {
                            got.push(v);
                            received.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    got
                })
            })
            .collect();
        for t in producers {
            t.join().unwrap();
        }
        let mut all: Vec<u64> = Vec::new();
        for t in consumers {
            let got = t.join().unwrap();
            // Each producer's values arrive in order at each consumer.
            for src in 0..2 {
                let mine: Vec<u64> = got.iter().copied().filter(|v| v / N == src).collect();
                assert!(mine.windows(2).all(|w| w[0] < w[1]));
            }
            all.extend(got);
        }
        all.sort_unstable();
        let want: Vec<u64> = (0..2).flat_map(|t| (0..N / 2).map(move |k| t * N + k)).collect();
        assert_eq!(all, want);
    }
}
