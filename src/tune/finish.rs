//! The end of a run: best against base on fresh paired games.

use serde::{Deserialize, Serialize};

use super::config::TuneConfig;
use super::folder::{files, RunFolder};
use super::observer::Observer;
use crate::heuristic::{Heuristic, Weights};
use crate::search::SearchParams;
use crate::seeds::{run_game_seed, Stream};
use crate::selfplay::{play_many, summarize, GameResult, GameSpec};
use crate::stats::{Paired, Summary};

/// `final.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalReport {
    pub games: u32,
    pub seed: u64,
    pub base: Summary,
    pub best: Summary,
    /// best − base on the same seeds.
    pub paired: Paired,
    pub base_scores: Vec<u64>,
    pub best_scores: Vec<u64>,
    pub base_max_tiles: Vec<u32>,
    pub best_max_tiles: Vec<u32>,
}

fn spec(config: &TuneConfig) -> GameSpec {
    let mut search = SearchParams::new(config.search.depth, config.variant);
    search.prob_cutoff = config.search.prob_cutoff as f32;
    let mut spec = GameSpec::new(config.variant, search);
    spec.move_limit = config.move_limit;
    spec
}

fn play(
    config: &TuneConfig,
    weights: &Weights,
    observer: &dyn Observer,
) -> (Vec<GameResult>, Summary) {
    let seeds: Vec<u64> = (0..config.final_games)
        .map(|i| run_game_seed(config.seed, Stream::Final, 0, i.into()))
        .collect();
    let start = std::time::Instant::now();
    let results = play_many(&spec(config), &Heuristic::new(weights), &seeds, &|_| {
        observer.on_game()
    });
    let summary = summarize(&results, start.elapsed().as_secs_f64());
    (results, summary)
}

/// Plays the final comparison and writes `final.json` and `summary.txt`.
pub fn compare_final(
    config: &TuneConfig,
    folder: &RunFolder,
    best: &Weights,
    observer: &dyn Observer,
) -> anyhow::Result<FinalReport> {
    observer.on_phase("final", 2 * u64::from(config.final_games));
    let (base_games, base) = play(config, &config.base_weights, observer);
    let (best_games, best_summary) = play(config, best, observer);
    let scores = |g: &[GameResult]| g.iter().map(|r| r.record.score).collect::<Vec<_>>();
    let tiles = |g: &[GameResult]| g.iter().map(|r| r.record.max_tile).collect::<Vec<_>>();
    let report = FinalReport {
        games: config.final_games,
        seed: config.seed,
        paired: Paired::compare(&scores(&base_games), &scores(&best_games)),
        base,
        best: best_summary,
        base_scores: scores(&base_games),
        best_scores: scores(&best_games),
        base_max_tiles: tiles(&base_games),
        best_max_tiles: tiles(&best_games),
    };
    folder.write_atomic(
        files::FINAL,
        serde_json::to_string_pretty(&report)?.as_bytes(),
    )?;
    Ok(report)
}
