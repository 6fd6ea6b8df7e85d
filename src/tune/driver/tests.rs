//! The driver on a synthetic evaluator: a smooth, seeded score function
//! instead of games, so whole runs (restarts, reselection, resume, failing
//! outputs) take milliseconds.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use super::*;
use crate::engine::{Board, GameRecord, Outcome};
use crate::evaluation::{Batch, BatchResults, EvaluationError, Evaluator};
use crate::heuristic::Weights;
use crate::search::SearchStats;
use crate::seeds::mix64;
use crate::selfplay::GameResult;
use crate::tune::journal::{Sink, Writer};
use crate::tune::observer::Observers;
use crate::tune::outputs::JournalFile;

/// Scores a weight set by its distance from a hidden optimum, plus noise
/// drawn from the seed; counts the games it "plays".
#[derive(Default)]
struct Synthetic {
    played: AtomicU64,
    /// Fail on this batch (0-based), to test error paths.
    fail_on: Option<u64>,
    batches: AtomicU64,
    /// Scores without noise.
    exact: bool,
}

fn score(w: &Weights, seed: u64, exact: bool) -> u64 {
    let d = ((w.empty - 900.0) / 100.0).powi(2) + ((w.merges - 1500.0) / 200.0).powi(2);
    let noise = if exact {
        0.0
    } else {
        (mix64(seed) % 1000) as f64
    };
    (20_000.0 / (1.0 + d) + noise).round() as u64
}

impl Evaluator for Synthetic {
    fn evaluate(
        &self,
        batch: &Batch,
        on_game: &(dyn Fn(usize, &GameResult) + Sync),
    ) -> Result<BatchResults, EvaluationError> {
        let n = self.batches.fetch_add(1, Ordering::Relaxed);
        if self.fail_on == Some(n) {
            return Err(EvaluationError::Worker {
                worker: "synthetic".into(),
                message: "injected failure".into(),
            });
        }
        let games = batch
            .players
            .iter()
            .map(|p| p.weights().expect("a built-in player"))
            .enumerate()
            .map(|(w, weights)| {
                batch
                    .seeds
                    .iter()
                    .enumerate()
                    .map(|(s, &seed)| {
                        let r = GameResult {
                            seed,
                            start: None,
                            record: GameRecord {
                                moves: 100,
                                score: score(weights, seed, self.exact),
                                max_tile: 1024,
                                fours: 0,
                                outcome: Outcome::GameOver,
                                board: Board::EMPTY,
                            },
                            stats: SearchStats::default(),
                        };
                        on_game(w * batch.seeds.len() + s, &r);
                        r
                    })
                    .collect()
            })
            .collect();
        self.played.fetch_add(batch.games(), Ordering::Relaxed);
        Ok(BatchResults { games })
    }

    fn threads(&self) -> usize {
        1
    }
}

fn config(extra: &str) -> TuneConfig {
    let games = if extra.contains("games_per_candidate") {
        ""
    } else {
        "games_per_candidate: 8,"
    };
    let text = format!(
        r#"(
    name: "synthetic",
    variant: Classic(p4: 0.1),
    search: (depth: Fixed(0), prob_cutoff: 0.0001),
    base_weights: "weights/nneonneo.ron",
    params: [
        (name: "empty",  min: 0.0, max: 2000.0, scale: 100.0),
        (name: "merges", min: 0.0, max: 3000.0, scale: 200.0),
    ],
    objective: MeanScore,
    {games}
    population: 6,
    validation_games: 8,
    final_games: 0,
    seed: 5,
    {extra}
)"#
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/synthetic.ron");
    crate::tune::config::parse(&text, &path).expect("a valid config")
}

/// A journal kept in memory, shared with the test.
#[derive(Clone, Default)]
struct MemorySink {
    bytes: std::sync::Arc<Mutex<Vec<u8>>>,
    /// Fail the write after this many lines.
    fail_after: Option<usize>,
}

