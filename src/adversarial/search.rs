//! Alpha-beta search for both sides: negamax over plies with fail-soft
//! alpha-beta, a transposition table of bounds, move ordering (the table's
//! best move first, then a history of cutoffs), and iterative deepening under
//! a ply, node or time limit.
//!
//! Values are the defender's evaluation ([`Eval`]) seen from the side to
//! move: the defender maximises it, the attacker minimises it.

use std::time::{Duration, Instant};

use super::eval::Eval;
use super::rules::{Action, AdversarialPosition, Rules, Side};
use crate::seeds::mix64;

/// How far one decision may search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The deepest iteration, in plies (each side's move is one ply).
    pub plies: u32,
    /// Stop deepening once this many nodes were visited in the decision.
    pub nodes: Option<u64>,
    /// Stop deepening once this much time has passed.
    pub time: Option<Duration>,
}

impl Limits {
    pub fn plies(plies: u32) -> Limits {
        Limits {
            plies,
            nodes: None,
            time: None,
        }
    }
}

/// The deepest search accepted (the table stores depths in a byte).
pub const MAX_PLIES: u32 = 64;

/// A decision and what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlphaBetaDecision {
    pub action: Action,
    /// The value of the deepest finished iteration, for the side to move.
    pub value: f64,
    /// The deepest finished iteration.
    pub plies: u32,
    /// Nodes visited (interior and leaves, all iterations).
    pub nodes: u64,
    /// Calls of the evaluation (leaves).
    pub evals: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    board: u64,
    /// Score and side: 2 · score + (1 for the attacker).
    tag: u64,
    value: f64,
    plies: u8,
    bound: Bound,
    best: u8,
}

const NO_MOVE: u8 = u8::MAX;

fn tag(pos: &AdversarialPosition) -> u64 {
    2 * pos.score + u64::from(pos.to_move == Side::Attacker)
}

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1024;

/// One side's searcher. Its table persists between decisions.
pub struct AlphaBeta {
    rules: Rules,
    eval: Eval,
    table: Vec<Option<Entry>>,
    mask: usize,
    history: [u32; 36],
    nodes: u64,
    evals: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Whether the table is used (off only to measure what it buys).
    pub use_table: bool,
}

