//! Expectimax: max nodes try the four moves, chance nodes average over every
//! empty cell × tile value, leaves are scored by the heuristic.

use std::time::{Duration, Instant};

mod last_layer;

use super::leaf_cache::{LeafCache, LEAF_CACHE_BITS};
use super::stats::{SearchStats, DEPTH_SLOTS};
use super::tt::Table;
use super::{downgraded, Budget, Depth, NodeClock, SearchParams, Settings};
use crate::engine::tables::{MoveTables, TABLES};
use crate::engine::{Board, Direction, Policy};
use crate::heuristic::{Evaluate, Heuristic};

/// The chosen move and its expected value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub dir: Direction,
    pub value: f32,
    /// The depth limit the decision was searched to.
    pub depth: u32,
}

/// With `Depth::Auto`, timed search may go this many layers past the
/// reference rule's depth when the budget allows.
const TIMED_AUTO_EXTRA_DEPTH: u32 = 2;

/// Timed search predicts a depth's time as the previous depth's time times a
/// growth factor, measured from the last two depths searched; this is the
/// factor assumed before any was measured.
const FIRST_GROWTH: f64 = 8.0;
/// Measured growth is clamped to this range, so one odd timing does not
/// stop or unleash the deepening.
const MIN_GROWTH: f64 = 2.0;
/// See [`MIN_GROWTH`].
const MAX_GROWTH: f64 = 64.0;
/// Searches faster than this are too short to time reliably and leave the
/// growth factor as it was.
const MIN_TIMED_SEARCH: Duration = Duration::from_micros(20);

/// A search context: one per thread, reused across moves and games.
pub struct Searcher {
    table: Table,
    leaves: LeafCache,
    pub stats: SearchStats,
}

/// One search's state; `STOPPABLE` searches may be given up at their
/// [`Stop`], the others never look at it (the hot path stays as it was).
struct Node<'a, E: Evaluate, const STOPPABLE: bool> {
    t: &'a MoveTables,
    h: &'a E,
    table: &'a mut Table,
    /// Leaf scores, where the evaluation asks for them to be kept
    /// ([`Evaluate::CACHE_LEAVES`]).
    leaves: &'a mut LeafCache,
    stats: SearchStats,
    limit: u32,
    cutoff: f32,
    /// Chance nodes below the root's moves scoring under this are leaves
    /// (−∞: no pruning).
    prune: f32,
    p2: f32,
    p4: f32,
    /// The value of a board with no legal move (see [`lost_value`]).
    lost: f32,
    /// The lowest heuristic score of any board scored so far.
    lowest_leaf: f32,
    /// Boards with no legal move reached, plus table hits on values such a
    /// board went into: a node's value depends on the lost value exactly
    /// when this count grew while it was searched.
    lost_marks: u32,
    /// When to give the search up (see [`Stop`]).
    stop: Stop,
    /// Leaves whose largest tile has at least this rank are scored by
    /// their downgraded form (0: never).
    leaf_down: u8,
}

/// How often, in moves tried, an abandonable search under a deadline looks
/// at the clock (some 10 µs of search: the look costs far less).
const CLOCK_CHECK_MOVES: u64 = 2048;

/// When a search is abandoned: after `moves` moves tried or at `deadline`.
/// A search that may be abandoned compares its moves tried with `check_at`
/// at every max node, and looks further only once they reach it; a search
/// that cannot be runs a copy of the search without the check
/// (`STOPPABLE` false), given `Stop::NEVER`.
#[derive(Clone, Copy, Debug)]
struct Stop {
    moves: u64,
    deadline: Option<Instant>,
    check_at: u64,
    hit: bool,
}

impl Stop {
    /// A search that runs to its end.
    const NEVER: Stop = Stop {
        moves: u64::MAX,
        deadline: None,
        check_at: u64::MAX,
        hit: false,
    };

    fn after_moves(moves: u64) -> Stop {
        Stop {
            moves,
            check_at: moves,
            ..Stop::NEVER
        }
    }

    fn at(deadline: Instant) -> Stop {
        Stop {
            deadline: Some(deadline),
            check_at: CLOCK_CHECK_MOVES,
            ..Stop::NEVER
        }
    }

    /// The stop for a search after one that tried `moves` (they count
    /// against its moves).
    fn less(self, moves: u64) -> Stop {
        Stop {
            moves: self.moves.saturating_sub(moves),
            check_at: self.check_at.saturating_sub(moves),
            ..self
        }
    }

