//! The two orders of a table's weights.
//!
//! A tuple's index is the ranks of its cells as base-16 digits. A file
//! (full, packed, coherence sums) holds each table in *file order*: the
//! tuple's first cell is the lowest digit. In memory each table is in *play
//! order*, the digits reversed: the first cell is the highest digit. That is
//! the order in which successive boards of a game look up nearer weights: a
//! greedy move ran about a tenth faster in it (performance.md, "Searches
//! scored by a network"). Lookups read play order directly (the value
//! module gathers each symmetric form turned by 180°, whose cells come in
//! the reverse order); readers and writers of files convert here.

/// The number of cells of a tuple whose table has `len` entries (16^n).
pub(super) fn cells_of(len: usize) -> usize {
    debug_assert!(len.is_power_of_two() && len.trailing_zeros().is_multiple_of(4));
    len.trailing_zeros() as usize / 4
}

/// `index` with its `n` base-16 digits in the reverse order: a weight's
/// place in one order from its place in the other.
#[inline]
pub(super) fn reversed(index: usize, n: usize) -> usize {
    (0..n).fold(0, |r, j| {
        r | ((index >> (4 * j)) & 0xF) << (4 * (n - 1 - j))
    })
}

/// Writes `from` into `to` (of the same length, a table's) in the other
/// order. A tile at a time: the 16 runs of 16 weights that differ only in
/// the lowest and highest digits, read run by run into a square turned on
/// the way, then written run by run. (Runs 16^(n−1) weights apart fall in
/// one cache set: reading and writing them across at once would evict them
/// from each other; the next tile's runs are fetched while one is turned.)
pub(super) fn reorder<T: Copy + Default>(from: &[T], to: &mut [T]) {
    assert_eq!(from.len(), to.len(), "a table and its copy");
    let n = cells_of(from.len());
    if n < 2 {
        to.copy_from_slice(from);
        return;
    }
    let top = 1 << (4 * (n - 1));
    let mut square = [T::default(); 256];
    for middle in 0..1 << (4 * (n - 2)) {
        let (at, turned) = (16 * middle, 16 * reversed(middle, n - 2));
        // The next tile's runs asked for now: each is a miss of its own.
        for high in 0..16 {
            if let Some(w) = from.get(at + 16 + top * high) {
                super::value::prefetch(w);
            }
        }
        for high in 0..16 {
            let run = &from[at + top * high..][..16];
            for (low, &w) in run.iter().enumerate() {
                square[16 * low + high] = w;
            }
        }
        for low in 0..16 {
            to[turned + top * low..][..16].copy_from_slice(&square[16 * low..][..16]);
        }
    }
}

/// `table`'s weights in the other order.
pub(super) fn reordered<T: Copy + Default>(table: &[T]) -> Vec<T> {
    let mut out = vec![T::default(); table.len()];
    reorder(table, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reordering_moves_each_weight_to_its_reversed_index_and_back() {
        assert_eq!(reversed(0x123, 3), 0x321);
        assert_eq!(reversed(0xABCDEF, 6), 0xFEDCBA);
        assert_eq!(cells_of(1 << 24), 6);
        for n in 1..=5 {
            let table: Vec<u32> = (0..1u32 << (4 * n)).collect();
            let turned = reordered(&table);
            for (i, &w) in table.iter().enumerate() {
                assert_eq!(turned[reversed(i, n)], w, "n {n}, index {i:x}");
            }
            assert_eq!(reordered(&turned), table);
        }
    }
}
