//! A planner for large targets: beam search over placements × moves.
//!
//! The player decides everything in this puzzle, so planning is
//! deterministic. Each turn, every state of the beam is expanded by every
//! empty cell and every move that changes the board; the children are
//! scored by a snake heuristic (see [`SnakeScorer`]), duplicates are dropped and
//! the best `width` go on. All states of one turn have the same sum of tiles
//! (twice the turn number), so the score only has to judge their shape.
//!
//! If the beam dies out before the target, the search goes back to a saved
//! beam a few hundred turns earlier and goes on with a wider beam (see
//! [`plan`]), until the target is reached or time runs out.
//!
//! Paths are shared between states (a tree of reference-counted steps), so
//! memory grows with the number of turns, not turns × width.

use std::rc::Rc;
use std::time::Instant;

use super::exact::turns;
use super::rules::PlaceBoard;
use crate::engine::Direction;
use crate::fnv;

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
pub struct SnakeScorer {
    snake: Vec<usize>,
    weights: Vec<f64>,
    /// 2^r for every rank r a board can hold (0 for empty).
    values: [f64; 65],
}

impl SnakeScorer {
    /// The scorer for `n`×`n` boards.
    pub fn new(n: usize) -> SnakeScorer {
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
        let values = std::array::from_fn(|r| if r == 0 { 0.0 } else { (r as f64).exp2() });
        SnakeScorer {
            snake,
            weights,
            values,
        }
    }

    /// The score of `b` (higher is better).
    pub fn score(&self, b: &PlaceBoard) -> f64 {
        self.snake
            .iter()
            .zip(&self.weights)
            .map(|(&cell, &w)| w * self.values[b.rank(cell) as usize])
            .sum()
    }

    /// The score of `b` and a 64-bit fingerprint of it, seeded, in one pass.
    fn score_and_fingerprint(&self, b: &PlaceBoard, seed: u64) -> (f64, u64) {
        let mut s = 0.0;
        let mut h = seed ^ fnv::OFFSET_BASIS;
        for (&cell, &w) in self.snake.iter().zip(&self.weights) {
            let r = b.rank(cell);
            s += w * self.values[r as usize];
            h = fnv::step(h, u64::from(r));
        }
        (s, h ^ (h >> 31))
    }
}

/// A planning run's limits.
#[derive(Clone, Copy, Debug)]
pub struct PlanParams {
    /// The tile to reach, as a rank.
    pub target: u8,
    /// The beam's usual width.
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
    /// How often the beam died out and went back to a checkpoint.
    pub backtracks: u32,
    /// The widest beam used.
    pub max_width: usize,
    /// Boards expanded, backtracked work included.
    pub expanded: u64,
}

#[derive(Clone)]
struct Node {
    board: PlaceBoard,
    path: Option<Rc<Step>>,
}

/// A child of the beam before selection, small to sort: the board itself is
/// rebuilt only for the children that are kept.
struct Candidate {
    score: f64,
    /// The board's fingerprint: breaks ties, and tells duplicates apart.
    tie: u64,
    parent: u32,
    cell: u8,
    dir: Direction,
}

/// Turns between two saved beams.
const CHECKPOINT_EVERY: usize = 256;
/// Saved beams kept (the oldest is dropped first).
const CHECKPOINTS: usize = 64;
/// The widest beam the planner tries.
const MAX_WIDTH: usize = 1 << 16;

/// Plans a game on the empty `n`×`n` board toward `params.target`.
///
/// The beam is saved every `CHECKPOINT_EVERY` turns. When it dies out
/// (no state has a turn left), the search goes back k checkpoints with k
/// times doubled width, k counting the deaths since the last calm stretch;
/// once it is `CHECKPOINT_EVERY` turns past the turn it died at, the
/// width goes back to normal. A beam that died from the empty board without
/// ever dropping a child has searched every game: then the target is out
/// of reach.
pub fn plan(n: usize, params: PlanParams) -> Plan {
    let scorer = SnakeScorer::new(n);
    let base = params.width.clamp(1, MAX_WIDTH);
    let mut out = Plan {
        turns: Vec::new(),
        best_rank: 0,
        reached: false,
        backtracks: 0,
        max_width: base,
        expanded: 0,
    };
    let Some(empty) = PlaceBoard::empty(n) else {
        return out;
    };
    let root = (
        0,
        vec![Node {
            board: empty,
            path: None,
        }],
    );
    let mut checkpoints: Vec<(usize, Vec<Node>)> = Vec::new();
    let (mut turn, mut beam) = root.clone();
    let mut width = base;
    let mut deaths = 0u32;
    let mut calm_from = 0;
    // Whether the beam dropped a child since it last left the empty board.
    let mut truncated = false;
    let mut expander = Expander::default();
    loop {
        if params.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        match expander.step(&beam, width, &scorer, &params, &mut out) {
            Stepped::Reached => break,
            Stepped::Next {
                beam: next,
                dropped,
            } => {
                truncated |= dropped;
                beam = next;
                turn += 1;
                if turn % CHECKPOINT_EVERY == 0 {
                    if checkpoints.len() == CHECKPOINTS {
                        checkpoints.remove(0);
                    }
                    checkpoints.push((turn, beam.clone()));
                }
                if deaths > 0 && turn >= calm_from {
                    deaths = 0;
                    width = base;
                }
            }
            Stepped::DiedOut => {
                let from_root = checkpoints.is_empty();
                if (from_root && !truncated) || width >= MAX_WIDTH {
                    break;
                }
                out.backtracks += 1;
                deaths += 1;
                width = (width * 2).min(MAX_WIDTH);
                out.max_width = out.max_width.max(width);
                calm_from = turn + CHECKPOINT_EVERY;
                // Back k checkpoints: drop the k - 1 newest, resume from the next.
                let keep = checkpoints.len().saturating_sub(deaths as usize - 1);
                checkpoints.truncate(keep);
                (turn, beam) = match checkpoints.last() {
                    Some(saved) => saved.clone(),
                    None => {
                        truncated = false;
                        root.clone()
                    }
                };
            }
        }
    }
    out
}

