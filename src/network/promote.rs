//! Stages that promote. A network learned with `learn --stages … --promote`
//! starts with its first stage in use alone: a board of a later stage is
//! scored by the last stage in use. The first time learning meets a board
//! of a stage not yet in use, that stage (and any before it still unused)
//! starts as a copy of the stage before, and is in use from then on. The
//! late game so starts from what the earlier game learned rather than from
//! nothing, and the network scores every board as it did a moment before.
//!
//! Games meet a stage in a fixed order (the order they are learned in), so
//! when a stage is promoted, and from which weights, is a function of the
//! run like the rest of the network. The header's `opened` line records the
//! stages in use while some are not.

use super::value::Network;
use crate::engine::Board;

impl Network {
    /// Puts the first stage alone in use, the others to be promoted as
    /// learning reaches them: for a new network, before it learns.
    pub fn close_later_stages(&mut self) {
        assert_eq!(self.trained.games, 0, "stages are closed on a new network");
        self.opened = 1;
    }

    /// The stages in use, from the first (all of them but while a network
    /// learned with promotion has not reached its last stage).
    pub fn opened(&self) -> usize {
        self.opened
    }

    /// Whether every stage is in use.
    pub fn all_opened(&self) -> bool {
        self.opened == self.stages().len() + 1
    }

    /// Puts in use every stage up to `board`'s, each a copy of the one
    /// before; whether any was promoted. Every board scores as before.
    pub(super) fn promote_to(&mut self, board: Board) -> bool {
        let stage = self.stage_reached(board);
        if stage < self.opened {
            return false;
        }
        let tuples = self.tuples().len();
        for to in self.opened..=stage {
            let (before, after) = self.tables_mut().split_at_mut(to * tuples);
            for (copy, source) in after[..tuples].iter_mut().zip(&before[(to - 1) * tuples..]) {
                copy.copy_from_slice(source);
            }
        }
        self.opened = stage + 1;
        true
    }
}
