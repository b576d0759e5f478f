//! Memory of the long-lived server: glibc's malloc serves a block larger than its mapping
//! threshold (128 KiB at the start) by mapping fresh pages, and raises that threshold to
//! the size of each such block freed. A server that swaps a new snapshot of the rules in
//! on every save frees the large lists of the old one (the rules, their placements, the
//! resources: megabytes at 10,000 rules) each time, so after the first saves those lists
//! come from the heap instead, between the snapshot's small blocks, and the heap only ever
//! grows to hold the next set: at 10,000 rules the resident memory rose by 30% over the
//! first five saves (44 to 57 MiB) before it levelled off. Fixing the threshold keeps
//! large lists mapped, so their pages go back to the system when a snapshot is dropped:
//! 42 MiB after the first save and after the hundredth.
//!
//! What the old snapshot freed on the heap itself, malloc keeps at the top of the heap
//! unless asked to give it back: [`give_back`] runs after each refresh.
//!
//! One-shot commands keep malloc's default, which maps less often.

/// Fixes malloc's mapping threshold at its starting value (see the module doc). Does
/// nothing on a C library other than glibc.
pub(crate) fn for_a_long_life() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        /// glibc's own starting threshold (`DEFAULT_MMAP_THRESHOLD_MIN`).
        const THRESHOLD: libc::c_int = 128 * 1024;
        // SAFETY: `mallopt` takes two integers and changes a setting of malloc under its
        // own lock; it has no memory-safety precondition, and a refusal (return 0) only
        // leaves the default.
        #[allow(unsafe_code, reason = "the one call into the C library's allocator")]
        let set = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD) };
        if set == 0 {
            eprintln!(
                "rulebook mcp: malloc refused a fixed mapping threshold; memory may grow over the first saves"
            );
        }
    }
}

/// Returns the memory malloc holds free at the top of its heaps to the system (glibc's
/// `malloc_trim`); nothing elsewhere. Run after a refresh has dropped the old snapshot.
pub(crate) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `malloc_trim` takes the padding to leave and works under malloc's own
        // locks; it has no memory-safety precondition.
        #[allow(unsafe_code, reason = "the one call into the C library's allocator")]
        unsafe {
            libc::malloc_trim(0);
        }
    }
}