    /// Whether the search, having tried `moves`, is to be given up; once
    /// it is, every later look says so at once.
    #[cold]
    fn now(&mut self, moves: u64) -> bool {
        if !self.hit {
            self.hit = moves >= self.moves || self.deadline.is_some_and(|d| Instant::now() >= d);
            self.check_at = if self.hit {
                0
            } else {
                moves.saturating_add(CLOCK_CHECK_MOVES).min(self.moves)
            };
        }
        self.hit
    }
}

/// A search given up before its end: its values are not to be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Abandoned;

/// The value of a board with no legal move, given the lowest heuristic score
/// `lowest` of the live boards a decision's search scored.
///
/// A lost board must rank below every live one whatever the weights. The
/// reference heuristic scores a lost board 0 and relies on its lost penalty
/// (added once per line) to lift every live board above 0; when the search saw
/// only such boards, 0 it is, and decisions are the reference's. Otherwise
/// (a small or zero lost penalty, negative terms) a lost board scores
/// `2 × lowest − 1`, strictly below the lowest live score.
fn lost_value(lowest: f32) -> f32 {
    if lowest > 0.0 {
        0.0
    } else {
        2.0 * lowest - 1.0
    }
}

/// The transpose's bit for the board's cell bit `bit` (the low bit of cell i
/// at 4·i): cell 4·r + c of the board is cell 4·c + r of its transpose.
#[inline(always)]
fn transposed_bit(bit: u64) -> u64 {
    let i = bit.trailing_zeros() >> 2;
    1u64 << (((i & 3) << 4) | ((i >> 2) << 2))
}

/// Whether a child of `board` may hold a tile of rank `at` or more (`at` =
/// 0: never asked): a move raises the largest tile by one rank at most.
#[inline(always)]
fn children_may_reach(board: Board, at: u8) -> bool {
    at != 0 && board.max_rank() + 1 >= at
}

/// Rescores each legal child of `board` whose largest tile has at least
/// rank `at` by its downgraded form.
#[cold]
fn rescore_downgraded<E: Evaluate>(
    h: &E,
    board: Board,
    children: &[(Board, Board); 4],
    scores: &mut [f32; 4],
    at: u8,
) {
    for (k, &(next, _)) in children.iter().enumerate() {
        if next != board && next.max_rank() >= at {
            scores[k] = h.eval_as(next, downgraded(next, at));
        }
    }
}

/// `value` where `keep`, else `other`, without a branch.
#[inline(always)]
fn select(keep: bool, value: f32, other: f32) -> f32 {
    let mask = (-i32::from(keep)) as u32;
    f32::from_bits((value.to_bits() & mask) | (other.to_bits() & !mask))
}

