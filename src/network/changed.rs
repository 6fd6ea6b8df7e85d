//! The weights a round of learning changed, one bit per line of 16
//! weights (64 bytes, what a cache moves at once): what the copy of the
//! network that games are played on must take over after the round (see
//! [`super::learn`]). Marked as the learner steps, then copied in pieces
//! that the threads share out, each marked line once, however many boards
//! of the round looked into it. Each line is written from the learning
//! weights alone, so the copy is the same whichever thread takes a piece.
//!
//! A line holds weights the round left alone beside those it moved; copying
//! them too changes nothing, since the copy already equals the network
//! everywhere but where the round moved it. One bit a line keeps the marks
//! (a 64th of the tables' size) in the core's own cache, where one bit a
//! weight missed it on most steps.

use rayon::prelude::*;

use super::learned::Learned;
use super::lookups::Lookups;
use super::value::Network;

/// Weights in a line: 64 bytes of `f32`.
const LINE: usize = 16;

/// Words of marks a thread copies at a time: 1024 words mark 65,536 lines,
/// 4 MB of weights, so that a table of `six` is 16 pieces and two threads
/// end together however unevenly the tables changed.
const PIECE: usize = 1024;

/// One bit per line of every table: set when a weight of it changed since
/// the last copy.
pub(super) struct Changed {
    tables: Vec<Vec<u64>>,
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

    /// Brings `play`, which equalled `learned` before the marked steps,
    /// up to it: the stages `learned` promoted since, whole, then every
    /// marked line, in pieces of [`PIECE`] words of marks that the threads
    /// share out. Clears the marks.
    pub(super) fn catch_up(&mut self, play: &mut Network, learned: &impl Learned) {
        let tuples = play.tuples().len();
        for k in play.opened * tuples..learned.opened() * tuples {
            let table = &mut play.tables_mut()[k];
            learned.weights(k, 0..table.len(), table);
        }
        play.opened = learned.opened();
        // The weights a piece of marks covers.
        let span = PIECE * 64 * LINE;
        play.tables_mut()
            .par_iter_mut()
            .zip(&mut self.tables)
            .enumerate()
            .flat_map(|(k, (to, bits))| {
                to.par_chunks_mut(span)
                    .zip(bits.par_chunks_mut(PIECE))
                    .enumerate()
                    .map(move |(piece, (to, bits))| (k, piece * span, to, bits))
            })
            .for_each(|(k, first, to, bits)| take_marked(learned, k, first, to, bits));
    }
}

/// Writes to `to`, weights `first..` of table `table`, the lines of it that
/// `bits` marks, from `learned`, and clears the marks.
fn take_marked(
    learned: &impl Learned,
    table: usize,
    first: usize,
    to: &mut [f32],
    bits: &mut [u64],
) {
    for (w, word) in bits.iter_mut().enumerate() {
        let mut set = std::mem::take(word);
        while set != 0 {
            let line = 64 * w + set.trailing_zeros() as usize;
            let at = LINE * line..(LINE * (line + 1)).min(to.len());
            learned.weights(table, first + at.start..first + at.end, &mut to[at]);
            set &= set - 1;
        }
    }
}
