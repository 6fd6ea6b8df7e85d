//! Large tables in huge pages.
//!
//! A network's tables are hundreds of MiB read at random: four 6-cell
//! tuples are 256 MiB, a lookup per tuple and symmetry, 32 a board. With
//! 4 KiB pages nearly every lookup also misses the TLB, which covers a few
//! MiB. Linux backs memory with 2 MiB pages where a program asks for them
//! (transparent huge pages in `madvise` mode, the common default), and then
//! the whole network fits the TLB. A table is allocated, advised, and only
//! then written, so its pages are huge from their first touch.
//!
//! The advice is a request: where the system has no huge pages to give, or
//! on other systems, the tables are ordinary vectors, and every value read
//! from them is the same either way.

/// The size of a huge page on x86-64 and most 64-bit Arm systems.
const HUGE_PAGE: usize = 2 << 20;

/// A type whose value with every bit 0 is its zero: a table of them can
/// come from the system already zeroed.
///
/// # Safety
///
/// The all-zero bit pattern must be a valid value of the type.
pub(super) unsafe trait Zero: Copy {}

// SAFETY: 0.0 is the all-zero f32.
unsafe impl Zero for f32 {}

/// A table of `len` zeros, in huge pages where the system gives them. The
/// memory comes zeroed from the allocator and this writes none of it, so a
/// table of gigabytes costs nothing until its pages are first written; a
/// page that is only ever read stays the system's shared page of zeros.
pub(super) fn zeros<T: Zero>(len: usize) -> Vec<T> {
    use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
    let layout = Layout::array::<T>(len).expect("a table fits the address space");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout's size is not 0.
    let ptr = unsafe { alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        handle_alloc_error(layout);
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout
    // of `len` values of T, which is the layout a Vec of capacity `len`
    // frees with; all `len` of them are zero bits, a valid T (`Zero`).
    let mut table = unsafe { Vec::from_raw_parts(ptr, len, len) };
    advise(&mut table);
    table
}

/// A copy of `from`, in huge pages where the system gives them.
pub(super) fn copied<T: Copy>(from: &[T]) -> Vec<T> {
    let mut table = Vec::with_capacity(from.len());
    advise(&mut table);
    table.extend_from_slice(from);
    table
}

/// Asks for huge pages for the whole huge pages inside `table`'s capacity
/// (not yet written: a fresh allocation this large is fresh pages, which a
/// zeroed one leaves untouched too).
fn advise<T>(table: &mut Vec<T>) {
    let bytes = table.capacity() * std::mem::size_of::<T>();
    let start = table.as_mut_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        request_huge_pages(first, end - first);
    }
}

#[cfg(target_os = "linux")]
fn request_huge_pages(address: usize, len: usize) {
    // SAFETY: [address, address + len) lies inside one live allocation
    // (the table's capacity), and MADV_HUGEPAGE changes how its pages are
    // backed, never their contents or the mapping's validity. A failure
    // (no THP in this kernel) leaves the ordinary pages: it is ignored.
    unsafe {
        libc::madvise(address as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn request_huge_pages(_address: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_hold_what_they_are_given() {
        let mut big = zeros::<f32>(3 * HUGE_PAGE / 4 + 5);
        assert_eq!(big.len(), 3 * HUGE_PAGE / 4 + 5);
        assert!(big.iter().all(|&w| w.to_bits() == 0));
        big[HUGE_PAGE / 2] = 1.5;
        big.push(2.5);
        assert_eq!(big[HUGE_PAGE / 2], 1.5);
        assert_eq!(big.last(), Some(&2.5));
        assert_eq!(zeros::<f32>(3), vec![0.0; 3]);
        assert!(zeros::<f32>(0).is_empty());
        let copy = copied(&big);
        assert_eq!(copy, big);
        assert!(copied::<f32>(&[]).is_empty());
    }
}
