//! Games and matches. A game runs on the engine's game loop: the attacker is
//! the [`Placer`], the defender the [`Policy`]. Games are deterministic, so
//! variety comes from openings: the first turns (a random placement and a
//! random legal move each) are drawn from a seed. A match is two games from
//! the same opening with the roles swapped; the higher defender total wins.

use std::cell::Cell;

use rand::seq::SliceRandom;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;

use super::player::Player;
use super::rules::{Action, AdversarialPosition, Rules, Side};
use super::search::{AlphaBeta, Limits};
use crate::engine::{play_game, Board, Direction, Placer, Policy, Spawn};
use crate::stats;

/// Size of each searcher's transposition table (2^bits entries).
pub const TABLE_BITS: u32 = 18;

/// The start of a game: some random turns from the empty board.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub position: AdversarialPosition,
    pub actions: Vec<Action>,
}

/// `turns` random turns (a placement, then a legal move) from the empty
/// board, drawn from `seed`. Stops early if the defender cannot move.
pub fn opening(rules: Rules, turns: u32, seed: u64) -> Opening {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = AdversarialPosition::START;
    let mut actions = Vec::new();
    let mut choices = Vec::new();
    for _ in 0..2 * turns {
        pos.actions(rules, &mut choices);
        let Some(&a) = choices.choose(&mut rng) else {
            break;
        };
        if pos.to_move == Side::Defender && !pos.play(rules, a).is_some_and(|p| p.board.has_move())
        {
            // Keep the opening short of a dead end where possible.
            if let Some(&alive) = choices
                .iter()
                .find(|&&c| pos.play(rules, c).is_some_and(|p| p.board.has_move()))
            {
                pos = pos.play(rules, alive).expect("legal");
                actions.push(alive);
                continue;
            }
        }
        pos = pos.play(rules, a).expect("a legal action");
        actions.push(a);
        if pos.to_move == Side::Defender && pos.is_over() {
            break;
        }
    }
    Opening {
        position: pos,
        actions,
    }
}

/// One finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MatchGame {
    /// The defender's total, the opening's points included.
    pub score: u64,
    /// Defender moves after the opening.
    pub moves: u32,
    pub max_tile: u32,
    #[serde(serialize_with = "hex")]
    pub board: Board,
}

fn hex<S: serde::Serializer>(b: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{:#018x}", b.0))
}

struct Attacker<'a> {
    searcher: AlphaBeta,
    limits: Limits,
    score: &'a Cell<u64>,
}

impl Placer for Attacker<'_> {
    fn place(&mut self, board: Board) -> Option<Spawn> {
        let pos = AdversarialPosition {
            board,
            score: self.score.get(),
            to_move: Side::Attacker,
        };
        match self.searcher.decide(pos, self.limits)?.action {
            Action::Place(s) => Some(s),
            Action::Slide(_) => None,
        }
    }
}

struct Defender<'a> {
    searcher: AlphaBeta,
    limits: Limits,
    score: &'a Cell<u64>,
}

impl Policy for Defender<'_> {
    fn choose(&mut self, board: Board) -> Direction {
        let pos = AdversarialPosition {
            board,
            score: self.score.get(),
            to_move: Side::Defender,
        };
        match self.searcher.decide(pos, self.limits).map(|d| d.action) {
            Some(Action::Slide(dir)) => dir,
            // Only called with a legal move on the board; the loop reports
            // anything else as an illegal move.
            _ => Direction::Up,
        }
    }
}

/// Plays one game from `opening` to its end.
pub fn play(
    rules: Rules,
    defender: &Player,
    attacker: &Player,
    limits: Limits,
    opening: &Opening,
) -> MatchGame {
    let start = opening.position;
    let score = Cell::new(start.score);
    let mut def = Defender {
        searcher: AlphaBeta::new(rules, defender.defend.clone(), TABLE_BITS),
        limits: defender.limits(Side::Defender, limits),
        score: &score,
    };
    let mut att = Attacker {
        searcher: AlphaBeta::new(rules, attacker.attack.clone(), TABLE_BITS),
        limits: attacker.limits(Side::Attacker, limits),
        score: &score,
    };
    let record = if start.to_move == Side::Defender {
        // An opening cut short at a dead end: nothing left to play.
        crate::engine::GameRecord {
            moves: 0,
            score: 0,
            max_tile: crate::engine::value_of(start.board.max_rank()),
            fours: 0,
            outcome: crate::engine::Outcome::GameOver,
            board: start.board,
        }
    } else {
        play_game(
            rules.turn_order(),
            start.board,
            &mut def,
            &mut att,
            |b, d| {
                let points = b.make_move(d).map_or(0, |m| u64::from(m.score));
                score.set(score.get() + points);
            },
        )
    };
    MatchGame {
        score: start.score + record.score,
        moves: record.moves,
        max_tile: record.max_tile,
        board: record.board,
    }
}

