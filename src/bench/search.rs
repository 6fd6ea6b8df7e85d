//! The search suite: microseconds per decision at fixed depths on fixed
//! seeded games, and games per second on one and on several threads.
//!
//! Every repetition must reproduce the same games (scores and move counts),
//! and the threaded runs must equal the single-threaded one, or the
//! benchmark fails: timing a search that lost its determinism is pointless.

use std::time::{Duration, Instant};

use super::BenchError;
use crate::engine::Variant;
use crate::evaluation::{Batch, Evaluator, LocalEvaluator};
use crate::heuristic::Weights;
use crate::player::Player;
use crate::search::{Depth, SearchParams};
use crate::seeds::game_seed;
use crate::selfplay::{GameResult, GameSpec};

/// Base seed of the benchmark games.
pub const SEED: u64 = 2048;

/// One depth's workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthCase {
    pub depth: u32,
    pub games: u32,
    /// Moves per game (`None`: whole games).
    pub move_limit: Option<u32>,
}

/// The default workload: whole games at every depth, so the time per move
/// played compares with `eval --threads 1` on the same games.
pub const CASES: [DepthCase; 4] = [
    DepthCase {
        depth: 0,
        games: 200,
        move_limit: None,
    },
    DepthCase {
        depth: 1,
        games: 40,
        move_limit: None,
    },
    DepthCase {
        depth: 2,
        games: 6,
        move_limit: None,
    },
    DepthCase {
        depth: 3,
        games: 2,
        move_limit: None,
    },
];

/// One line of the search report.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRow {
    pub name: String,
    pub decisions: u64,
    /// Median over repetitions of the time per decision.
    pub median: Duration,
    /// Fastest repetition's time per decision.
    pub best: Duration,
    /// Moves tried and boards evaluated per second (median repetition).
    pub moves_per_s: f64,
    pub evals_per_s: f64,
    pub mean_score: f64,
    /// Moves played per game (each is one decision).
    pub moves_per_game: f64,
}

/// A row of the thread-scaling report.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadRow {
    pub threads: usize,
    pub games: usize,
    pub games_per_s: f64,
}

fn spec(depth: u32, move_limit: Option<u32>) -> GameSpec {
    let mut spec = GameSpec::new(
        Variant::CLASSIC,
        SearchParams::new(Depth::Fixed(depth), Variant::CLASSIC),
    );
    spec.move_limit = move_limit;
    spec
}

/// The player the suite times unless told otherwise: the reference weights.
pub fn reference_player() -> Player {
    Player::builtin(Weights::nneonneo())
}

/// `player`'s games on `seeds` (a built-in player's tables are built inside
/// the timed call, as every batch of a tuning run builds them).
fn play(
    evaluator: &LocalEvaluator,
    spec: GameSpec,
    seeds: &[u64],
    player: &Player,
) -> Vec<GameResult> {
    let batch = Batch::new(spec, vec![player.clone()], seeds.to_vec());
    let mut results = evaluator
        .evaluate(&batch, &|_, _| {})
        .expect("a local pool does not fail");
    results.games.swap_remove(0)
}

fn checksum(results: &[GameResult]) -> u64 {
    results.iter().fold(0u64, |h, r| {
        crate::seeds::derive(h, r.record.score ^ u64::from(r.record.moves) << 40)
    })
}

