//! Expectimax: max nodes try the four moves, chance nodes average over every
//! empty cell × tile value, leaves are scored by the heuristic.

use std::time::{Duration, Instant};

use super::tt::Table;
use super::{Depth, SearchParams};
use crate::engine::tables::{MoveTables, TABLES};
use crate::engine::{Board, Direction, Policy};
use crate::heuristic::Heuristic;

/// Counters of the work a searcher has done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Moves tried (each shift of a board in one direction).
    pub moves: u64,
    /// Boards scored by the heuristic.
    pub evals: u64,
    /// Chance nodes answered by the transposition table.
    pub tt_hits: u64,
    /// Decisions made.
    pub decisions: u64,
}

/// The chosen move and its expected value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub dir: Direction,
    pub value: f32,
    /// The depth limit the decision was searched to.
    pub depth: u32,
}

/// A search context: one per thread, reused across moves and games.
pub struct Searcher {
    table: Table,
    pub stats: SearchStats,
}

const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111_1111;

/// One bit (the low bit of the nibble) per empty cell.
#[inline]
fn empty_bits(board: Board) -> u64 {
    let mut x = board.0;
    x |= x >> 2;
    x |= x >> 1;
    !x & NIBBLE_LOW_BITS
}

struct Node<'a> {
    t: &'a MoveTables,
    h: &'a Heuristic,
    table: &'a mut Table,
    stats: SearchStats,
    limit: u32,
    cutoff: f32,
    p2: f32,
    p4: f32,
}

/// The transpose's bit for the board's cell bit `bit` (the low bit of cell i
/// at 4·i): cell 4·r + c of the board is cell 4·c + r of its transpose.
#[inline(always)]
fn transposed_bit(bit: u64) -> u64 {
    let i = bit.trailing_zeros() >> 2;
    1u64 << (((i & 3) << 4) | ((i >> 2) << 2))
}

impl Node<'_> {
    /// A chance node: `board` after a move, given with its transpose.
    fn chance(&mut self, board: Board, trans: Board, cprob: f32, depth: u32) -> f32 {
        if depth >= self.limit || cprob < self.cutoff {
            self.stats.evals += 1;
            return self.h.eval_pair(board, trans);
        }
        let remaining = (self.limit - depth) as u8;
        if let Some(v) = self.table.get(board.0, remaining) {
            self.stats.tt_hits += 1;
            return v;
        }
        let mut cells = empty_bits(board);
        let n = cells.count_ones();
        if n == 0 {
            self.stats.evals += 1;
            return self.h.eval_pair(board, trans);
        }
        let cprob = cprob / n as f32;
        let mut total = 0.0f32;
        if remaining == 1 {
            // The last chance layer: every child is a max node over leaves.
            while cells != 0 {
                let two = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let t_two = transposed_bit(two);
                total += self.p2 * self.leaves(Board(board.0 | two), Board(trans.0 | t_two));
                if self.p4 > 0.0 {
                    total += self.p4
                        * self.leaves(Board(board.0 | two << 1), Board(trans.0 | t_two << 1));
                }
            }
            let value = total / n as f32;
            self.table.put(board.0, remaining, value);
            return value;
        }
        while cells != 0 {
            let two = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let t_two = transposed_bit(two);
            total += self.p2
                * self.max(
                    Board(board.0 | two),
                    Board(trans.0 | t_two),
                    cprob * self.p2,
                    depth,
                );
            if self.p4 > 0.0 {
                total += self.p4
                    * self.max(
                        Board(board.0 | two << 1),
                        Board(trans.0 | t_two << 1),
                        cprob * self.p4,
                        depth,
                    );
            }
        }
        let value = total / n as f32;
        self.table.put(board.0, remaining, value);
        value
    }

    /// A max node whose children are all leaves, without a branch on
    /// legality (a mispredicted one cost more than the spare evaluation):
    /// every child is scored and an illegal one (the board itself) counts
    /// as +0, the value the maximum starts from, so the result is the same.
    #[inline(always)]
    fn leaves(&mut self, board: Board, trans: Board) -> f32 {
        let mut best = 0.0f32;
        let mut legal = 0u64;
        for (next, next_t) in board.shifts_pair(trans, self.t) {
            let ok = next != board;
            legal += u64::from(ok);
            let mask = (-i32::from(ok)) as u32;
            let value = f32::from_bits(self.h.eval_pair(next, next_t).to_bits() & mask);
            best = if value > best { value } else { best };
        }
        self.stats.moves += 4;
        self.stats.evals += legal;
        best
    }

    /// A max node: `board` (with its transpose) after a tile was placed.
    fn max(&mut self, board: Board, trans: Board, cprob: f32, depth: u32) -> f32 {
        if depth + 1 >= self.limit || cprob < self.cutoff {
            return self.leaves(board, trans);
        }
        let mut best = 0.0f32;
        self.stats.moves += 4;
        for (next, next_t) in board.shifts_pair(trans, self.t) {
            if next == board {
                continue;
            }
            let value = self.chance(next, next_t, cprob, depth + 1);
            best = best.max(value);
        }
        best
    }
}

