//! One seeded game. Each game is a pure function of its seed, the heuristic
//! and the search parameters, so results do not depend on the number of
//! threads or on which thread plays which game (see [`crate::evaluation`]).

use std::cell::RefCell;

use crate::engine::{
    play_from, play_game, Board, GameRecord, RandomPlacer, Start, TurnOrder, Variant,
};
use crate::heuristic::Evaluate;
use crate::search::{
    Budget, Depth, NodeClock, SearchParams, SearchPolicy, SearchStats, Searcher, Settings,
};

thread_local! {
    static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::new(tt_bits(Depth::Fixed(0))));
}

/// Transposition tables hold 2^bits entries: at least 2^12 (depth 0 and 1
/// hardly use one) and at most 2^22 (64 MiB of entries per thread).
const TT_BITS_MIN: u32 = 12;
const TT_BITS_MAX: u32 = 22;
/// Each layer of depth multiplies a search's chance nodes by about 8 on a
/// typical board: 3 more bits per layer, from 2^9 at depth 0.
const TT_BITS_AT_DEPTH_0: u32 = 9;
const TT_BITS_PER_LAYER: u32 = 3;

/// Transposition-table size (log2 of entries) for a search depth. Cached
/// values can depend on the table size (an evicted entry is searched again,
/// possibly under another probability cutoff), so the size is a function of
/// the game spec alone, never of what a thread played before.
pub fn tt_bits(depth: Depth) -> u32 {
    match depth {
        Depth::Fixed(d) => {
            (TT_BITS_AT_DEPTH_0 + TT_BITS_PER_LAYER * d).clamp(TT_BITS_MIN, TT_BITS_MAX)
        }
        Depth::Auto => TT_BITS_MAX,
    }
}

/// How every game of a batch is played.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameSpec {
    pub variant: Variant,
    pub search: SearchParams,
    /// Stop a game after this many moves (`None`: play to the end).
    pub move_limit: Option<u32>,
    /// Per-move budget (iterative deepening); `None` for fixed depth. Timed
    /// games are not reproducible from their seed alone; node-budget games are.
    pub move_budget: Option<Budget>,
    /// A game clock in moves tried, spent by the player's clock settings
    /// (`interact`'s rule); it takes the place of `move_budget`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<NodeClock>,
}

impl GameSpec {
    pub fn new(variant: Variant, search: SearchParams) -> GameSpec {
        GameSpec {
            variant,
            search,
            move_limit: None,
            move_budget: None,
            clock: None,
        }
    }

    pub(crate) fn turn_order(&self) -> TurnOrder {
        TurnOrder {
            timing: self.variant.timing(),
            start_tiles: self.variant.start_tiles(),
            move_limit: self.move_limit,
        }
    }
}

/// One finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    pub seed: u64,
    /// The position it started from (`None`: the variant's empty board).
    #[serde(default)]
    pub start: Option<Start>,
    pub record: GameRecord,
    pub stats: SearchStats,
}

impl GameResult {
    /// Score earned in this game: the final score less the start's.
    pub fn gained(&self) -> u64 {
        self.record.score - self.start.map_or(0, |s| s.score)
    }
}

/// Plays one game from `seed` with a searcher of this thread, reporting every
/// move (board, direction) to `observe`.
pub fn play_one_observed(
    spec: &GameSpec,
    heuristic: &impl Evaluate,
    seed: u64,
    observe: impl FnMut(Board, crate::engine::Direction),
) -> GameResult {
    play_start_observed(spec, heuristic, seed, None, observe)
}

/// Plays one game from `start` (`None`: the variant's empty board) with
/// spawns drawn from `seed`: a pure function of the two, the heuristic and
/// the spec. See [`play_from`] for what a start changes.
pub fn play_start(
    spec: &GameSpec,
    heuristic: &impl Evaluate,
    seed: u64,
    start: Option<Start>,
) -> GameResult {
    play_start_observed(spec, heuristic, seed, start, |_, _| {})
}

/// [`play_start`], reporting every move (board, direction) to `observe`.
/// A game clock, if the spec has one, is spent by the default settings.
pub fn play_start_observed(
    spec: &GameSpec,
    heuristic: &impl Evaluate,
    seed: u64,
    start: Option<Start>,
    observe: impl FnMut(Board, crate::engine::Direction),
) -> GameResult {
    play_settings_observed(spec, heuristic, &Settings::default(), seed, start, observe)
}

