//! The binaries' memory: their allocator, and resident memory kept to what they use.
//!
//! [`Allocator`] is mimalloc, asked for plain blocks whenever the alignment allows.
//! Rust passes every allocation's alignment, and the `mimalloc` crate forwards each
//! to `mi_malloc_aligned`, whose fast path only serves a block of at most 1 KiB from
//! a page with a free block at hand. Otherwise (a growing vector, a file's text, a
//! new page) it over-allocates by the alignment and marks the page as holding
//! interior pointers, which slows every later free on it. Asking for plain blocks
//! took 3% off the instructions of a `check` of the benchmark corpus.
//!
//! On Linux with transparent huge pages set to `always` (common on servers and CI
//! machines), every 2 MiB region mimalloc touches becomes resident as a whole: a
//! `check` of the 100,000-payload benchmark corpus peaked at 63 MiB with them and
//! 30 MiB without, at the same speed. Both binaries turn them off for their own
//! process first thing in `main`, as mimalloc's `MIMALLOC_ALLOW_THP=0` would; the
//! kernel applies it to every later page fault, including in memory mimalloc
//! reserved before `main`.
//!
//! Set to `madvise` (most distributions' default), huge pages go only where a
//! program asks for them, and mimalloc asks for its whole arena when it reserves
//! it, before `main`. The first page the runtime touches there was then zeroed and
//! kept as 2 MiB before `main` could turn them off: 3.5 MiB more resident memory
//! and 0.4 ms more in every run (a one-file `check` now takes 2.8 ms). So mimalloc
//! is built without that request (`libmimalloc-sys`'s `no_thp` feature).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc as the global allocator (`#[global_allocator]` in both binaries).
pub struct Allocator;

/// The alignment of every mimalloc block: block sizes are whole words and pages
/// start aligned, so `mi_malloc` serves any layout aligned to a word or less.
const BLOCK_ALIGN: usize = std::mem::size_of::<usize>();

// SAFETY: each method passes the request to the mimalloc function that honours it:
// the plain functions when `layout.align()` is at most `BLOCK_ALIGN` (every block
// is aligned to that), the aligned ones otherwise. Every mimalloc block, plain or
// aligned, is freed by `mi_free`, and `mi_realloc` and `mi_realloc_aligned` keep
// its contents.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        allocate(
            layout,
            libmimalloc_sys::mi_malloc,
            libmimalloc_sys::mi_malloc_aligned,
        )
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        allocate(
            layout,
            libmimalloc_sys::mi_zalloc,
            libmimalloc_sys::mi_zalloc_aligned,
        )
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        libmimalloc_sys::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let block = if layout.align() <= BLOCK_ALIGN {
            libmimalloc_sys::mi_realloc(ptr.cast::<c_void>(), new_size)
        } else {
            libmimalloc_sys::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align())
        };
        block.cast()
    }
}

/// A block for `layout` from `plain` (size) when every block is aligned enough for
/// it, else from `aligned` (size, alignment).
#[inline]
unsafe fn allocate(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    let block = if layout.align() <= BLOCK_ALIGN {
        plain(layout.size())
    } else {
        aligned(layout.size(), layout.align())
    };
    block.cast()
}

/// The input size (a payload's bytes) from which a step frees buffers large enough
/// to be worth [`return_freed_pages`]: a code payload of 1 MiB has about 6 MiB of
/// tokens, and about 11 MiB of arguments that its decoding frees.
pub const LARGE_BUFFER_BYTES: usize = 1 << 20;