impl<E: Evaluate, const STOPPABLE: bool> Node<'_, E, STOPPABLE> {
    /// The heuristic score of a board (given with its transpose) at the horizon.
    #[inline]
    fn leaf(&mut self, board: Board, trans: Board) -> f32 {
        self.stats.evals += 1;
        let value = if self.leaf_down != 0 && board.max_rank() >= self.leaf_down {
            self.h.eval_as(board, downgraded(board, self.leaf_down))
        } else {
            self.h.eval_pair(board, trans)
        };
        self.lowest_leaf = self.lowest_leaf.min(value);
        value
    }

    /// A chance node: `board` after a move, given with its transpose.
    fn chance(&mut self, board: Board, trans: Board, cprob: f32, depth: u32) -> f32 {
        if depth >= self.limit || cprob < self.cutoff {
            return self.leaf(board, trans);
        }
        if depth > 0 && self.prune > f32::NEG_INFINITY {
            let value = self.leaf(board, trans);
            if value < self.prune {
                return value;
            }
        }
        let remaining = (self.limit - depth) as u8;
        if let Some((v, lost)) = self.table.get(board.0, remaining) {
            self.stats.tt_hits += 1;
            self.lost_marks += u32::from(lost);
            return v;
        }
        let marks = self.lost_marks;
        let mut cells = board.empty_bits();
        let n = cells.count_ones();
        if n == 0 {
            // Unreachable from a move (a move always leaves an empty cell).
            return self.leaf(board, trans);
        }
        let cprob = cprob / n as f32;
        let mut total = 0.0f32;
        if remaining == 1 {
            // The last chance layer: every child is a max node over leaves.
            let value = self.last_chance(board.0, trans.0) / n as f32;
            let lost = self.lost_marks != marks;
            self.table.put(board.0, remaining, value, lost);
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
        let lost = self.lost_marks != marks;
        self.table.put(board.0, remaining, value, lost);
        value
    }

    /// A max node whose children are all leaves, without a branch on
    /// legality (a mispredicted one cost more than the spare evaluation):
    /// every child is scored, and an illegal one (the board itself) neither
    /// raises the best nor lowers the lowest score seen.
    #[inline(always)]
    fn leaves(&mut self, board: Board, trans: Board) -> f32 {
        let moved = board.shifts_pair(trans, self.t);
        let scores = if E::CACHE_LEAVES {
            self.cached_scores(board, &moved)
        } else {
            self.scores(board, &moved)
        };
        self.best_of(std::array::from_fn(|k| (moved[k].0 != board, scores[k])))
    }

    /// The scores of `board`'s children `moved`, as leaves.
    #[inline(always)]
    fn scores(&self, board: Board, moved: &[(Board, Board); 4]) -> [f32; 4] {
        let mut scores = self.h.eval_children(board, moved);
        if children_may_reach(board, self.leaf_down) {
            rescore_downgraded(self.h, board, moved, &mut scores, self.leaf_down);
        }
        scores
    }

    /// [`Node::scores`], each legal child's read back from the leaf cache
    /// where it was scored before in this search, the others scored
    /// together (an illegal child, or one read back, is passed on as the
    /// board itself, which [`Evaluate::eval_children`] does not score) and
    /// kept.
    #[inline(always)]
    fn cached_scores(&mut self, board: Board, moved: &[(Board, Board); 4]) -> [f32; 4] {
        let mut kept = [None; 4];
        let mut asked = *moved;
        let mut misses = 0;
        for (k, &(next, _)) in moved.iter().enumerate() {
            if next == board {
                continue;
            }
            kept[k] = self.leaves.get(next.0);
            if kept[k].is_some() {
                asked[k] = (board, board);
            } else {
                misses += 1;
            }
        }
        self.stats.leaf_hits += kept.iter().flatten().count() as u64;
        let scored = if misses > 0 {
            self.scores(board, &asked)
        } else {
            [0.0; 4]
        };
        std::array::from_fn(|k| {
            kept[k].unwrap_or_else(|| {
                let (next, _) = asked[k];
                if next != board {
                    self.leaves.put(next.0, scored[k]);
                }
                scored[k]
            })
        })
    }

    /// A max node: `board` (with its transpose) after a tile was placed; the
    /// best value of a move, or the lost value when no move is legal.
    fn max(&mut self, board: Board, trans: Board, cprob: f32, depth: u32) -> f32 {
        if depth + 1 >= self.limit || cprob < self.cutoff {
            return self.leaves(board, trans);
        }
        let mut best: Option<f32> = None;
        self.stats.moves += 4;
        if STOPPABLE && self.stats.moves >= self.stop.check_at && self.stop.now(self.stats.moves) {
            // Given up: the value is thrown away with the whole search.
            return self.lost;
        }
        let children = board.shifts_pair(trans, self.t);
        // Each child's table entry is read first thing: fetch them all now,
        // so that the later children's are in the cache when their turn
        // comes (the table outgrows the caches at depth 3: this was ~20% of
        // the time there).
        for (next, _) in children {
            self.table.prefetch(next.0);
        }
        for (next, next_t) in children {
            if next == board {
                continue;
            }
            let value = self.chance(next, next_t, cprob, depth + 1);
            best = Some(best.map_or(value, |b| b.max(value)));
        }
        best.unwrap_or_else(|| {
            self.lost_marks += 1;
            self.lost
        })
    }
}

/// One search from the root: each move's value, and what it saw of lost
/// boards.
struct RootSearch {
    /// Each move's value, in [`Direction::ALL`] order (`None`: illegal).
    values: [Option<f32>; 4],
    /// Whether a board with no legal move went into each move's value.
    lost_in: [bool; 4],
    /// The lowest heuristic score of the boards it scored.
    lowest_leaf: f32,
    /// Whether it was given up before its end.
    abandoned: bool,
    /// Moves it tried.
    moves: u64,
}