/// How one match went for player A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchVerdict {
    Win,
    Draw,
    Loss,
}

impl MatchVerdict {
    /// A's verdict from the defender totals: the higher one wins.
    pub fn by_totals(a_defends: u64, b_defends: u64) -> MatchVerdict {
        match a_defends.cmp(&b_defends) {
            std::cmp::Ordering::Greater => MatchVerdict::Win,
            std::cmp::Ordering::Equal => MatchVerdict::Draw,
            std::cmp::Ordering::Less => MatchVerdict::Loss,
        }
    }
}

/// Both games of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchResult {
    pub index: u64,
    pub opening_seed: u64,
    /// A defends, B attacks.
    pub a_defends: MatchGame,
    /// B defends, A attacks.
    pub b_defends: MatchGame,
    pub verdict: MatchVerdict,
}

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub rules: Rules,
    pub limits: Limits,
    /// Random turns at the start of each match.
    pub opening_turns: u32,
    pub matches: u64,
    pub seed: u64,
}

/// Plays match `index` of `spec` between `a` and `b`.
pub fn play_match(spec: &MatchSpec, a: &Player, b: &Player, index: u64) -> MatchResult {
    let opening_seed = crate::seeds::derive(spec.seed, index);
    let open = opening(spec.rules, spec.opening_turns, opening_seed);
    let a_defends = play(spec.rules, a, b, spec.limits, &open);
    let b_defends = play(spec.rules, b, a, spec.limits, &open);
    let verdict = MatchVerdict::by_totals(a_defends.score, b_defends.score);
    MatchResult {
        index,
        opening_seed,
        a_defends,
        b_defends,
        verdict,
    }
}

/// Plays all matches of `spec`, in parallel; results in match order.
pub fn play_matches(spec: &MatchSpec, a: &Player, b: &Player) -> Vec<MatchResult> {
    (0..spec.matches)
        .into_par_iter()
        .map(|i| play_match(spec, a, b, i))
        .collect()
}

/// The matches summed up from A's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchSummary {
    pub matches: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// (wins + draws / 2) / matches, with its 95% interval.
    pub win_rate: f64,
    pub win_rate_ci95: [f64; 2],
    /// Mean of (A's defender total − B's defender total), with its 95% interval.
    pub mean_diff: f64,
    pub mean_diff_ci95: [f64; 2],
    pub mean_a_defends: f64,
    pub mean_b_defends: f64,
}

impl MatchSummary {
    pub fn of(results: &[MatchResult]) -> MatchSummary {
        let count = |v| results.iter().filter(|r| r.verdict == v).count();
        let points: Vec<f64> = results
            .iter()
            .map(|r| match r.verdict {
                MatchVerdict::Win => 1.0,
                MatchVerdict::Draw => 0.5,
                MatchVerdict::Loss => 0.0,
            })
            .collect();
        let diffs: Vec<f64> = results
            .iter()
            .map(|r| r.a_defends.score as f64 - r.b_defends.score as f64)
            .collect();
        let a: Vec<f64> = results.iter().map(|r| r.a_defends.score as f64).collect();
        let b: Vec<f64> = results.iter().map(|r| r.b_defends.score as f64).collect();
        MatchSummary {
            matches: results.len(),
            wins: count(MatchVerdict::Win),
            draws: count(MatchVerdict::Draw),
            losses: count(MatchVerdict::Loss),
            win_rate: stats::mean(&points),
            win_rate_ci95: stats::wilson_ci95(stats::mean(&points), points.len()),
            mean_diff: stats::mean(&diffs),
            mean_diff_ci95: stats::mean_ci95(&diffs),
            mean_a_defends: stats::mean(&a),
            mean_b_defends: stats::mean(&b),
        }
    }
}
