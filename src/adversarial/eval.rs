//! The defender's evaluations. Higher is better for the defender; the
//! attacker minimises the same number. The defender's score so far is part
//! of the position and enters every evaluation as 1000 × score.

use crate::engine::Board;
use crate::heuristic::Heuristic;

/// Weight of the defender's score in every evaluation.
pub const SCORE_WEIGHT: f64 = 1000.0;

/// Taken off the evaluation of a finished game (the defender cannot move):
/// a dead end is worse for the defender than any live position, since it
/// ends the stream of points. Among dead ends the lower score is still worse.
pub const DEAD_END: f64 = 1e12;

/// Corner cells, row-major.
const CORNERS: [usize; 4] = [0, 3, 12, 15];
/// Edge cells that are not corners.
const EDGES: [usize; 8] = [1, 2, 4, 7, 8, 11, 13, 14];

/// An evaluation of positions for the defender.
#[derive(Clone)]
pub enum Eval {
    /// 1000 × score only.
    Score,
    /// 1000 × score + 10 × rank on each corner + 5 × rank on each other edge
    /// cell (rank: log2 of the tile).
    Edges,
    /// 1000 × score − Σ |rank difference| over pairs of orthogonal
    /// neighbours that are both occupied.
    Smooth,
    /// 1000 × score + the parametric heuristic of a weights file.
    Heuristic(Box<Heuristic>),
}

impl Eval {
    /// The value of a position where the game goes on.
    #[inline]
    pub fn live(&self, board: Board, score: u64) -> f64 {
        let base = SCORE_WEIGHT * score as f64;
        match self {
            Eval::Score => base,
            Eval::Edges => base + edge_bonus(board),
            Eval::Smooth => base - roughness(board),
            Eval::Heuristic(h) => base + f64::from(h.eval(board)),
        }
    }

    /// The value of a position; `over` says the defender cannot move.
    #[inline]
    pub fn value(&self, board: Board, score: u64, over: bool) -> f64 {
        if over {
            self.live(board, score) - DEAD_END
        } else {
            self.live(board, score)
        }
    }
}

/// 10 × the ranks on the corners + 5 × the ranks on the other edge cells.
pub fn edge_bonus(board: Board) -> f64 {
    let corners: u32 = CORNERS.iter().map(|&i| u32::from(board.rank(i))).sum();
    let edges: u32 = EDGES.iter().map(|&i| u32::from(board.rank(i))).sum();
    f64::from(10 * corners + 5 * edges)
}

/// Σ |rank difference| over orthogonal neighbours that are both occupied.
pub fn roughness(board: Board) -> f64 {
    let r = board.ranks();
    let mut sum = 0u32;
    for row in 0..4 {
        for col in 0..4 {
            let i = 4 * row + col;
            if r[i] == 0 {
                continue;
            }
            if col < 3 && r[i + 1] != 0 {
                sum += u32::from(r[i].abs_diff(r[i + 1]));
            }
            if row < 3 && r[i + 4] != 0 {
                sum += u32::from(r[i].abs_diff(r[i + 4]));
            }
        }
    }
    f64::from(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terms_by_hand() {
        // A 1024 (rank 10) in a corner, a 4 beside it, an 8 in the middle.
        let b = Board::from_ranks([10, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(edge_bonus(b), 10.0 * 10.0 + 5.0 * 2.0);
        // Neighbour pairs: (10, 2) across, (2, 3) down; the others touch empties.
        assert_eq!(roughness(b), 8.0 + 1.0);
        assert_eq!(Eval::Edges.live(b, 7), 7000.0 + 110.0);
        assert_eq!(Eval::Smooth.live(b, 7), 7000.0 - 9.0);
        assert_eq!(Eval::Score.live(b, 7), 7000.0);
        assert!(Eval::Score.value(b, 7, true) < Eval::Score.value(b, 0, false));
    }
}