impl RootSearch {
    /// Whether the search reached a board with no legal move.
    fn saw_lost(&self) -> bool {
        self.lost_in.contains(&true)
    }
}

/// Whether a search again, having searched the moves before `next` into
/// `values` (the later ones still hold `first`'s values), can stop: the
/// root's pick among these values is a move whose value is final, one
/// searched again or one no lost board went into (see
/// [`Searcher::search_root`]).
fn settled(first: &RootSearch, values: &[Option<f32>; 4], next: usize) -> bool {
    pick(values).is_some_and(|(k, _)| k < next || !first.lost_in[k])
}

/// The move the root plays given each move's value, and that value: the
/// first legal move, replaced only by a later one of strictly higher value.
fn pick(values: &[Option<f32>; 4]) -> Option<(usize, f32)> {
    let mut best: Option<(usize, f32)> = None;
    for (k, value) in values.iter().enumerate() {
        if let Some(v) = *value {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((k, v));
            }
        }
    }
    best
}

impl Searcher {
    /// A searcher with a transposition table of 2^`tt_bits` entries.
    pub fn new(tt_bits: u32) -> Searcher {
        Searcher {
            table: Table::new(tt_bits),
            leaves: LeafCache::new(LEAF_CACHE_BITS),
            stats: SearchStats::default(),
        }
    }

    /// log2 of the transposition table's entries.
    pub fn table_bits(&self) -> u32 {
        self.table.bits()
    }

