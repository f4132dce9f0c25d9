//! The floating-point environment OpenCL code runs in: round to nearest
//! even, denormals kept (the device reports `CL_FP_DENORM` for float and
//! double), exceptions masked. The application's threads may run with
//! another one (flush-to-zero and denormals-are-zero, as a host built with
//! `-ffast-math` leaves the MXCSR, or a directed rounding mode), and the
//! device's threads inherit the one of the thread that created them; so
//! everything that computes as a kernel would (running work-groups,
//! folding constants at build) does it inside an [`OpenClFpEnv`], which
//! sets OpenCL's environment on the calling thread and gives the thread
//! its own back when dropped (unwinding included).
//!
//! On x86-64 that is the SSE control and status register (MXCSR, which
//! every float and double instruction clift's code and the host math
//! functions use obeys); on other targets the guard leaves the thread's
//! environment as it is.

/// MXCSR with every exception masked, round to nearest even, and neither
/// flush-to-zero nor denormals-are-zero.
#[cfg(target_arch = "x86_64")]
const MXCSR_DEFAULT: u32 = 0x1f80;

/// OpenCL's floating-point environment on the calling thread while alive.
#[must_use = "the environment lasts only while the guard lives"]
pub struct OpenClFpEnv {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

impl OpenClFpEnv {
    /// Saves the thread's environment and sets OpenCL's.
    pub fn enter() -> OpenClFpEnv {
        #[cfg(target_arch = "x86_64")]
        {
            let saved = read_mxcsr();
            write_mxcsr(MXCSR_DEFAULT);
            OpenClFpEnv { saved }
        }
        #[cfg(not(target_arch = "x86_64"))]
        OpenClFpEnv {}
    }
}

impl Drop for OpenClFpEnv {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        write_mxcsr(self.saved);
    }
}

#[cfg(target_arch = "x86_64")]
fn read_mxcsr() -> u32 {
    let mut v = 0u32;
    // SAFETY: stmxcsr stores the 4-byte MXCSR at the address of `v`, a
    // live, writable u32; it touches nothing else.
    unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack, preserves_flags)) };
    v
}

#[cfg(target_arch = "x86_64")]
fn write_mxcsr(v: u32) {
    // SAFETY: ldmxcsr loads the 4-byte value at the address of `v`, a live
    // u32 that is either MXCSR_DEFAULT or a value read from the MXCSR
    // (reserved bits clear, so it cannot fault); it changes the calling
    // thread's SSE environment only.
    unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack, preserves_flags, readonly)) };
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn sets_the_default_and_restores_the_threads_own() {
        let before = read_mxcsr();
        // Flush-to-zero, denormals-are-zero, round toward +inf.
        let hostile = MXCSR_DEFAULT | 0x8040 | 0x4000;
        write_mxcsr(hostile);
        let tiny = std::hint::black_box(f32::from_bits(1));
        // Both factors opaque: an optimised build folds `x * 1.0` to `x`.
        let one = std::hint::black_box(1.0f32);
        assert_eq!((tiny * one).to_bits(), 0, "denormals-are-zero is on");
        {
            let _env = OpenClFpEnv::enter();
            assert_eq!(read_mxcsr() & !0x3f, MXCSR_DEFAULT);
            assert_eq!((std::hint::black_box(tiny) * one).to_bits(), 1);
            assert_eq!(one + 2f32.powi(-30), 1.0, "round to nearest");
        }
        assert_eq!(read_mxcsr() & !0x3f, hostile);
        write_mxcsr(before);
    }
}