/// [`play_start`] for a player with its own search settings: they replace
/// the spec's cutoff and depth rule, and spend its game clock.
pub fn play_settings(
    spec: &GameSpec,
    heuristic: &impl Evaluate,
    settings: &Settings,
    seed: u64,
    start: Option<Start>,
) -> GameResult {
    let mut spec = *spec;
    settings.apply(&mut spec.search);
    play_settings_observed(&spec, heuristic, settings, seed, start, |_, _| {})
}

fn play_settings_observed(
    spec: &GameSpec,
    heuristic: &impl Evaluate,
    settings: &Settings,
    seed: u64,
    start: Option<Start>,
    observe: impl FnMut(Board, crate::engine::Direction),
) -> GameResult {
    SEARCHER.with(|cell| {
        let searcher = &mut *cell.borrow_mut();
        let bits = tt_bits(spec.search.depth);
        if searcher.table_bits() != bits {
            *searcher = Searcher::new(bits);
        }
        let before = searcher.stats;
        let mut placer = RandomPlacer::new(seed, spec.variant.p4());
        let mut policy = SearchPolicy {
            searcher,
            heuristic,
            params: spec.search,
            budget: spec.move_budget,
            clock: spec.clock.map(|c| (c, *settings)),
            spent: 0,
        };
        let record = match start {
            None => play_game(
                spec.turn_order(),
                Board::EMPTY,
                &mut policy,
                &mut placer,
                observe,
            ),
            Some(start) => play_from(spec.turn_order(), start, &mut policy, &mut placer, observe),
        };
        let after = policy.searcher.stats;
        GameResult {
            seed,
            start,
            record,
            stats: after.since(&before),
        }
    })
}

/// Plays one game from `seed`.
pub fn play_one(spec: &GameSpec, heuristic: &impl Evaluate, seed: u64) -> GameResult {
    play_one_observed(spec, heuristic, seed, |_, _| {})
}

/// Summarizes finished games that took `elapsed_s` seconds of wall time.
pub fn summarize(results: &[GameResult], elapsed_s: f64) -> crate::stats::Summary {
    let stats: Vec<crate::stats::GameStat> = results
        .iter()
        .map(|r| crate::stats::GameStat {
            score: r.record.score,
            max_tile: r.record.max_tile,
            moves: r.record.moves,
        })
        .collect();
    crate::stats::Summary::from_games(&stats, elapsed_s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Heuristic, Weights};

    #[test]
    fn twos_games_never_spawn_fours() {
        let h = Heuristic::new(&Weights::nneonneo());
        let spec = GameSpec::new(
            Variant::Twos,
            SearchParams::new(Depth::Fixed(0), Variant::Twos),
        );
        let r = play_one(&spec, &h, 5);
        assert_eq!(r.record.fours, 0);
        assert!(r.record.moves > 20);
    }

    #[test]
    fn every_move_is_counted_once_at_the_depth_that_chose_it() {
        let h = Heuristic::new(&Weights::nneonneo());
        let fixed = GameSpec::new(
            Variant::CLASSIC,
            SearchParams::new(Depth::Fixed(1), Variant::CLASSIC),
        );
        // A second game on the same thread counts its own moves only.
        for seed in [3, 4] {
            let r = play_one(&fixed, &h, seed);
            let mut only_depth_1 = [0; crate::search::DEPTH_SLOTS];
            only_depth_1[1] = u64::from(r.record.moves);
            assert_eq!(r.stats.depths, only_depth_1);
        }
        let mut budgeted = GameSpec::new(
            Variant::CLASSIC,
            SearchParams::new(Depth::Fixed(3), Variant::CLASSIC),
        );
        budgeted.move_budget = Some(Budget::Nodes(3_000));
        let r = play_one(&budgeted, &h, 3);
        assert_eq!(
            r.stats.depths.iter().sum::<u64>(),
            u64::from(r.record.moves)
        );
        let reached: Vec<usize> = (0..crate::search::DEPTH_SLOTS)
            .filter(|&d| r.stats.depths[d] > 0)
            .collect();
        // Open boards fit a deeper search in the budget than crowded ones.
        assert!(reached.len() >= 2, "{:?}", r.stats.depths);
        assert!(reached.iter().all(|&d| (1..=3).contains(&d)), "{reached:?}");
    }
}