    /// The best move on `board` searched to `limit` chance layers, or `None`
    /// when no move is legal.
    pub fn decide_to<E: Evaluate>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
        limit: u32,
    ) -> Option<Decision> {
        self.decide_or_stop::<E, false>(h, board, params, limit, Stop::NEVER)
            .unwrap_or_else(|Abandoned| unreachable!("a search without a stop runs to its end"))
    }

    /// [`Searcher::decide_to`], given up at `stop` when `STOPPABLE` (the
    /// search without it never looks at `stop`).
    fn decide_or_stop<E: Evaluate, const STOPPABLE: bool>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
        limit: u32,
        stop: Stop,
    ) -> Result<Option<Decision>, Abandoned> {
        let board = downgraded(board, params.downgrade_at);
        if limit == 0 {
            let values = self.greedy_values(h, board, params.leaf_downgrade_at);
            self.stats.decisions += 1;
            return Ok(pick(&values).map(|(k, value)| Decision {
                dir: Direction::ALL[k],
                value,
                depth: 0,
            }));
        }
        // First with lost boards at 0, the reference's value. If that search
        // also scored a live board at or below 0, a lost board could have
        // outranked it: search again with a lost value below every score the
        // first search saw, and lower still by the heuristic's dead-end cost.
        // The tree, and so the set of boards scored, does not depend on the
        // values, so the second search scores the same boards.
        let first = self.search_root::<E, STOPPABLE>(h, board, params, limit, None, stop);
        if first.abandoned {
            return Err(Abandoned);
        }
        let lost = lost_value(first.lowest_leaf) - h.dead_end_cost(board);
        let values = if first.saw_lost() && lost != 0.0 {
            let stop = stop.less(first.moves);
            let again = self.search_root::<E, STOPPABLE>(
                h,
                board,
                params,
                limit,
                Some((lost, &first)),
                stop,
            );
            if again.abandoned {
                return Err(Abandoned);
            }
            again.values
        } else {
            first.values
        };
        self.stats.decisions += 1;
        Ok(pick(&values).map(|(k, value)| Decision {
            dir: Direction::ALL[k],
            value,
            depth: limit,
        }))
    }

    /// Every move's value at limit 0, without the search's frame: each legal
    /// move's afterstate scored by the heuristic. No board there is lost,
    /// so one search gives these values, counted the same way.
    fn greedy_values<E: Evaluate>(
        &mut self,
        h: &E,
        board: Board,
        leaf_down: u8,
    ) -> [Option<f32>; 4] {
        let moved = board.shifts_pair(board.transpose(), &TABLES);
        let mut scores = h.eval_children(board, &moved);
        if children_may_reach(board, leaf_down) {
            rescore_downgraded(h, board, &moved, &mut scores, leaf_down);
        }
        self.stats.moves += 4;
        std::array::from_fn(|k| {
            let legal = moved[k].0 != board;
            self.stats.evals += u64::from(legal);
            legal.then_some(scores[k])
        })
    }

    /// One search of every move at the root, with lost boards valued 0, or,
    /// searching `again` = (`lost`, `first`), valued `lost`, given up at `stop`;
    /// `limit` ≥ 1 (limit 0 is [`Searcher::greedy_values`]).
    ///
    /// A search again (`first` is the search with lost boards at 0) stops as
    /// soon as the moves not yet searched cannot change the pick. A lower
    /// lost value can only lower a value (every operation of the search is
    /// monotone, rounding included), and leaves a move's value bit for bit
    /// as it was when no lost board went into it (the tree is the same,
    /// table hits included, since the moves before were searched the same
    /// way). So the first search's values bound the moves not yet searched
    /// again, exactly so for those without lost boards: if the root's pick
    /// among those values is a known one, no later search can beat it.
    fn search_root<E: Evaluate, const STOPPABLE: bool>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
        limit: u32,
        again: Option<(f32, &RootSearch)>,
        stop: Stop,
    ) -> RootSearch {
        let (lost, first) = again.map_or((0.0, None), |(lost, first)| (lost, Some(first)));
        self.table.new_epoch();
        if E::CACHE_LEAVES {
            self.leaves.new_epoch();
        }
        let mut node = Node::<E, STOPPABLE> {
            t: &TABLES,
            h,
            table: &mut self.table,
            leaves: &mut self.leaves,
            stats: SearchStats::default(),
            limit,
            cutoff: params.prob_cutoff,
            prune: if params.prune_below > 0.0 {
                params.prune_below * h.largest_tile_value(board)
            } else {
                f32::NEG_INFINITY
            },
            p2: 1.0 - params.p4,
            p4: params.p4,
            lost,
            lowest_leaf: f32::INFINITY,
            lost_marks: 0,
            stop,
            leaf_down: params.leaf_downgrade_at,
        };
        let mut values = first.map_or([None; 4], |f| f.values);
        let mut lost_in = [false; 4];
        // Only moves that change the board are candidates, so a decision
        // exists exactly when a move is legal.
        let moved = board.shifts_pair(board.transpose(), &TABLES);
        for (k, (next, next_t)) in moved.into_iter().enumerate() {
            if first.is_some_and(|f| settled(f, &values, k)) {
                break;
            }
            node.stats.moves += 1;
            if next == board {
                continue;
            }
            let marks = node.lost_marks;
            values[k] = Some(node.chance(next, next_t, 1.0, 0));
            lost_in[k] = node.lost_marks != marks;
            if node.stop.hit {
                break;
            }
        }
        // A node counts moves, evaluations and reads; decisions and depths
        // are the searcher's.
        self.stats.add(&node.stats);
        RootSearch {
            values,
            lost_in,
            lowest_leaf: node.lowest_leaf,
            abandoned: node.stop.hit,
            moves: node.stats.moves,
        }
    }

    /// Every move's value on `board` searched to `limit` chance layers, in
    /// [`Direction::ALL`] order (`None`: the move does not change the board),
    /// with lost boards valued as [`Searcher::decide_to`] values them. The
    /// move [`Searcher::decide_to`] plays has the highest of them.
    pub fn move_values<E: Evaluate>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
        limit: u32,
    ) -> [Option<f32>; 4] {
        let board = downgraded(board, params.downgrade_at);
        if limit == 0 {
            return self.greedy_values(h, board, params.leaf_downgrade_at);
        }
        let first = self.search_root::<E, false>(h, board, params, limit, None, Stop::NEVER);
        let lost = lost_value(first.lowest_leaf) - h.dead_end_cost(board);
        if !(first.saw_lost() && lost != 0.0) {
            return first.values;
        }
        // Searched again with every legal move's bound at +∞, no move is
        // settled before all are searched: every value is final.
        let again = RootSearch {
            values: first.values.map(|v| v.map(|_| f32::INFINITY)),
            lost_in: [true; 4],
            ..first
        };
        self.search_root::<E, false>(h, board, params, limit, Some((lost, &again)), Stop::NEVER)
            .values
    }

    /// The best move on `board` at the depth `params` asks for.
    pub fn decide<E: Evaluate>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
    ) -> Option<Decision> {
        self.decide_to(h, board, params, params.limit(board))
    }

    /// Iterative deepening within a time budget (see [`Searcher::decide_within`]).
    pub fn decide_timed<E: Evaluate>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
        budget: Duration,
    ) -> Option<Decision> {
        self.decide_within(h, board, params, Budget::Time(budget))
    }

    /// Iterative deepening within a budget: searches depth 0, 1, … and keeps
    /// the deepest finished answer, starting a deeper search only when its
    /// predicted cost (the last depth's cost times the last growth) fits
    /// what is left, or, with `params.deepen_gamble` g > 0, fits g times
    /// what is left: such a search is abandoned when the budget is spent.
    /// `params.depth` caps the depth (`Auto` caps it at the reference
    /// rule's depth + `TIMED_AUTO_EXTRA_DEPTH`).
    pub fn decide_within<E: Evaluate>(
        &mut self,
        h: &E,
        board: Board,
        params: &SearchParams,
        budget: Budget,
    ) -> Option<Decision> {
        let start = Instant::now();
        let moves_before = self.stats.moves;
        let spent = |s: &Searcher| match budget {
            Budget::Time(_) => start.elapsed().as_secs_f64(),
            Budget::Nodes(_) => (s.stats.moves - moves_before) as f64,
        };
        let (total, too_small_to_time) = match budget {
            Budget::Time(t) => (t.as_secs_f64(), MIN_TIMED_SEARCH.as_secs_f64()),
            Budget::Nodes(n) => (n as f64, 0.0),
        };
        let cap = match params.depth {
            Depth::Fixed(d) => d,
            Depth::Auto => params.auto.limit(board) + TIMED_AUTO_EXTRA_DEPTH,
        };
        let gamble = params.deepen_gamble;
        let mut best = self.decide_to(h, board, params, 0)?;
        let mut last = spent(self);
        let mut growth = FIRST_GROWTH;
        for limit in 1..=cap {
            let used = spent(self);
            let left = total - used;
            let predicted = last * growth;
            let took = if gamble > 0.0 {
                if left <= 0.0 || predicted > gamble * left {
                    break;
                }
                let stop = match budget {
                    Budget::Time(t) => Stop::at(start + t),
                    Budget::Nodes(n) => {
                        Stop::after_moves(n.saturating_sub(self.stats.moves - moves_before))
                    }
                };
                match self.decide_or_stop::<E, true>(h, board, params, limit, stop) {
                    Ok(decision) => best = decision?,
                    Err(Abandoned) => break,
                }
                spent(self) - used
            } else {
                if used + predicted > total {
                    break;
                }
                best = self.decide_to(h, board, params, limit)?;
                spent(self) - used
            };
            if last > too_small_to_time {
                growth = (took / last).clamp(MIN_GROWTH, MAX_GROWTH);
            }
            last = took;
        }
        Some(best)
    }
}

