//! A planner for large targets: beam search over placements × moves.
//!
//! The player decides everything in this puzzle, so planning is
//! deterministic. Each turn, every state of the beam is expanded by every
//! empty cell and every move that changes the board; the children are
//! scored by a snake heuristic (see [`Scorer`]), duplicates are dropped and
//! the best `width` go on. All states of one turn have the same sum of tiles
//! (twice the turn number), so the score only has to judge their shape.
//!
//! If the beam dies out before the target, the search starts again with
//! twice the width, until the target is reached or time runs out.
//!
//! Paths are shared between states (a tree of reference-counted steps), so
//! memory grows with the number of turns, not turns × width.

use std::rc::Rc;
use std::time::Instant;

use super::exact::turns;
use super::rules::PlaceBoard;
use crate::engine::Direction;

/// One step of a path: the turn played and the path before it.
struct Step {
    cell: u8,
    dir: Direction,
    parent: Option<Rc<Step>>,
}

impl Drop for Step {
    /// Unlinks long chains one step at a time (a recursive drop of a path of
    /// a million steps would overflow the stack).
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut step) => next = step.parent.take(),
                Err(_) => break,
            }
        }
    }
}

/// The turns of a path, first to last.
fn unroll(path: &Option<Rc<Step>>) -> Vec<(usize, Direction)> {
    let mut out = Vec::new();
    let mut at = path.as_ref();
    while let Some(step) = at {
        out.push((step.cell as usize, step.dir));
        at = step.parent.as_ref();
    }
    out.reverse();
    out
}

/// Scores boards by how well their tiles lie along a snake.
///
/// The snake runs from the top left corner along the first row, back along
/// the second, and so on. The score adds each tile's value times `ρ^i` at
/// position `i` of the snake: the large tiles should sit at the head, in
/// decreasing order (swapping any two tiles out of order raises the score),
/// so that each can merge into its bigger neighbour as soon as it doubles.
pub struct Scorer {
    snake: Vec<usize>,
    weights: Vec<f64>,
}

impl Scorer {
    /// The scorer for `n`×`n` boards.
    pub fn new(n: usize) -> Scorer {
        let snake: Vec<usize> = (0..n)
            .flat_map(|r| {
                (0..n).map(move |k| {
                    let c = if r % 2 == 0 { k } else { n - 1 - k };
                    r * n + c
                })
            })
            .collect();
        const RHO: f64 = 0.25;
        let weights = (0..n * n).map(|i| RHO.powi(i as i32)).collect();
        Scorer { snake, weights }
    }

    /// The score of `b` (higher is better).
    pub fn score(&self, b: &PlaceBoard) -> f64 {
        let mut s = 0.0;
        for (&cell, &w) in self.snake.iter().zip(&self.weights) {
            let r = b.rank(cell);
            if r != 0 {
                s += w * f64::from(r).exp2();
            }
        }
        s
    }
}

/// A planning run's limits.
#[derive(Clone, Copy, Debug)]
pub struct PlanParams {
    /// The tile to reach, as a rank.
    pub target: u8,
    /// Width of the first attempt; each restart doubles it.
    pub width: usize,
    /// Stop when this instant passes.
    pub deadline: Option<Instant>,
    /// Breaks ties between equal scores.
    pub seed: u64,
}

/// What a planning run found.
pub struct Plan {
    /// Turns (row-major cell, move) of the first game that made the best tile.
    pub turns: Vec<(usize, Direction)>,
    /// The largest rank made.
    pub best_rank: u8,
    /// Whether the target was reached.
    pub reached: bool,
    /// Widths tried, the last one the one that reached the target (if any).
    pub widths: Vec<usize>,
    /// Boards expanded, over all attempts.
    pub expanded: u64,
}

struct Node {
    board: PlaceBoard,
    path: Option<Rc<Step>>,
}

/// A child of the beam before selection.
struct Candidate {
    score: f64,
    tie: u64,
    parent: u32,
    cell: u8,
    dir: Direction,
    board: PlaceBoard,
}

fn fingerprint(b: &PlaceBoard, seed: u64) -> u64 {
    let mut h = seed ^ 0xcbf2_9ce4_8422_2325;
    for &r in b.ranks() {
        h = (h ^ u64::from(r)).wrapping_mul(0x100_0000_01b3);
    }
    h ^ (h >> 31)
}

