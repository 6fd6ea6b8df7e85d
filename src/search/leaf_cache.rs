//! The scores of the leaves one search has scored, for an evaluation whose
//! score costs far more than a look into a small table (a learned network:
//! dozens of lookups into tables beyond the caches).
//!
//! At depth 3 with a network, fewer than half of the boards a search scores
//! at its horizon are distinct (41% over a game of the shipped network): the
//! same afterstate is reached by other orders of moves and spawns, below
//! chance nodes the transposition table does not merge. A leaf's score is a
//! function of the board alone (the evaluation and the search's settings
//! are fixed for a search), so a score read back here is the score scoring
//! the board again would give, bit for bit, and the search's decisions do
//! not change.
//!
//! Direct-mapped and small enough to stay in a core's second-level cache: a
//! slot holds the last board stored there, and entries are stamped with the
//! search's epoch, so starting a search forgets them all without touching
//! memory.

use crate::seeds::mix64;

/// log2 of the slots: 2^16 slots of 16 bytes, 1 MiB.
pub const LEAF_CACHE_BITS: u32 = 16;

#[derive(Clone, Copy, Default)]
struct Slot {
    board: u64,
    score: f32,
    epoch: u32,
}

/// Leaf scores of the current search, by board. Its memory is taken at the
/// first search that uses it, so a searcher whose evaluation keeps no
/// leaves never holds it.
pub struct LeafCache {
    slots: Box<[Slot]>,
    bits: u32,
    epoch: u32,
}

impl LeafCache {
    /// A cache of 2^`bits` slots, none taken yet.
    pub fn new(bits: u32) -> LeafCache {
        LeafCache {
            slots: Box::default(),
            bits,
            epoch: 1,
        }
    }

    /// Starts a search: forgets every score (O(1) except at the first call
    /// and once every 2^32 − 1 calls). Call it before any
    /// [`LeafCache::get`] or [`LeafCache::put`].
    pub fn new_epoch(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); 1usize << self.bits].into_boxed_slice();
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.slots.fill(Slot::default());
            self.epoch = 1;
        }
    }

    #[inline(always)]
    fn slot(&self, board: u64) -> usize {
        mix64(board) as usize & (self.slots.len() - 1)
    }

    /// The score stored for `board` in this epoch.
    #[inline(always)]
    pub fn get(&self, board: u64) -> Option<f32> {
        let s = &self.slots[self.slot(board)];
        (s.board == board && s.epoch == self.epoch).then_some(s.score)
    }

    /// Stores `board`'s score, in place of whatever its slot held.
    #[inline(always)]
    pub fn put(&mut self, board: u64, score: f32) {
        let epoch = self.epoch;
        let slot = self.slot(board);
        self.slots[slot] = Slot {
            board,
            score,
            epoch,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_is_read_back_until_the_epoch_ends_or_its_slot_is_taken() {
        let mut c = LeafCache::new(4);
        c.new_epoch();
        assert_eq!(c.slots.len(), 16);
        assert_eq!(c.get(42), None);
        c.put(42, 1.5);
        assert_eq!(c.get(42), Some(1.5));
        assert_eq!(c.get(43), None);
        // A board of the same slot replaces it.
        let rival = (0..u64::MAX)
            .find(|&b| b != 42 && c.slot(b) == c.slot(42))
            .unwrap();
        c.put(rival, -2.0);
        assert_eq!(c.get(42), None);
        assert_eq!(c.get(rival), Some(-2.0));
        c.new_epoch();
        assert_eq!(c.get(rival), None);
        c.put(42, 3.0);
        assert_eq!(c.get(42), Some(3.0));
    }

    #[test]
    fn the_epoch_wraps_without_reviving_old_scores() {
        let mut c = LeafCache::new(2);
        assert!(c.slots.is_empty(), "no memory before a search");
        c.new_epoch();
        c.put(7, 1.0);
        c.epoch = u32::MAX;
        c.put(8, 2.0);
        c.new_epoch();
        assert_eq!(c.epoch, 1);
        assert_eq!(c.get(7), None);
        assert_eq!(c.get(8), None);
    }
}
