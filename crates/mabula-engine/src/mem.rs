//! The two places where the engine talks to the machine below Rust's safe abstractions, both
//! for the solver's transposition table: a big table on huge pages (fewer TLB misses on its
//! random accesses), and prefetching an entry before it is read.
#![allow(unsafe_code)]

use std::sync::atomic::AtomicU64;

/// `len` zeroed atomic words, on huge pages where the system allows it (Linux: transparent huge
/// pages in `madvise` or `always` mode). Elsewhere, or if the kernel says no, ordinary pages.
pub(crate) fn zeroed_words(len: usize) -> Vec<AtomicU64> {
    let mut words: Vec<AtomicU64> = Vec::with_capacity(len);
    // Advise before the first write, so that the pages are huge from their first touch.
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = words.as_ptr() as usize;
        let (begin, end) = (
            start.next_multiple_of(HUGE),
            (start + len * 8) / HUGE * HUGE,
        );
        if end > begin {
            // SAFETY: [begin, end) lies inside the allocation `words` owns, and MADV_HUGEPAGE
            // only changes how the kernel backs those pages, never their contents. A failure
            // (say, huge pages are off) leaves ordinary pages, which is fine.
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
    words.resize_with(len, || AtomicU64::new(0));
    words
}

/// Asks the processor to start loading the cache line of `value`.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault; `value` is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
