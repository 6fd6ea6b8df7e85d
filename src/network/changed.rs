//! The weights a round of learning changed, one bit per line of 16
//! weights (64 bytes, what a cache moves at once): what the copy of the
//! network that games are played on must take over after the round (see
//! [`super::learn`]). Marked as the learner steps, then copied out once per
//! marked line ([`Staged`]), however many boards of the round looked into
//! it.
//!
//! A line holds weights the round left alone beside those it moved; copying
//! them too changes nothing, since the copy already equals the network
//! everywhere but where the round moved it. One bit a line keeps the marks
//! (a 64th of the tables' size) in the core's own cache, where one bit a
//! weight missed it on most steps.

use super::learned::Learned;
use super::lookups::Lookups;
use super::staged::{Staged, AHEAD, LINE};
use super::value::Network;

/// One bit per line of every table: set when a weight of it changed since
/// the last copy.
pub(super) struct Changed {
    tables: Vec<Vec<u64>>,
    /// Each table's weights.
    lens: Vec<usize>,
    /// Tables a stage.
    tuples: usize,
    /// The stages in use in the copy once it takes the last [`Staged`].
    opened: usize,
}

impl Changed {
    /// No weight of `net` changed.
    pub(super) fn new(net: &Network) -> Changed {
        Changed {
            tables: net
                .tables()
                .iter()
                .map(|t| vec![0; t.len().div_ceil(64 * LINE)])
                .collect(),
            lens: net.tables().iter().map(Vec::len).collect(),
            tuples: net.tuples().len(),
            opened: net.opened(),
        }
    }

    /// Marks the line of every weight `at` looks up (the weights a step of
    /// learning on its board moves).
    #[inline]
    pub(super) fn mark(&mut self, at: &Lookups) {
        for (t, index) in at.tables() {
            let bits = &mut self.tables[t];
            for &i in index {
                let line = i / LINE;
                bits[line / 64] |= 1 << (line % 64);
            }
        }
    }

    /// Copies into `into` what the copy games are played on lacks of
    /// `learned`, which it equalled before the marked steps: the stages
    /// `learned` promoted since, whole, then every marked line. Clears the
    /// marks.
    pub(super) fn stage(&mut self, learned: &impl Learned, into: &mut Staged) {
        into.clear(learned.opened());
        for k in self.opened * self.tuples..learned.opened() * self.tuples {
            into.take_whole(learned, k, self.lens[k]);
        }
        self.opened = learned.opened();
        // Each line is fetched AHEAD lines before it is copied, so that
        // the misses of several lines overlap.
        let mut ring = [(0, 0); AHEAD];
        let mut fetched = 0;
        for (table, (bits, &len)) in self.tables.iter_mut().zip(&self.lens).enumerate() {
            for (w, word) in bits.iter_mut().enumerate() {
                let mut set = std::mem::take(word);
                while set != 0 {
                    let line = 64 * w + set.trailing_zeros() as usize;
                    set &= set - 1;
                    learned.fetch_weights(table, LINE * line..(LINE * (line + 1)).min(len));
                    let (t, l) = std::mem::replace(&mut ring[fetched % AHEAD], (table, line));
                    if fetched >= AHEAD {
                        into.take_line(learned, t, l, self.lens[t]);
                    }
                    fetched += 1;
                }
            }
        }
        for k in fetched.saturating_sub(AHEAD)..fetched {
            let (t, l) = ring[k % AHEAD];
            into.take_line(learned, t, l, self.lens[t]);
        }
    }
}
