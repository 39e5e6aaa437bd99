//! A hint to bring memory into the cache before it is read: traversals know which nodes they
//! will visit a few steps ahead, and on large hierarchies each visit otherwise waits on a
//! cache miss. Only a hint: it never changes what a program computes.

/// Asks for the cache line holding `value` (a no-op where the target has no prefetch).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch reads nothing and cannot fault; the address is of a live value.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