/// A [`Policy`] that searches every move.
pub struct SearchPolicy<'a, E: Evaluate = Heuristic> {
    pub searcher: &'a mut Searcher,
    pub heuristic: &'a E,
    pub params: SearchParams,
    /// Per-move budget for iterative deepening (`None`: fixed depth).
    pub budget: Option<Budget>,
    /// A game clock in moves tried, shared by the game's moves under these
    /// settings (it takes the place of `budget`).
    pub clock: Option<(NodeClock, Settings)>,
    /// Moves tried so far in this game under `clock`.
    pub spent: u64,
}

impl<E: Evaluate> Policy for SearchPolicy<'_, E> {
    fn choose(&mut self, board: Board) -> Direction {
        let decision = match (self.clock, self.budget) {
            (Some((clock, settings)), _) => {
                let before = self.searcher.stats.moves;
                let nodes = clock.allotment(self.spent, board, &settings);
                let d = self.searcher.decide_within(
                    self.heuristic,
                    board,
                    &self.params,
                    Budget::Nodes(nodes),
                );
                self.spent += self.searcher.stats.moves - before;
                d
            }
            (None, Some(budget)) => {
                self.searcher
                    .decide_within(self.heuristic, board, &self.params, budget)
            }
            (None, None) => self.searcher.decide(self.heuristic, board, &self.params),
        };
        // The game loop asks only when a move is legal, so a decision exists.
        let Some(decision) = decision else {
            return Direction::Up;
        };
        let slot = (decision.depth as usize).min(DEPTH_SLOTS - 1);
        self.searcher.stats.depths[slot] += 1;
        decision.dir
    }
}

#[cfg(test)]
mod tests;