/// Gives freed memory back to the system now: this thread's empty pages, and the
/// free ranges of mimalloc's arenas.
///
/// mimalloc keeps freed memory resident for a while (its purge delay) in case it is
/// wanted again, and what a large payload allocates after its parse (its IR, its
/// diagnostics) took fresh pages instead: a `check` of one line of a million calls
/// (10 MB) peaked with its 200 MiB of tokens still resident, at 584 MiB against
/// 469 MiB when they were given back (tokens of 40 bytes then). Purging on every
/// free instead (`MIMALLOC_PURGE_DELAY=0`) made a `check` of the benchmark corpus
/// 24% slower, so this is called only where large buffers were just freed:
/// - by the parser, after dropping a large payload's tokens;
/// - by the code parser, as it joins a long call's arguments collected in chunks
///   (`syntax::code::TightArgs`);
/// - by the lint's decoding, as it frees the tree's arguments
///   (`ir::from_code::write_entities_consuming`);
/// - by the server, before and after it lints a document over 1 MiB
///   (`lsp::document::Snapshot::lint`), and after it answers a request from such a
///   line-oriented document read a line at a time (`Snapshot::reading_lines`):
///   the messages that brought the text, and the trees and IRs, were freed on
///   threads that may not allocate again;
/// - by the server, after a fix-all of a document of 1 MiB or more
///   (`lsp::requests::code_action`): the engine's rounds freed their lints and
///   texts.
///
/// Without mimalloc as the global allocator (tests, benches) it finds nothing to
/// give back.
pub fn return_freed_pages() {
    // SAFETY: mi_collect takes a plain flag and only walks mimalloc's own state.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// The elements of `vec` by value, in order, like `vec.into_iter()`, except that a
/// large vector's pages behind the elements already taken go back to the system
/// as the iteration passes them, every [`RELEASE_STEP_BYTES`].
///
/// Decoding one call of 2.5 million arguments (10 MB) into as many entities held
/// both lists whole at its peak, 280 MB of arguments beside 400 MB of entities:
/// taken this way, the arguments shrink as the entities grow. A vector is freed
/// only whole, and shrinking one copies what is left, so this is the one way to
/// hold less than both.
pub fn into_iter_releasing<T>(vec: Vec<T>) -> ReleasingIntoIter<T> {
    let mut vec = std::mem::ManuallyDrop::new(vec);
    ReleasingIntoIter {
        buffer: vec.as_mut_ptr(),
        capacity: vec.capacity(),
        len: vec.len(),
        next: 0,
        released_bytes: 0,
        release_at: ReleasingIntoIter::<T>::STEP_ELEMENTS,
        owns: std::marker::PhantomData,
    }
}

/// How far [`ReleasingIntoIter`] moves on before giving back the pages it passed.
const RELEASE_STEP_BYTES: usize = 1 << 20;

/// The iterator of [`into_iter_releasing`]. It owns the vector's buffer: the
/// elements from `next` on are still in it, those before were moved out.
pub struct ReleasingIntoIter<T> {
    buffer: *mut T,
    capacity: usize,
    len: usize,
    next: usize,
    /// The bytes from the buffer's start whose whole pages were given back.
    released_bytes: usize,
    /// The value of `next` at which to give back the pages passed.
    release_at: usize,
    /// The elements left are this iterator's to drop.
    owns: std::marker::PhantomData<T>,
}

impl<T> ReleasingIntoIter<T> {
    /// How many elements span [`RELEASE_STEP_BYTES`]; zero-sized ones never do.
    const STEP_ELEMENTS: usize = match std::mem::size_of::<T>() {
        0 => usize::MAX,
        size => RELEASE_STEP_BYTES.div_ceil(size),
    };

    /// Gives back the whole pages between the last release and the element at
    /// `next`, [`Self::STEP_ELEMENTS`] past the last release.
    fn release_passed_pages(&mut self) {
        let passed = self.next * std::mem::size_of::<T>();
        self.release_at = self.next.saturating_add(Self::STEP_ELEMENTS);
        #[cfg(target_os = "linux")]
        {
            let page = page_size();
            let start = self.buffer as usize + self.released_bytes;
            let first_page = start.div_ceil(page) * page;
            let end_page = (self.buffer as usize + passed) / page * page;
            if end_page > first_page {
                // SAFETY: the pages lie wholly inside this iterator's buffer, in the
                // part whose elements were all moved out and are never read again;
                // MADV_DONTNEED on private anonymous memory only makes them read as
                // zeros when next touched, which the allocator may do when it
                // reuses the block, as with any memory it hands out.
                unsafe {
                    libc::madvise(
                        first_page as *mut c_void,
                        end_page - first_page,
                        libc::MADV_DONTNEED,
                    );
                }
            }
        }
        self.released_bytes = passed;
    }
}

/// The system's page size.
#[cfg(target_os = "linux")]
fn page_size() -> usize {
    // SAFETY: sysconf takes a plain name and reads no memory of ours.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
}

impl<T> Iterator for ReleasingIntoIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.next == self.len {
            return None;
        }
        // SAFETY: `next` is below `len`, so the element is initialised and was not
        // moved out yet; it is moved out once, as `next` passes it.
        let element = unsafe { self.buffer.add(self.next).read() };
        self.next += 1;
        if self.next == self.release_at {
            self.release_passed_pages();
        }
        Some(element)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.len - self.next;
        (left, Some(left))
    }
}