impl Searcher {
    /// A searcher with a transposition table of 2^`tt_bits` entries.
    pub fn new(tt_bits: u32) -> Searcher {
        Searcher {
            table: Table::new(tt_bits),
            stats: SearchStats::default(),
        }
    }

    /// log2 of the transposition table's entries.
    pub fn table_bits(&self) -> u32 {
        self.table.bits()
    }

    /// The best move on `board` searched to `limit` chance layers, or `None`
    /// when no move is legal.
    pub fn decide_to(
        &mut self,
        h: &Heuristic,
        board: Board,
        params: &SearchParams,
        limit: u32,
    ) -> Option<Decision> {
        self.table.new_epoch();
        let mut node = Node {
            t: &TABLES,
            h,
            table: &mut self.table,
            stats: SearchStats::default(),
            limit,
            cutoff: params.prob_cutoff,
            p2: 1.0 - params.p4,
            p4: params.p4,
        };
        let mut best: Option<Decision> = None;
        let moved = board.shifts_pair(board.transpose(), &TABLES);
        for (dir, (next, next_t)) in Direction::ALL.into_iter().zip(moved) {
            node.stats.moves += 1;
            if next == board {
                continue;
            }
            let value = node.chance(next, next_t, 1.0, 0);
            if best.is_none_or(|b| value > b.value) {
                best = Some(Decision {
                    dir,
                    value,
                    depth: limit,
                });
            }
        }
        let s = node.stats;
        self.stats.moves += s.moves;
        self.stats.evals += s.evals;
        self.stats.tt_hits += s.tt_hits;
        self.stats.decisions += 1;
        best
    }

    /// The best move on `board` at the depth `params` asks for.
    pub fn decide(
        &mut self,
        h: &Heuristic,
        board: Board,
        params: &SearchParams,
    ) -> Option<Decision> {
        self.decide_to(h, board, params, params.depth.limit(board))
    }

    /// Iterative deepening within a time budget: searches depth 0, 1, … and
    /// keeps the deepest finished answer, starting a deeper search only when
    /// its predicted time fits the budget. `params.depth` caps the depth
    /// (`Auto` caps it at the reference rule's depth + 2).
    pub fn decide_timed(
        &mut self,
        h: &Heuristic,
        board: Board,
        params: &SearchParams,
        budget: Duration,
    ) -> Option<Decision> {
        let start = Instant::now();
        let cap = match params.depth {
            Depth::Fixed(d) => d,
            Depth::Auto => Depth::Auto.limit(board) + 2,
        };
        let mut best = self.decide_to(h, board, params, 0)?;
        let mut last = start.elapsed();
        let mut growth = 8.0f64;
        for limit in 1..=cap {
            let elapsed = start.elapsed();
            if elapsed + last.mul_f64(growth) > budget {
                break;
            }
            let t = Instant::now();
            best = self.decide_to(h, board, params, limit)?;
            let took = t.elapsed();
            if last > Duration::from_micros(20) {
                growth = (took.as_secs_f64() / last.as_secs_f64()).clamp(2.0, 64.0);
            }
            last = took;
        }
        Some(best)
    }
}

