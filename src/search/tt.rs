//! A fixed-size transposition table, allocated once per searcher and reused
//! for every decision. Entries are stamped with the decision's epoch, so
//! starting a new decision invalidates them all without touching memory.

use crate::seeds::mix64;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: f32,
    epoch: u16,
    /// Chance layers below this node that `value` accounts for.
    remaining: u8,
    /// Whether a board with no legal move went into `value` (it then
    /// depends on the value the search gave such boards).
    lost: bool,
}

pub struct Table {
    entries: Box<[Entry]>,
    mask: usize,
    epoch: u16,
}

impl Table {
    /// A table of 2^bits entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            entries: vec![Entry::default(); len].into_boxed_slice(),
            mask: len - 1,
            epoch: 1,
        }
    }

    pub fn bits(&self) -> u32 {
        self.entries.len().trailing_zeros()
    }

    /// Forgets every entry (O(1) except once every 65535 calls).
    pub fn new_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.entries.fill(Entry::default());
            self.epoch = 1;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        mix64(key) as usize & self.mask
    }

    /// Asks the processor to bring `key`'s entry into the cache, so that a
    /// [`Table::get`] of it a while later does not wait for memory (the
    /// table is larger than the caches). A hint only: nothing changes.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let entry: *const Entry = &self.entries[self.slot(key)];
            // SAFETY: a prefetch only hints the cache; it reads nothing the
            // program sees and cannot fault (the address is an entry's anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// A value searched at least `remaining` layers deep in this epoch, and
    /// whether a lost board went into it.
    #[inline]
    pub fn get(&self, key: u64, remaining: u8) -> Option<(f32, bool)> {
        let e = &self.entries[self.slot(key)];
        (e.key == key && e.epoch == self.epoch && e.remaining >= remaining)
            .then_some((e.value, e.lost))
    }

    /// Stores a value and whether a lost board went into it.
    #[inline]
    pub fn put(&mut self, key: u64, remaining: u8, value: f32, lost: bool) {
        let epoch = self.epoch;
        let slot = self.slot(key);
        self.entries[slot] = Entry {
            key,
            value,
            epoch,
            remaining,
            lost,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_with_the_epoch_and_honour_depth() {
        let mut t = Table::new(4);
        t.put(42, 2, 1.5, false);
        assert_eq!(t.get(42, 2), Some((1.5, false)));
        assert_eq!(t.get(42, 1), Some((1.5, false)));
        t.put(44, 1, 2.5, true);
        assert_eq!(t.get(44, 1), Some((2.5, true)));
        assert_eq!(t.get(42, 3), None);
        assert_eq!(t.get(43, 0), None);
        t.new_epoch();
        assert_eq!(t.get(42, 0), None);
        for _ in 0..70_000 {
            t.new_epoch();
        }
        assert_eq!(t.get(42, 0), None);
    }
}
