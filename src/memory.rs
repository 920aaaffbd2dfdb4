//! Keeping the binaries' resident memory to what they use.
//!
//! On Linux with transparent huge pages set to `always` (common on servers and CI
//! machines), every 2 MiB region mimalloc touches becomes resident as a whole: a
//! `check` of the 100,000-payload benchmark corpus peaked at 63 MiB with them and
//! 30 MiB without, at the same speed. Both binaries turn them off for their own
//! process first thing in `main`, as mimalloc's `MIMALLOC_ALLOW_THP=0` would; the
//! kernel applies it to every later page fault, including in memory mimalloc
//! reserved before `main`.

/// Turns transparent huge pages off for this process (Linux); elsewhere nothing.
pub fn disable_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours;
    // on a kernel without it the call fails with EINVAL, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
