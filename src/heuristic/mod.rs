//! The parametric board heuristic, and what a search asks of any board
//! evaluation.
//!
//! - [`Evaluate`] (here): what a search asks of a board evaluation, this
//!   heuristic or a learned network ([`crate::network`], which implements it);
//! - [`terms`]: the one list of the heuristic's terms;
//! - [`weights`]: the [`Weights`] of those terms, and their RON files;
//! - [`tables`]: the [`Heuristic`] as lookup tables, one score per line,
//!   built once per weight vector.
//!
//! [`Weights`] name the terms; [`Heuristic`] turns one weight vector into
//! per-line tables once, and then scores a board with a few lookups:
//!
//! ```
//! use tune2048::engine::Board;
//! use tune2048::heuristic::{Heuristic, Weights};
//!
//! let h = Heuristic::new(&Weights::nneonneo());
//! // Large tiles lined up along an edge, against the same tiles scattered.
//! let tidy = Board::from_values([
//!     256, 128, 64, 32, //
//!     0, 0, 0, 2, //
//!     0, 0, 0, 0, //
//!     0, 0, 0, 0, //
//! ])
//! .unwrap();
//! let scattered = Board::from_values([
//!     256, 0, 32, 0, //
//!     0, 2, 0, 64, //
//!     0, 0, 0, 0, //
//!     128, 0, 0, 0, //
//! ])
//! .unwrap();
//! assert!(h.eval(tidy) > h.eval(scattered));
//! // Weights are set by name; new weights need new tables.
//! let mut w = Weights::nneonneo();
//! w.set("empty", 2.0 * w.get("empty").unwrap()).expect("a weight name");
//! assert!(Heuristic::new(&w).eval(tidy) > h.eval(tidy));
//! ```

pub mod tables;
pub mod terms;
pub mod weights;

pub use tables::Heuristic;

use crate::engine::Board;

/// What a search asks of a board evaluation: the parametric [`Heuristic`]
/// or a learned [`Network`](crate::network::Network).
pub trait Evaluate: Sync {
    /// Whether a search may score the board of an illegal move too (and
    /// ignore it) rather than branch on legality: true where a score costs
    /// less than a mispredicted branch.
    const SCORE_ILLEGAL_MOVES: bool = false;

    /// Whether a search keeps the scores of the leaves it scored, to read
    /// back when a leaf comes again: true where a score costs far more than
    /// a look into a small table (a network's lookups miss the caches).
    const CACHE_LEAVES: bool = false;

    /// The score of `board`, an afterstate, given with its transpose (the
    /// heuristic reads columns as rows of it).
    fn eval_pair(&self, board: Board, transpose: Board) -> f32;

    /// The score of `board` read from `seen`, a board of the same shape
    /// standing in for it (its downgraded form): by default `seen`'s own.
    #[inline]
    fn eval_as(&self, _board: Board, seen: Board) -> f32 {
        self.eval_pair(seen, seen.transpose())
    }

    /// How much lower than its plain lost value a board with no legal move
    /// is worth in a search from `root` (never negative).
    fn dead_end_cost(&self, root: Board) -> f32;

    /// The scale that `prune_below` multiplies: the value of the largest
    /// tile of `board`.
    fn largest_tile_value(&self, board: Board) -> f32;

    /// Asks the caches for what scoring `board` (given with its transpose)
    /// will read, ahead of [`Evaluate::eval_pair`]: a search calls it for a
    /// node's children before scoring the first, so that their lookups are
    /// in flight together. The heuristic's tables fit the caches: nothing.
    #[inline(always)]
    fn prefetch_pair(&self, _board: Board, _transpose: Board) {}

    /// The scores of `board`'s four children (its afterstates, each given
    /// with its transpose, in [`crate::engine::Direction::ALL`] order), as
    /// [`Evaluate::eval_pair`] gives them; an illegal move's child (the board
    /// itself) may be scored or given 0, and is for the caller to ignore.
    /// Where scoring reads tables beyond the caches, every child's reads are
    /// fetched before the first is scored.
    #[inline(always)]
    fn eval_children(&self, board: Board, children: &[(Board, Board); 4]) -> [f32; 4] {
        let scored = children.map(|(next, _)| Self::SCORE_ILLEGAL_MOVES || next != board);
        for (&(next, next_t), scored) in children.iter().zip(scored) {
            if scored {
                self.prefetch_pair(next, next_t);
            }
        }
        std::array::from_fn(|k| {
            let (next, next_t) = children[k];
            if scored[k] {
                self.eval_pair(next, next_t)
            } else {
                0.0
            }
        })
    }

    /// The parametric heuristic, whose line tables the search's last chance
    /// layer reads directly (`None`: the layer scores whole boards).
    #[inline(always)]
    fn as_heuristic(&self) -> Option<&Heuristic> {
        None
    }
}

impl Evaluate for Heuristic {
    const SCORE_ILLEGAL_MOVES: bool = true;

    #[inline(always)]
    fn eval_pair(&self, board: Board, transpose: Board) -> f32 {
        Heuristic::eval_pair(self, board, transpose)
    }

    #[inline]
    fn dead_end_cost(&self, root: Board) -> f32 {
        Heuristic::dead_end_cost(self, root)
    }

    #[inline]
    fn largest_tile_value(&self, board: Board) -> f32 {
        Heuristic::largest_tile_value(self, board)
    }

    #[inline(always)]
    fn as_heuristic(&self) -> Option<&Heuristic> {
        Some(self)
    }
}

pub use weights::{Weights, WeightsError, PARAM_NAMES, TERMS};
