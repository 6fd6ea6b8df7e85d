//! The weights a round of learning changed, one bit per weight: what the
//! copy of the network that games are played on must take over after the
//! round (see [`super::learn`]). Marked as the learner steps, then copied
//! table by table in ascending order of weight, each changed weight once,
//! however many boards of the round looked it up.

use rayon::prelude::*;

use super::value::Network;
use crate::engine::Board;

/// One bit per weight of every table: set when the weight changed since
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
                .map(|t| vec![0; t.len().div_ceil(64)])
                .collect(),
        }
    }

    /// Marks every weight `board` looks up in `net` (the weights a step of
    /// learning on it moves).
    #[inline]
    pub(super) fn mark(&mut self, net: &Network, board: Board) {
        net.for_each_index(board, board.transpose(), |t, i| {
            self.tables[t][i / 64] |= 1 << (i % 64);
        });
    }

    /// Copies every marked weight of `learned` to `play`, each table by a
    /// thread of its own, and clears the marks.
    pub(super) fn copy(&mut self, play: &mut Network, learned: &Network) {
        play.tables_mut()
            .par_iter_mut()
            .zip(learned.tables())
            .zip(&mut self.tables)
            .for_each(|((to, from), bits)| {
                for (w, word) in bits.iter_mut().enumerate() {
                    let mut set = std::mem::take(word);
                    while set != 0 {
                        let i = 64 * w + set.trailing_zeros() as usize;
                        to[i] = from[i];
                        set &= set - 1;
                    }
                }
            });
    }
}
