//! Seeded games in parallel. Each game is a pure function of its seed, the
//! heuristic and the search parameters, so results do not depend on the
//! number of threads or on which thread plays which game.

use std::cell::RefCell;
use std::time::Duration;

use rayon::prelude::*;

use crate::engine::{play_game, Board, GameRecord, RandomPlacer, TurnOrder, Variant};
use crate::heuristic::Heuristic;
use crate::search::{Depth, SearchParams, SearchPolicy, SearchStats, Searcher};

thread_local! {
    static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::new(tt_bits(Depth::Fixed(0))));
}

/// Transposition-table size (log2 of entries) for a search depth. Cached
/// values can depend on the table size (an evicted entry is searched again,
/// possibly under another probability cutoff), so the size is a function of
/// the game spec alone, never of what a thread played before.
pub fn tt_bits(depth: Depth) -> u32 {
    match depth {
        Depth::Fixed(d) => (9 + 3 * d).clamp(12, 22),
        Depth::Auto => 22,
    }
}

/// How every game of a batch is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSpec {
    pub variant: Variant,
    pub search: SearchParams,
    /// Stop a game after this many moves (`None`: play to the end).
    pub move_limit: Option<u32>,
    /// Per-move time budget (iterative deepening); `None` for fixed depth.
    /// Timed games are not reproducible from their seed alone.
    pub move_budget: Option<Duration>,
}

impl GameSpec {
    pub fn new(variant: Variant, search: SearchParams) -> GameSpec {
        GameSpec {
            variant,
            search,
            move_limit: None,
            move_budget: None,
        }
    }

    fn turn_order(&self) -> TurnOrder {
        TurnOrder {
            timing: self.variant.timing(),
            start_tiles: self.variant.start_tiles(),
            move_limit: self.move_limit,
        }
    }
}

/// One finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub seed: u64,
    pub record: GameRecord,
    pub stats: SearchStats,
}

/// Plays one game from `seed` with a searcher of this thread, reporting every
/// move (board, direction) to `observe`.
pub fn play_one_observed(
    spec: &GameSpec,
    heuristic: &Heuristic,
    seed: u64,
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
        };
        let record = play_game(
            spec.turn_order(),
            Board::EMPTY,
            &mut policy,
            &mut placer,
            observe,
        );
        let after = policy.searcher.stats;
        GameResult {
            seed,
            record,
            stats: SearchStats {
                moves: after.moves - before.moves,
                evals: after.evals - before.evals,
                tt_hits: after.tt_hits - before.tt_hits,
                decisions: after.decisions - before.decisions,
            },
        }
    })
}

/// Plays one game from `seed`.
pub fn play_one(spec: &GameSpec, heuristic: &Heuristic, seed: u64) -> GameResult {
    play_one_observed(spec, heuristic, seed, |_, _| {})
}

/// Plays a game for every seed, in parallel on the current rayon pool.
/// Results come back in the order of `seeds`; `on_done` is called once per
/// finished game (from any thread) for progress reporting.
pub fn play_many(
    spec: &GameSpec,
    heuristic: &Heuristic,
    seeds: &[u64],
    on_done: &(dyn Fn(&GameResult) + Sync),
) -> Vec<GameResult> {
    seeds
        .par_iter()
        .with_max_len(1)
        .map(|&seed| {
            let r = play_one(spec, heuristic, seed);
            on_done(&r);
            r
        })
        .collect()
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

/// A rayon pool with `threads` workers (`None`: one per core).
pub fn thread_pool(
    threads: Option<usize>,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t);
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::Weights;
    use crate::seeds::game_seed;

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let h = Heuristic::new(&Weights::nneonneo());
        let spec = GameSpec::new(
            Variant::CLASSIC,
            SearchParams::new(Depth::Fixed(1), Variant::CLASSIC),
        );
        let seeds: Vec<u64> = (0..12).map(|i| game_seed(99, i)).collect();
        let one = thread_pool(Some(1))
            .unwrap()
            .install(|| play_many(&spec, &h, &seeds, &|_| {}));
        let two = thread_pool(Some(2))
            .unwrap()
            .install(|| play_many(&spec, &h, &seeds, &|_| {}));
        let three = thread_pool(Some(3))
            .unwrap()
            .install(|| play_many(&spec, &h, &seeds, &|_| {}));
        assert_eq!(one, two);
        assert_eq!(one, three);
        assert!(one.iter().all(|r| r.record.moves > 50));
    }

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
}