impl std::io::Write for MemorySink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.bytes.lock().unwrap();
        let lines = bytes.iter().filter(|&&b| b == b'\n').count();
        if self.fail_after.is_some_and(|n| lines >= n) {
            return Err(std::io::Error::other("no space left on the test device"));
        }
        bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink for MemorySink {
    fn sync(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl MemorySink {
    fn records(&self) -> Vec<Record> {
        let text = String::from_utf8(self.bytes.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// Runs `config` from `records`, journaling into a fresh memory sink.
fn run_from(
    config: &TuneConfig,
    records: &[Record],
    evaluator: &Synthetic,
) -> (Result<RunResult, TuneError>, MemorySink) {
    let sink = MemorySink::default();
    let journal = JournalFile::new("memory".into(), Writer::to_sink(Box::new(sink.clone())));
    let observers = Observers(vec![&journal]);
    let result = run(
        config,
        &Replay::new(records),
        evaluator,
        &observers,
        &AtomicBool::new(false),
    );
    (result, sink)
}

/// Within about one scale unit of the synthetic optimum (900, 1500).
fn assert_near_the_optimum(w: &Weights) {
    assert!((w.empty - 900.0).abs() < 150.0, "empty {}", w.empty);
    assert!((w.merges - 1500.0).abs() < 300.0, "merges {}", w.merges);
}

fn rows(result: &RunResult) -> Vec<GenerationRow> {
    // Elapsed time is the one thing a replay may not reproduce.
    let mut rows = result.state.rows.clone();
    rows.iter_mut().for_each(|r| r.elapsed_s = 0.0);
    rows
}

#[test]
fn a_run_finds_the_optimum_and_reselects() {
    let config =
        config("sigma0: 1.0, stop: (generations: 25), reselect: Some((top: 3, games: 16)),");
    let evaluator = Synthetic::default();
    let (result, sink) = run_from(&config, &[], &evaluator);
    let result = result.unwrap();
    assert_eq!(result.stop, StopReason::Generations);
    assert_eq!(result.state.generations(), 25);
    let best = result.best().unwrap();
    assert_near_the_optimum(best.player.weights().unwrap());
    assert_eq!(best.reselected.unwrap().1, 4);
    // Every game counted: baseline, 25 × (6 × 8 + 8), 4 × 16.
    assert_eq!(result.state.games, 8 + 25 * 56 + 4 * 16);
    assert_eq!(evaluator.played.load(Ordering::Relaxed), result.state.games);
    let records = sink.records();
    let evals = records
        .iter()
        .filter(|r| matches!(r, Record::Eval { .. }))
        .count();
    assert_eq!(evals, 25 * 6);
    assert_eq!(
        records
            .iter()
            .filter(|r| matches!(r, Record::Reselect { .. }))
            .count(),
        4
    );
}

#[test]
fn resume_from_any_prefix_equals_the_uninterrupted_run() {
    let config = config("sigma0: 1.0, stop: (generations: 6), reselect: Some((top: 2, games: 8)),");
    let (whole, sink) = run_from(&config, &[], &Synthetic::default());
    let whole = whole.unwrap();
    let records = sink.records();
    for cut in [0, 1, 5, 9, records.len() - 1, records.len()] {
        let evaluator = Synthetic::default();
        let (resumed, rest) = run_from(&config, &records[..cut], &evaluator);
        let resumed = resumed.unwrap();
        assert_eq!(rows(&resumed), rows(&whole), "cut at {cut}");
        assert_eq!(resumed.best(), whole.best(), "cut at {cut}");
        assert_eq!(resumed.state.games, whole.state.games);
        // Together, the prefix and what the resumed run wrote are the journal.
        let mut joined = records[..cut].to_vec();
        joined.extend(rest.records());
        let strip = |rs: &[Record]| -> Vec<Record> {
            rs.iter()
                .cloned()
                .map(|mut r| {
                    if let Record::Generation { elapsed_s, .. } = &mut r {
                        *elapsed_s = 0.0;
                    }
                    r
                })
                .collect()
        };
        assert_eq!(strip(&joined), strip(&records), "cut at {cut}");
    }
    // A complete journal replays without a single game.
    let evaluator = Synthetic::default();
    run_from(&config, &records, &evaluator).0.unwrap();
    assert_eq!(evaluator.played.load(Ordering::Relaxed), 0);
}

#[test]
fn converged_runs_restart_with_a_larger_population() {
    // Without noise and with a tiny step size every candidate scores the
    // same (scores are whole numbers), so the crate's flat-fitness criteria
    // end each restart.
    let config = config(
        "sigma0: 1e-9, stop: (generations: 200), \
         restarts: Some((max_restarts: 2, population_factor: 2.0)),",
    );
    let evaluator = Synthetic {
        exact: true,
        ..Synthetic::default()
    };
    let (result, sink) = run_from(&config, &[], &evaluator);
    let result = result.unwrap();
    assert_eq!(result.stop, StopReason::Converged);
    let restarts: Vec<(u32, u32)> = sink
        .records()
        .iter()
        .filter_map(|r| match r {
            Record::Restart {
                restart,
                population,
                ..
            } => Some((*restart, *population)),
            _ => None,
        })
        .collect();
    assert_eq!(restarts, vec![(1, 12), (2, 24)]);
    let last = result.state.last().unwrap();
    assert_eq!(last.restart, 2);
    assert_eq!(last.evaluations, 24);
}

#[test]
fn a_failing_journal_write_ends_the_run_with_its_own_message() {
    let config = config("sigma0: 1.0, stop: (generations: 5),");
    let sink = MemorySink {
        fail_after: Some(10),
        ..MemorySink::default()
    };
    let journal = JournalFile::new(
        "runs/x/journal.jsonl".into(),
        Writer::to_sink(Box::new(sink)),
    );
    let evaluator = Synthetic::default();
    let err = run(
        &config,
        &Replay::default(),
        &evaluator,
        &Observers(vec![&journal]),
        &AtomicBool::new(false),
    )
    .unwrap_err();
    let chain = format!("{:#}", anyhow::Error::new(err));
    assert!(chain.contains("runs/x/journal.jsonl"), "{chain}");
    assert!(
        chain.contains("no space left on the test device"),
        "{chain}"
    );
    // It stopped at the failure: the second generation never played.
    assert!(evaluator.played.load(Ordering::Relaxed) <= 8 + 2 * 56);
}

#[test]
fn a_failing_evaluation_ends_the_run_with_its_own_message() {
    let config = config("sigma0: 1.0, stop: (generations: 5),");
    let evaluator = Synthetic {
        fail_on: Some(3),
        ..Synthetic::default()
    };
    let (result, _) = run_from(&config, &[], &evaluator);
    let chain = format!("{:#}", anyhow::Error::new(result.unwrap_err()));
    assert!(chain.contains("injected failure"), "{chain}");
}

#[test]
fn a_race_spends_games_where_the_ranking_is_in_doubt_and_resumes_exactly() {
    let config = config(
        "sigma0: 1.0, games_per_candidate: 4, stop: (generations: 8), \
         race: Some((round_games: 4, max_games: 40, delta: 0.2)),",
    );
    let evaluator = Synthetic::default();
    let (whole, sink) = run_from(&config, &[], &evaluator);
    let whole = whole.unwrap();
    let records = sink.records();
    let rounds: Vec<(u32, u32, usize)> = records
        .iter()
        .filter_map(|r| match r {
            Record::Eval {
                generation,
                first,
                values,
                games,
                ..
            } => {
                assert_eq!(values.len(), *games as usize);
                Some((*generation, *first, values.len()))
            }
            _ => None,
        })
        .collect();
    // Every candidate plays the first round; later rounds only some of them.
    let mut thinned = 0;
    for g in 0..8 {
        let first_round = rounds.iter().filter(|r| r.0 == g && r.1 == 0).count();
        assert_eq!(first_round, 6, "generation {g}");
        let later = rounds.iter().filter(|r| r.0 == g && r.1 > 0).count();
        let last_first = rounds
            .iter()
            .filter(|r| r.0 == g)
            .map(|r| r.1)
            .max()
            .unwrap();
        let later_rounds = (last_first / 4) as usize;
        assert!(later <= 6 * later_rounds, "generation {g}");
        // A round after the first that fewer than all six candidates played.
        if later < 6 * later_rounds {
            thinned += 1;
        }
    }
    assert!(thinned > 0, "no race ever left a decided candidate out");
    let later_rounds = rounds.iter().filter(|r| r.1 > 0).count();
    assert!(later_rounds > 0, "no race went past its first round");
    // Fewer games than everyone playing max_games, more than the first round alone.
    let ranking: u64 = rounds.iter().map(|r| r.2 as u64).sum();
    assert!(ranking < 8 * 6 * 40 && ranking > 8 * 6 * 4, "{ranking}");
    assert_eq!(evaluator.played.load(Ordering::Relaxed), whole.state.games);
    for cut in [3, records.len() / 2, records.len() - 2] {
        let (resumed, _) = run_from(&config, &records[..cut], &Synthetic::default());
        let resumed = resumed.unwrap();
        assert_eq!(rows(&resumed), rows(&whole), "cut at {cut}");
        assert_eq!(resumed.best(), whole.best(), "cut at {cut}");
    }
}

#[test]
fn racing_finds_the_optimum_like_plain_selection() {
    let config = config(
        "sigma0: 1.0, games_per_candidate: 8, stop: (generations: 25), \
         race: Some((round_games: 8, max_games: 64, delta: 0.1)),",
    );
    let (result, _) = run_from(&config, &[], &Synthetic::default());
    let best = result.unwrap().state.best.unwrap();
    assert_near_the_optimum(best.player.weights().unwrap());
}

#[test]
fn stages_run_in_order_from_the_previous_mean_and_resume_exactly() {
    let config = config(
        "sigma0: 1.0, games_per_candidate: 8, stop: (generations: 50), \
         stages: [(generations: Some(4)), (generations: Some(3), games_per_candidate: Some(16), \
         validation_games: Some(12), search: Some((depth: Fixed(1), prob_cutoff: 0.001)))],",
    );
    assert_eq!(config.stages.len(), 2);
    let (whole, sink) = run_from(&config, &[], &Synthetic::default());
    let whole = whole.unwrap();
    // The last stage's generations end the run, before the global rule.
    assert_eq!(whole.stop, StopReason::Generations);
    assert_eq!(whole.state.generations(), 7);
    let records = sink.records();
    let mut means: Vec<Vec<f64>> = Vec::new();
    for r in &records {
        match r {
            Record::Eval {
                generation, games, ..
            } => {
                assert_eq!(
                    *games,
                    if *generation < 4 { 8 } else { 16 },
                    "generation {generation}"
                );
            }
            Record::Validation { generation, scored } => {
                assert_eq!(scored.games, if *generation < 4 { 8 } else { 12 });
                means.push(scored.x.clone());
            }
            _ => {}
        }
    }
    // Stage 2 begins where stage 1 ended: its first candidates surround
    // generation 3's mean, far from the origin where stage 1 began.
    let first: Vec<&Vec<f64>> = records
        .iter()
        .filter_map(|r| match r {
            Record::Eval {
                generation: 4, x, ..
            } => Some(x),
            _ => None,
        })
        .collect();
    let centre: Vec<f64> = (0..2)
        .map(|k| first.iter().map(|x| x[k]).sum::<f64>() / first.len() as f64)
        .collect();
    let gap = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .map(|(p, q)| (p - q).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    assert!(
        gap(&centre, &means[3]) < gap(&means[3], &[0.0, 0.0]),
        "{centre:?} vs {:?}",
        means[3]
    );
    // The best is of the last stage.
    assert!(matches!(whole.best().unwrap().chosen, Contender::Generation(g) if g >= 4));
    for cut in [records.len() / 3, records.len() - 1] {
        let (resumed, _) = run_from(&config, &records[..cut], &Synthetic::default());
        let resumed = resumed.unwrap();
        assert_eq!(rows(&resumed), rows(&whole), "cut at {cut}");
        assert_eq!(resumed.best(), whole.best(), "cut at {cut}");
    }
}
