//! The end of a run: best against base on fresh paired games.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::config::TuneConfig;
use super::observer::Observer;
use super::scoring::{game_spec, stage_player};
use super::TuneError;
use crate::evaluation::{Batch, Evaluator};
use crate::player::Player;
use crate::seeds::{run_game_seed, Stream};
use crate::selfplay::{summarize, GameResult};
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

/// Plays base and best on the final stream's seeds, in one batch, as the
/// last stage plays.
pub fn compare_final(
    config: &TuneConfig,
    best: &Player,
    evaluator: &dyn Evaluator,
    observer: &dyn Observer,
) -> Result<FinalReport, TuneError> {
    let search = &config.last_stage().search;
    let batch = Batch::new(
        game_spec(config, search),
        vec![
            stage_player(config, search, &config.base),
            stage_player(config, search, best),
        ],
        (0..config.final_games)
            .map(|i| run_game_seed(config.seed, Stream::Final, 0, i.into()))
            .collect(),
    );
    observer.on_phase("final", batch.games());
    let start = Instant::now();
    let results = evaluator.evaluate(&batch, &|_| observer.on_game())?;
    let shares = results.time_shares(start.elapsed().as_secs_f64());
    let [base_games, best_games] = &results.games[..] else {
        unreachable!("two weight sets");
    };
    let scores = |g: &[GameResult]| g.iter().map(|r| r.record.score).collect::<Vec<_>>();
    let tiles = |g: &[GameResult]| g.iter().map(|r| r.record.max_tile).collect::<Vec<_>>();
    Ok(FinalReport {
        games: config.final_games,
        seed: config.seed,
        paired: Paired::compare(&scores(base_games), &scores(best_games)),
        base: summarize(base_games, shares[0]),
        best: summarize(best_games, shares[1]),
        base_scores: scores(base_games),
        best_scores: scores(best_games),
        base_max_tiles: tiles(base_games),
        best_max_tiles: tiles(best_games),
    })
}