/// Plans a game on the empty `n`×`n` board toward `params.target`.
pub fn plan(n: usize, params: PlanParams) -> Plan {
    let scorer = Scorer::new(n);
    let mut out = Plan {
        turns: Vec::new(),
        best_rank: 0,
        reached: false,
        widths: Vec::new(),
        expanded: 0,
    };
    let mut width = params.width.max(1);
    loop {
        out.widths.push(width);
        match attempt(n, width, &scorer, &params, &mut out) {
            // A beam that never dropped a child searched every game.
            End::Deadline | End::Reached | End::DiedOut { truncated: false } => break,
            End::DiedOut { truncated: true } => width = width.saturating_mul(2),
        }
    }
    out
}

/// How an attempt ended.
enum End {
    Deadline,
    Reached,
    /// No turn was left; `truncated`: whether the beam ever dropped a child.
    DiedOut {
        truncated: bool,
    },
}

/// One beam search of width `width`.
fn attempt(n: usize, width: usize, scorer: &Scorer, params: &PlanParams, out: &mut Plan) -> End {
    let Some(empty) = PlaceBoard::empty(n) else {
        return End::DiedOut { truncated: false };
    };
    let mut truncated = false;
    let mut beam = vec![Node {
        board: empty,
        path: None,
    }];
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    loop {
        if params.deadline.is_some_and(|d| Instant::now() >= d) {
            return End::Deadline;
        }
        candidates.clear();
        for (parent, node) in beam.iter().enumerate() {
            out.expanded += 1;
            for (cell, dir, board) in turns(&node.board) {
                candidates.push(Candidate {
                    score: scorer.score(&board),
                    tie: fingerprint(&board, params.seed),
                    parent: parent as u32,
                    cell: cell as u8,
                    dir,
                    board,
                });
            }
        }
        if candidates.is_empty() {
            return End::DiedOut { truncated };
        }
        candidates.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.tie.cmp(&b.tie)));
        seen.clear();
        let mut next = Vec::with_capacity(width);
        for c in &candidates {
            if next.len() == width {
                truncated = true;
                break;
            }
            if !seen.insert(fingerprint(&c.board, 0)) {
                continue;
            }
            let path = Some(Rc::new(Step {
                cell: c.cell,
                dir: c.dir,
                parent: beam[c.parent as usize].path.clone(),
            }));
            let rank = c.board.max_rank();
            if rank > out.best_rank {
                out.best_rank = rank;
                out.turns = unroll(&path);
                if rank >= params.target {
                    out.reached = true;
                    return End::Reached;
                }
            }
            next.push(Node {
                board: c.board,
                path,
            });
        }
        beam = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::exact::Exact;
    use crate::place::transcript::{parse, replay, write};

    fn params(target: u8) -> PlanParams {
        PlanParams {
            target,
            width: 8,
            deadline: None,
            seed: 1,
        }
    }

    #[test]
    fn reaches_2048_on_4x4_with_a_legal_transcript() {
        let p = plan(4, params(11));
        assert!(p.reached);
        assert_eq!(p.best_rank, 11);
        let text = write(4, &p.turns, 2048);
        let r = replay(&parse(&text).unwrap(), 4, 2048).unwrap();
        assert_eq!(r.best, 2048);
        // Each turn adds 2: 2048 needs 1024 turns at least.
        assert!(p.turns.len() >= 1024);
    }

    #[test]
    fn matches_the_exact_maximum_on_2x2() {
        let e = Exact::search(2, None).unwrap();
        let p = plan(2, params(e.best_rank()));
        assert!(p.reached, "widths {:?}", p.widths);
    }

    #[test]
    fn the_snake_prefers_sorted_tiles() {
        let s = Scorer::new(3);
        let sorted = PlaceBoard::from_ranks(3, &[5, 4, 3, 0, 0, 1, 0, 0, 0]).unwrap();
        let swapped = PlaceBoard::from_ranks(3, &[4, 5, 3, 0, 0, 1, 0, 0, 0]).unwrap();
        assert!(s.score(&sorted) > s.score(&swapped));
    }
}
