//! The end of a run: best against base on fresh paired games, the journal's
//! stop record, and the observers' last hook (what they are handed is in
//! [`super::end`]).

use std::time::Instant;

use super::config::TuneConfig;
use super::end::{End, FinalReport};
use super::journal::Record;
use super::observer::Observer;
use super::replay::Replay;
use super::scoring::{game_spec, stage_player};
use super::state::RunResult;
use super::stop::StopReason;
use super::TuneError;
use crate::evaluation::{Batch, Evaluator};
use crate::player::Player;
use crate::seeds::{run_game_seed, Stream};
use crate::selfplay::{summarize, GameResult};
use crate::stats::Paired;

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
    let results = evaluator.evaluate(&batch, &|_, _| observer.on_game())?;
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

/// The end of a run after its generations (and reselection): plays the
/// final comparison unless the run was interrupted or the config asks for
/// none, journals the stop, and hands the end to the observers, which write
/// `final.json` and `summary.txt`. The stop record comes first, so a run
/// killed between it and `final.json` is resumed and ends anew; a stop the
/// journal (`replay`) already holds is not recorded twice.
pub fn finish(
    config: &TuneConfig,
    result: &RunResult,
    replay: &Replay,
    evaluator: &dyn Evaluator,
    observer: &dyn Observer,
) -> Result<Option<FinalReport>, TuneError> {
    let interrupted = result.stop == StopReason::Interrupted;
    let report = match result.best() {
        Some(best) if !interrupted && config.final_games > 0 => {
            Some(compare_final(config, &best.player, evaluator, observer)?)
        }
        _ => None,
    };
    let stop = Record::Stop {
        reason: result.stop,
        generations: result.state.generations(),
        games: result.state.games,
        base_fitness: result.state.baseline.value,
    };
    if replay.stop() != Some(&stop) {
        observer.on_record(&stop).map_err(TuneError::Output)?;
    }
    let end = End {
        config,
        result,
        report: report.as_ref(),
    };
    observer.on_end(&end).map_err(TuneError::Output)?;
    Ok(report)
}