/// A [`Policy`] that searches every move.
pub struct SearchPolicy<'a> {
    pub searcher: &'a mut Searcher,
    pub heuristic: &'a Heuristic,
    pub params: SearchParams,
    /// Per-move time budget for iterative deepening (`None`: fixed depth).
    pub budget: Option<Duration>,
}

impl Policy for SearchPolicy<'_> {
    fn choose(&mut self, board: Board) -> Direction {
        let decision = match self.budget {
            Some(budget) => self
                .searcher
                .decide_timed(self.heuristic, board, &self.params, budget),
            None => self.searcher.decide(self.heuristic, board, &self.params),
        };
        // The game loop asks only when a move is legal, so a decision exists.
        decision.map_or(Direction::Up, |d| d.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;
    use crate::heuristic::Weights;

    fn params(depth: u32) -> SearchParams {
        SearchParams::new(Depth::Fixed(depth), Variant::CLASSIC)
    }

    /// Expectimax written plainly, without tables, cutoff-free, for small depths.
    fn reference(h: &Heuristic, board: Board, depth: u32, p4: f64) -> f64 {
        let chance = |b: Board| -> f64 {
            let empties: Vec<usize> = (0..16).filter(|&i| b.rank(i) == 0).collect();
            let mut total = 0.0;
            for &cell in &empties {
                for (rank, p) in [(1u8, 1.0 - p4), (2, p4)] {
                    if p > 0.0 {
                        total += p * reference(h, b.place(cell, rank).unwrap(), depth - 1, p4);
                    }
                }
            }
            total / empties.len() as f64
        };
        let mut best = 0.0f64;
        for dir in Direction::ALL {
            if let Some(m) = board.make_move(dir) {
                let v = if depth == 0 {
                    f64::from(h.eval(m.board))
                } else {
                    chance(m.board)
                };
                best = best.max(v);
            }
        }
        best
    }

    #[test]
    fn values_match_a_plain_expectimax() {
        let h = Heuristic::new(&Weights::nneonneo());
        let board = Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap();
        let mut s = Searcher::new(12);
        for depth in 0..=2 {
            let mut p = params(depth);
            p.prob_cutoff = 0.0;
            let d = s.decide(&h, board, &p).unwrap();
            let expect = reference(&h, board, depth, 0.1);
            assert!(
                (f64::from(d.value) - expect).abs() < 1e-4 * expect,
                "depth {depth}: {} vs {expect}",
                d.value
            );
        }
    }

    #[test]
    fn no_legal_move_no_decision() {
        let full = Board::from_values([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]).unwrap();
        let h = Heuristic::new(&Weights::nneonneo());
        assert_eq!(Searcher::new(8).decide(&h, full, &params(2)), None);
    }

    #[test]
    fn the_table_does_not_change_decisions_between_runs() {
        let h = Heuristic::new(&Weights::nneonneo());
        let board =
            Board::from_values([0, 0, 2, 4, 0, 2, 8, 16, 0, 0, 4, 64, 2, 8, 32, 128]).unwrap();
        let mut s = Searcher::new(14);
        let first = s.decide(&h, board, &params(3)).unwrap();
        for _ in 0..3 {
            assert_eq!(s.decide(&h, board, &params(3)).unwrap(), first);
        }
        assert_eq!(
            Searcher::new(10).decide(&h, board, &params(2)),
            Searcher::new(16).decide(&h, board, &params(2))
        );
    }

    #[test]
    fn auto_depth_follows_the_reference_rule() {
        let few = Board::from_values([2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        assert_eq!(Depth::Auto.limit(few), 3);
        let many = Board::from_ranks([1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(Depth::Auto.limit(many), 5);
    }
}