impl AlphaBeta {
    /// A searcher with a table of 2^`table_bits` entries.
    pub fn new(rules: Rules, eval: Eval, table_bits: u32) -> AlphaBeta {
        let len = 1usize << table_bits;
        AlphaBeta {
            rules,
            eval,
            table: vec![None; len],
            mask: len - 1,
            history: [0; 36],
            nodes: 0,
            evals: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            use_table: true,
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The best action for the side to move, or `None` when it has none
    /// (the game is over, or a full board with the attacker to move).
    pub fn decide(
        &mut self,
        pos: AdversarialPosition,
        limits: Limits,
    ) -> Option<AlphaBetaDecision> {
        let mut actions = Vec::new();
        pos.actions(self.rules, &mut actions);
        if actions.is_empty() {
            return None;
        }
        self.nodes = 0;
        self.evals = 0;
        self.stopped = false;
        self.history = [0; 36];
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| Instant::now() + t);
        let mut best: Option<(Action, f64, u32)> = None;
        for plies in 1..=limits.plies.clamp(1, MAX_PLIES) {
            // The first iteration always finishes, so there is a move to play.
            let limited = plies > 1;
            match self.root(pos, plies, &actions, limited) {
                Some((action, value)) => best = Some((action, value, plies)),
                None => break,
            }
            if limited && self.out_of_budget() {
                break;
            }
        }
        let (action, value, plies) = best.expect("the first iteration finishes");
        Some(AlphaBetaDecision {
            action,
            value,
            plies,
            nodes: self.nodes,
            evals: self.evals,
        })
    }

    /// The value of `pos` searched exactly `plies` deep, for the side to move.
    pub fn value(&mut self, pos: AdversarialPosition, plies: u32) -> f64 {
        self.nodes = 0;
        self.evals = 0;
        self.stopped = false;
        self.node_limit = u64::MAX;
        self.deadline = None;
        self.negamax(
            pos,
            plies.min(MAX_PLIES),
            f64::NEG_INFINITY,
            f64::INFINITY,
            false,
        )
    }

    /// Nodes and evaluations of the last search.
    pub fn counts(&self) -> (u64, u64) {
        (self.nodes, self.evals)
    }

    fn out_of_budget(&self) -> bool {
        self.nodes >= self.node_limit || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// One iteration at the root; `None` if a limit stopped it.
    fn root(
        &mut self,
        pos: AdversarialPosition,
        plies: u32,
        actions: &[Action],
        limited: bool,
    ) -> Option<(Action, f64)> {
        let mut order: Vec<Action> = actions.to_vec();
        if let Some(best) = self.probe(&pos).map(|e| e.best) {
            if let Some(i) = order.iter().position(|a| a.code() == best) {
                order[..=i].rotate_right(1);
            }
        }
        self.nodes += 1;
        let mut alpha = f64::NEG_INFINITY;
        let mut best = order[0];
        for &a in &order {
            let child = pos.play(self.rules, a).expect("a legal action");
            let v = -self.negamax(child, plies - 1, f64::NEG_INFINITY, -alpha, limited);
            if self.stopped {
                return None;
            }
            if v > alpha {
                alpha = v;
                best = a;
            }
        }
        self.store(&pos, plies, alpha, Bound::Exact, best.code());
        Some((best, alpha))
    }

    #[inline]
    fn slot(&self, pos: &AdversarialPosition) -> usize {
        mix64(pos.board.0 ^ mix64(tag(pos))) as usize & self.mask
    }

    fn probe(&self, pos: &AdversarialPosition) -> Option<Entry> {
        if !self.use_table {
            return None;
        }
        self.table[self.slot(pos)].filter(|e| e.board == pos.board.0 && e.tag == tag(pos))
    }

    fn store(&mut self, pos: &AdversarialPosition, plies: u32, value: f64, bound: Bound, best: u8) {
        if !self.use_table {
            return;
        }
        let slot = self.slot(pos);
        self.table[slot] = Some(Entry {
            board: pos.board.0,
            tag: tag(pos),
            value,
            plies: plies as u8,
            bound,
            best,
        });
    }

    /// The static value of `pos` for the side to move.
    #[inline]
    fn leaf(&mut self, pos: &AdversarialPosition) -> f64 {
        self.evals += 1;
        let v = self.eval.value(pos.board, pos.score, pos.is_over());
        match pos.to_move {
            Side::Defender => v,
            Side::Attacker => -v,
        }
    }

    fn negamax(
        &mut self,
        pos: AdversarialPosition,
        plies: u32,
        mut alpha: f64,
        mut beta: f64,
        limited: bool,
    ) -> f64 {
        self.nodes += 1;
        if limited
            && (self.nodes >= self.node_limit
                || (self.nodes.is_multiple_of(CLOCK_EVERY)
                    && self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.stopped = true;
            return 0.0;
        }
        if plies == 0 || pos.is_over() {
            return self.leaf(&pos);
        }
        let mut actions = Vec::with_capacity(32);
        pos.actions(self.rules, &mut actions);
        if actions.is_empty() {
            return self.leaf(&pos);
        }
        // The table: a bound searched to exactly this depth narrows the
        // window (an exact-depth match keeps values equal to plain minimax);
        // any entry's best move is tried first.
        let alpha0 = alpha;
        let mut first = NO_MOVE;
        if let Some(e) = self.probe(&pos) {
            first = e.best;
            if u32::from(e.plies) == plies {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower => alpha = alpha.max(e.value),
                    Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return e.value;
                }
            }
        }
        let history = &self.history;
        actions.sort_by_key(|a| {
            let c = a.code();
            (c != first, std::cmp::Reverse(history[c as usize]))
        });
        let mut best_value = f64::NEG_INFINITY;
        let mut best = actions[0].code();
        for &a in &actions {
            let child = pos.play(self.rules, a).expect("a legal action");
            let v = -self.negamax(child, plies - 1, -beta, -alpha, limited);
            if self.stopped {
                return 0.0;
            }
            if v > best_value {
                best_value = v;
                best = a.code();
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                let h = &mut self.history[a.code() as usize];
                *h = h.saturating_add(plies * plies);
                break;
            }
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(&pos, plies, best_value, bound, best);
        best_value
    }
}

/// Plain minimax without cuts or table: the value of `pos` `plies` deep for
/// the side to move, and the number of evaluations made.
pub fn minimax(rules: Rules, eval: &Eval, pos: AdversarialPosition, plies: u32) -> (f64, u64) {
    let sign = match pos.to_move {
        Side::Defender => 1.0,
        Side::Attacker => -1.0,
    };
    let mut actions = Vec::new();
    pos.actions(rules, &mut actions);
    if plies == 0 || pos.is_over() || actions.is_empty() {
        return (sign * eval.value(pos.board, pos.score, pos.is_over()), 1);
    }
    let mut best = f64::NEG_INFINITY;
    let mut evals = 0;
    for a in actions {
        let child = pos.play(rules, a).expect("a legal action");
        let (v, n) = minimax(rules, eval, child, plies - 1);
        evals += n;
        best = best.max(-v);
    }
    (best, evals)
}
