//! The weights one board looks up, found once. A step of learning reads
//! a board's weights, moves them, marks them changed and reads them again;
//! its lookups, computed when the board is fetched ahead, serve all four.

use super::stage::{stage_reached, Boundary};
use super::tuples::MAX_TUPLES;
use super::value::{gather, symmetric_forms, Network};
use crate::engine::Board;

/// What a network's lookups depend on besides its weights: its tuples (as
/// masks of their turned cells) and its stages.
#[derive(Clone, Debug)]
pub(super) struct Shape {
    pub(super) masks: Vec<u64>,
    pub(super) stages: Vec<Boundary>,
}

/// A board's lookups: for each tuple, its table and the index each of the
/// 8 symmetric forms picks in it.
#[derive(Clone, Copy)]
pub(super) struct Lookups {
    /// The first of the tables: the stage's.
    first: usize,
    tuples: usize,
    index: [[usize; 8]; MAX_TUPLES],
}

impl Lookups {
    /// No lookups: a place to compute some into.
    pub(super) const NONE: Lookups = Lookups {
        first: 0,
        tuples: 0,
        index: [[0; 8]; MAX_TUPLES],
    };

    /// Each tuple's table with its 8 indices, tuple by tuple: the order a
    /// value sums them in ([`super::value::Network::value`]'s).
    #[inline(always)]
    pub(super) fn tables(&self) -> impl Iterator<Item = (usize, &[usize; 8])> {
        (self.first..).zip(&self.index[..self.tuples])
    }
}

impl Shape {
    /// `net`'s shape.
    pub(super) fn of(net: &Network) -> Shape {
        Shape {
            masks: net.masks().to_vec(),
            stages: net.stages().to_vec(),
        }
    }

    /// The lookups of `board` when `opened` stages are in use: a board of a
    /// stage not yet in use is scored by the last one that is.
    #[inline(always)]
    pub(super) fn lookups(&self, board: Board, opened: usize) -> Lookups {
        let forms = symmetric_forms(board.0, board.transpose().0);
        let tuples = self.masks.len();
        let mut at = Lookups {
            first: stage_reached(&self.stages, board).min(opened - 1) * tuples,
            tuples,
            ..Lookups::NONE
        };
        for (index, &mask) in at.index.iter_mut().zip(&self.masks) {
            for (i, &form) in index.iter_mut().zip(&forms) {
                *i = gather(form, mask);
            }
        }
        at
    }
}