impl<T> ExactSizeIterator for ReleasingIntoIter<T> {}

impl<T> Drop for ReleasingIntoIter<T> {
    fn drop(&mut self) {
        // SAFETY: the buffer, capacity and elements are the vector's, given up by
        // `into_iter_releasing`; the elements from `next` to `len` were not moved
        // out, so the vector rebuilt with none drops them here, then frees the buffer.
        unsafe {
            let left = std::ptr::slice_from_raw_parts_mut(
                self.buffer.add(self.next),
                self.len - self.next,
            );
            std::ptr::drop_in_place(left);
            drop(Vec::from_raw_parts(self.buffer, 0, self.capacity));
        }
    }
}

/// Turns transparent huge pages off for this process (Linux); elsewhere nothing.
pub fn disable_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours;
    // on a kernel without it the call fails with EINVAL, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Taken by [`into_iter_releasing`], a vector large enough to release pages
    /// as it goes gives every element in order and intact, its element sizes not
    /// dividing a page (whole pages only are given back, never one still holding
    /// an element not taken).
    #[test]
    fn a_vector_taken_releasing_its_pages_gives_every_element_intact() {
        let count = 3 * RELEASE_STEP_BYTES / 24 + 7;
        let elements: Vec<[u64; 3]> = (0..count as u64).map(|i| [i, !i, i * 3]).collect();
        let mut taken = 0u64;
        for element in into_iter_releasing(elements) {
            assert_eq!(element, [taken, !taken, taken * 3]);
            taken += 1;
        }
        assert_eq!(taken, count as u64);
        assert_eq!(into_iter_releasing(vec![(); 5]).count(), 5);
        assert_eq!(into_iter_releasing(Vec::<String>::new()).next(), None);
    }

    /// Elements not taken when the iterator is dropped are dropped with it, once.
    #[test]
    fn elements_left_untaken_are_dropped_once() {
        let counted = std::rc::Rc::new(());
        let elements: Vec<_> = (0..RELEASE_STEP_BYTES).map(|_| counted.clone()).collect();
        let mut iterator = into_iter_releasing(elements);
        let taken: Vec<_> = iterator.by_ref().take(RELEASE_STEP_BYTES / 2).collect();
        assert_eq!(std::rc::Rc::strong_count(&counted), RELEASE_STEP_BYTES + 1);
        drop(iterator);
        assert_eq!(std::rc::Rc::strong_count(&counted), taken.len() + 1);
        drop(taken);
        assert_eq!(std::rc::Rc::strong_count(&counted), 1);
    }

    /// Blocks of every size class a run uses, at each alignment, keep their
    /// alignment and their bytes as they grow and shrink.
    #[test]
    fn blocks_keep_their_alignment_and_contents_through_realloc() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 8, 24, 100, 1000, 1025, 5000, 70_000, 3_000_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: the layouts are non-zero in size; each block is written
                // within its size, resized with its own layout and freed once.
                unsafe {
                    for new_size in [size * 3, (size / 2).max(1)] {
                        let block = Allocator.alloc(layout);
                        assert!(block as usize % align == 0, "{size} at {align}");
                        for i in 0..size {
                            *block.add(i) = i as u8;
                        }
                        let resized = Allocator.realloc(block, layout, new_size);
                        assert!(
                            resized as usize % align == 0,
                            "{size} → {new_size} at {align}"
                        );
                        let kept = size.min(new_size);
                        assert!((0..kept).all(|i| *resized.add(i) == i as u8));
                        Allocator
                            .dealloc(resized, Layout::from_size_align(new_size, align).unwrap());
                    }
                    let zeroed = Allocator.alloc_zeroed(layout);
                    assert!(zeroed as usize % align == 0);
                    assert!((0..size).all(|i| *zeroed.add(i) == 0));
                    Allocator.dealloc(zeroed, layout);
                }
            }
        }
    }
}