/// Times each case `reps` times on one thread with `player`.
pub fn depths(
    cases: &[DepthCase],
    reps: usize,
    player: &Player,
) -> Result<Vec<SearchRow>, BenchError> {
    let evaluator = LocalEvaluator::new(Some(1)).expect("a one-thread pool");
    let mut rows = Vec::new();
    for case in cases {
        let spec = spec(case.depth, case.move_limit);
        let seeds: Vec<u64> = (0..case.games).map(|i| game_seed(SEED, i.into())).collect();
        let mut times = Vec::new();
        let mut first: Option<(u64, Vec<GameResult>)> = None;
        for _ in 0..reps.max(1) {
            let start = Instant::now();
            let results = play(&evaluator, spec, &seeds, player);
            times.push(start.elapsed());
            let sum = checksum(&results);
            match &first {
                None => first = Some((sum, results)),
                Some((expected, _)) if *expected != sum => {
                    return Err(BenchError {
                        name: "search",
                        expected: *expected,
                        found: sum,
                    });
                }
                Some(_) => {}
            }
        }
        let (_, results) = first.expect("at least one repetition");
        let decisions: u64 = results.iter().map(|r| r.stats.decisions).sum();
        let moves: u64 = results.iter().map(|r| r.stats.moves).sum();
        let evals: u64 = results.iter().map(|r| r.stats.evals).sum();
        times.sort();
        let median = times[times.len() / 2];
        let per = |t: Duration| t / decisions.max(1) as u32;
        let name = match case.move_limit {
            Some(limit) => format!(
                "depth {} ({} games x {limit} moves)",
                case.depth, case.games
            ),
            None => format!("depth {} ({} games)", case.depth, case.games),
        };
        rows.push(SearchRow {
            name,
            decisions,
            median: per(median),
            best: per(times[0]),
            moves_per_s: moves as f64 / median.as_secs_f64(),
            evals_per_s: evals as f64 / median.as_secs_f64(),
            mean_score: results.iter().map(|r| r.record.score as f64).sum::<f64>()
                / results.len() as f64,
            moves_per_game: results
                .iter()
                .map(|r| f64::from(r.record.moves))
                .sum::<f64>()
                / results.len() as f64,
        });
    }
    Ok(rows)
}

/// Games per second at `depth` on each thread count; every count must play
/// exactly the games one thread plays.
pub fn threads(
    depth: u32,
    games: u32,
    counts: &[usize],
    player: &Player,
) -> Result<Vec<ThreadRow>, BenchError> {
    let spec = spec(depth, None);
    let seeds: Vec<u64> = (0..games).map(|i| game_seed(SEED, i.into())).collect();
    let mut expected = None;
    let mut rows = Vec::new();
    for &threads in counts {
        let evaluator = LocalEvaluator::new(Some(threads)).expect("a thread pool");
        let start = Instant::now();
        let results = play(&evaluator, spec, &seeds, player);
        let secs = start.elapsed().as_secs_f64();
        let sum = checksum(&results);
        if let Some(e) = expected {
            if e != sum {
                return Err(BenchError {
                    name: "threads",
                    expected: e,
                    found: sum,
                });
            }
        }
        expected = Some(sum);
        rows.push(ThreadRow {
            threads,
            games: seeds.len(),
            games_per_s: seeds.len() as f64 / secs,
        });
    }
    Ok(rows)
}

/// Renders both reports; `player` names who played (`reference weights`,
/// `network FILE`).
pub fn table(rows: &[SearchRow], scaling: &[ThreadRow], player: &str) -> String {
    let mut s = format!(
        "{:<34} {:>9} {:>10} {:>12} {:>12} {:>11} {:>11} {:>10}\n",
        format!("search (1 thread, {player})"),
        "decisions",
        "moves/game",
        "median us/mv",
        "best us/mv",
        "tried/s",
        "evals/s",
        "mean score"
    );
    for r in rows {
        s += &format!(
            "{:<34} {:>9} {:>10.0} {:>12.2} {:>12.2} {:>11.3e} {:>11.3e} {:>10.0}\n",
            r.name,
            r.decisions,
            r.moves_per_game,
            r.median.as_secs_f64() * 1e6,
            r.best.as_secs_f64() * 1e6,
            r.moves_per_s,
            r.evals_per_s,
            r.mean_score
        );
    }
    s += "(us/mv: wall time per move played, one decision each; tried/s: moves tried in the search)\n";
    for t in scaling {
        s += &format!(
            "self-play depth 1, {} threads: {} games, {:.1} games/s\n",
            t.threads, t.games, t.games_per_s
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_bench_is_deterministic_and_counts_its_work() {
        let cases = [DepthCase {
            depth: 1,
            games: 2,
            move_limit: Some(50),
        }];
        let rows = depths(&cases, 2, &reference_player()).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].decisions, 100);
        assert!(rows[0].moves_per_s > 0.0 && rows[0].evals_per_s > 0.0);
        let scaling = threads(0, 8, &[1, 2], &reference_player()).unwrap();
        assert_eq!(scaling.len(), 2);
        assert!(
            table(&rows, &scaling, "reference weights").contains("depth 1 (2 games x 50 moves)")
        );
    }
}