/// How one turn of the beam went.
enum Stepped {
    Next { beam: Vec<Node>, dropped: bool },
    Reached,
    DiedOut,
}

/// The buffers of one turn's expansion, kept between turns.
#[derive(Default)]
struct Expander {
    candidates: Vec<Candidate>,
    seen: std::collections::HashSet<u64>,
}

impl Expander {
    /// Expands every state of `beam` and keeps the best `width` children.
    fn step(
        &mut self,
        beam: &[Node],
        width: usize,
        scorer: &SnakeScorer,
        params: &PlanParams,
        out: &mut Plan,
    ) -> Stepped {
        let candidates = &mut self.candidates;
        candidates.clear();
        for (parent, node) in beam.iter().enumerate() {
            out.expanded += 1;
            for (cell, dir, board) in turns(&node.board) {
                let (score, tie) = scorer.score_and_fingerprint(&board, params.seed);
                candidates.push(Candidate {
                    score,
                    tie,
                    parent: parent as u32,
                    cell: cell as u8,
                    dir,
                });
            }
        }
        if candidates.is_empty() {
            return Stepped::DiedOut;
        }
        let order =
            |a: &Candidate, b: &Candidate| b.score.total_cmp(&a.score).then(a.tie.cmp(&b.tie));
        // Sort only the best few times the width; the rest only when
        // duplicates among those leave the beam short.
        let head = (4 * width).min(candidates.len());
        if head < candidates.len() {
            candidates.select_nth_unstable_by(head, order);
        }
        candidates[..head].sort_unstable_by(order);
        self.seen.clear();
        let mut next = Vec::with_capacity(width);
        let mut dropped = false;
        for i in 0..candidates.len() {
            if i == head {
                candidates[head..].sort_unstable_by(order);
            }
            let c = &candidates[i];
            if next.len() == width {
                dropped = true;
                break;
            }
            if !self.seen.insert(c.tie) {
                continue;
            }
            let board = beam[c.parent as usize]
                .board
                .place_at(c.cell as usize)
                .slide(c.dir);
            let path = Some(Rc::new(Step {
                cell: c.cell,
                dir: c.dir,
                parent: beam[c.parent as usize].path.clone(),
            }));
            let rank = board.max_rank();
            if rank > out.best_rank {
                out.best_rank = rank;
                out.turns = unroll(&path);
                if rank >= params.target {
                    out.reached = true;
                    return Stepped::Reached;
                }
            }
            next.push(Node { board, path });
        }
        Stepped::Next {
            beam: next,
            dropped,
        }
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
    fn a_beam_that_dies_backs_up_wider_and_goes_on() {
        let p = plan(
            4,
            PlanParams {
                width: 1,
                ..params(11)
            },
        );
        assert!(p.reached);
        assert!(p.backtracks > 0 && p.max_width > 1, "{}", p.backtracks);
        let text = write(4, &p.turns, 2048);
        assert_eq!(replay(&parse(&text).unwrap(), 4, 2048).unwrap().best, 2048);
    }

    #[test]
    fn matches_the_exact_maximum_on_2x2() {
        let e = Exact::search(2, None).unwrap();
        let p = plan(2, params(e.best_rank()));
        assert!(p.reached, "{} backtracks", p.backtracks);
    }

    #[test]
    fn the_snake_prefers_sorted_tiles() {
        let s = SnakeScorer::new(3);
        let sorted = PlaceBoard::from_ranks(3, &[5, 4, 3, 0, 0, 1, 0, 0, 0]).unwrap();
        let swapped = PlaceBoard::from_ranks(3, &[4, 5, 3, 0, 0, 1, 0, 0, 0]).unwrap();
        assert!(s.score(&sorted) > s.score(&swapped));
    }
}
