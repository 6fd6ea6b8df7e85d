//! The tuning loop: CMA-ES (the `cmaes` crate) steps one generation at a
//! time; every candidate plays the same seeded games (common random numbers);
//! the distribution mean is validated on fresh games; the journal records
//! everything and, replayed through an optimizer with the same seed, brings
//! a stopped run back to exactly where it was.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use cmaes::{CMAESOptions, DVector, Mode};

use super::config::{Reselect, TuneConfig};
use super::folder::{files, RunFolder};
use super::journal::{self, Record};
use super::objective::{fitness, Fitness};
use super::observer::{GenerationReport, Observer};
use crate::heuristic::{Heuristic, Weights};
use crate::search::SearchParams;
use crate::seeds::{derive, run_game_seed, Stream};
use crate::selfplay::{play_many, GameResult, GameSpec};

/// Charts in the run folder are redrawn every this many generations (and at the end).
const PLOT_EVERY: u32 = 5;

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Generations,
    TotalGames,
    TargetFitness,
    Stagnation,
    WallTime,
    /// The optimizer converged or gave up and no restart was left.
    Converged,
    /// Ctrl-C: the generation in progress was finished and saved.
    Interrupted,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Generations => "generation limit reached",
            StopReason::TotalGames => "game budget spent",
            StopReason::TargetFitness => "target fitness reached",
            StopReason::Stagnation => "no validated improvement for too long",
            StopReason::WallTime => "wall-time budget spent",
            StopReason::Converged => "optimizer converged",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// The best weights found, by validation (and reselection, if configured).
#[derive(Clone, Debug)]
pub struct Best {
    /// The generation whose distribution mean these weights are (for an
    /// averaged contender, the last generation averaged).
    pub generation: u32,
    /// What was chosen: "generation 12" or "mean of generations 20..=22".
    pub label: String,
    pub x: Vec<f64>,
    pub weights: Weights,
    /// Its validation (an averaged contender has none: its reselection stands in).
    pub fitness: Fitness,
    /// Its result on the reselection games, and how many contenders played them.
    pub reselected: Option<(Fitness, usize)>,
}

impl Best {
    /// Whether these weights are one generation's validated mean rather than
    /// an average of several (which has no validation of its own).
    pub fn is_one_generation(&self) -> bool {
        self.label.starts_with("generation ")
    }
}

/// A generation's validated distribution mean: a contender for reselection.
struct Validated {
    generation: u32,
    restart: u32,
    x: Vec<f64>,
    fitness: Fitness,
}

/// What a finished (or interrupted) run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub stop: StopReason,
    pub generations: u32,
    pub games: u64,
    pub baseline: Option<Fitness>,
    pub best: Option<Best>,
}

/// Results of the journal, by what they answer.
#[derive(Default)]
struct Replay {
    evals: HashMap<(u32, Vec<u64>), (f64, f64, u32)>,
    validations: HashMap<u32, Record>,
    generations: HashMap<u32, Record>,
    reselects: HashMap<String, Record>,
    baseline: Option<Record>,
}

fn key(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

impl Replay {
    fn new(records: &[Record]) -> Replay {
        let mut r = Replay::default();
        for rec in records {
            match rec {
                Record::Eval {
                    generation,
                    x,
                    fitness,
                    penalty,
                    games,
                    ..
                } => {
                    r.evals
                        .insert((*generation, key(x)), (*fitness, *penalty, *games));
                }
                Record::Validation { generation, .. } => {
                    r.validations.insert(*generation, rec.clone());
                }
                Record::Generation { generation, .. } => {
                    r.generations.insert(*generation, rec.clone());
                }
                Record::Reselect { label, .. } => {
                    r.reselects.insert(label.clone(), rec.clone());
                }
                Record::Baseline { .. } => r.baseline = Some(rec.clone()),
                Record::Restart { .. } => {}
            }
        }
        r
    }
}

/// Everything a generation's evaluations share.
struct Context<'a> {
    config: &'a TuneConfig,
    spec: GameSpec,
    journal: Mutex<journal::Writer>,
    replay: Replay,
    generation: AtomicU32,
    /// Candidates finished in the current generation: (x, fitness, penalty).
    done: Mutex<Vec<(Vec<f64>, f64, f64)>>,
    games: AtomicU64,
    games_done_in_generation: AtomicU64,
    penalty_scale: f64,
}

impl Context<'_> {
    fn decode(&self, x: &[f64]) -> (Vec<f64>, f64) {
        let mut penalty = 0.0;
        let values = self
            .config
            .params
            .iter()
            .zip(x)
            .map(|(p, &xi)| {
                let v = p.init + p.scale * xi;
                let clamped = v.clamp(p.min, p.max);
                penalty += ((v - clamped) / p.scale).powi(2);
                clamped
            })
            .collect();
        (values, penalty)
    }

    fn params_map(&self, values: &[f64]) -> BTreeMap<String, f64> {
        self.config
            .params
            .iter()
            .zip(values)
            .map(|(p, &v)| (p.name.to_string(), v))
            .collect()
    }

    fn play(
        &self,
        weights: &Weights,
        stream: Stream,
        generation: u32,
        games: u32,
        observer: &dyn Observer,
    ) -> Vec<GameResult> {
        let heuristic = Heuristic::new(weights);
        let seeds: Vec<u64> = (0..games)
            .map(|i| run_game_seed(self.config.seed, stream, generation.into(), i.into()))
            .collect();
        let results = play_many(&self.spec, &heuristic, &seeds, &|_| {
            self.games_done_in_generation
                .fetch_add(1, Ordering::Relaxed);
            observer.on_game();
        });
        self.games.fetch_add(u64::from(games), Ordering::Relaxed);
        results
    }

    fn append(&self, record: &Record) -> std::io::Result<()> {
        self.journal.lock().expect("journal lock").append(record)
    }

    /// The penalized fitness CMA-ES maximizes for candidate `x`.
    fn evaluate(&self, x: &DVector<f64>, observer: &dyn Observer) -> std::io::Result<f64> {
        let generation = self.generation.load(Ordering::Relaxed);
        let x: Vec<f64> = x.iter().copied().collect();
        let (values, penalty) = self.decode(&x);
        let penalty = penalty * self.penalty_scale;
        if let Some(&(fit, pen, games)) = self.replay.evals.get(&(generation, key(&x))) {
            // Replay exactly what the optimizer saw, penalty included, even if
            // this build would compute the penalty differently.
            self.games.fetch_add(u64::from(games), Ordering::Relaxed);
            self.done.lock().expect("done lock").push((x, fit, pen));
            return Ok(fit - pen);
        }
        let weights = self.config.weights_with(&values);
        let results = self.play(
            &weights,
            Stream::Ranking,
            generation,
            self.config.games_per_candidate,
            observer,
        );
        let f = fitness(self.config.objective, &results);
        let mut done = self.done.lock().expect("done lock");
        let index = done.len() as u32;
        self.append(&Record::Eval {
            generation,
            index,
            x: x.clone(),
            params: self.params_map(&values),
            fitness: f.value,
            penalty,
            mean_score: f.mean_score,
            games: self.config.games_per_candidate,
        })?;
        done.push((x, f.value, penalty));
        Ok(f.value - penalty)
    }
}

/// Runs (or resumes) the tuning job in `folder` on the current rayon pool.
/// `interrupt` is polled between generations.
pub fn run(
    config: &TuneConfig,
    folder: &RunFolder,
    observer: &dyn Observer,
    interrupt: &AtomicBool,
) -> anyhow::Result<RunResult> {
    let started = Instant::now();
    let (records, valid_len) = journal::read(&folder.path(files::JOURNAL))?;
    let replay = Replay::new(&records);
    let resumed_elapsed = records
        .iter()
        .filter_map(|r| match r {
            Record::Generation { elapsed_s, .. } => Some(*elapsed_s),
            _ => None,
        })
        .fold(0.0, f64::max);
    let mut search = SearchParams::new(config.search.depth, config.variant);
    search.prob_cutoff = config.search.prob_cutoff as f32;
    let mut spec = GameSpec::new(config.variant, search);
    spec.move_limit = config.move_limit;
    let ctx = Context {
        config,
        spec,
        journal: Mutex::new(journal::Writer::open(
            &folder.path(files::JOURNAL),
            valid_len,
        )?),
        replay,
        generation: AtomicU32::new(0),
        done: Mutex::new(Vec::new()),
        games: AtomicU64::new(0),
        games_done_in_generation: AtomicU64::new(0),
        penalty_scale: 0.0,
    };
    let elapsed = || resumed_elapsed.max(0.0) + started.elapsed().as_secs_f64();

    // The base weights' level, for reference lines and the penalty scale:
    // leaving the bounds by one `scale` unit costs as much as the baseline's
    // fitness, enough to stop the mean drifting past a bound on noise alone.
    let validation_games = config.validation_games.max(1);
    let baseline = match &ctx.replay.baseline {
        Some(Record::Baseline {
            fitness,
            mean_score,
            games,
        }) => {
            ctx.games.fetch_add(u64::from(*games), Ordering::Relaxed);
            Fitness {
                value: *fitness,
                ci95: [*fitness, *fitness],
                mean_score: *mean_score,
            }
        }
        _ => {
            observer.on_phase("baseline", u64::from(validation_games));
            let results = ctx.play(
                &config.base_weights,
                Stream::Validation,
                u32::MAX,
                validation_games,
                observer,
            );
            let f = fitness(config.objective, &results);
            ctx.append(&Record::Baseline {
                fitness: f.value,
                mean_score: f.mean_score,
                games: validation_games,
            })?;
            f
        }
    };
    let ctx = Context {
        penalty_scale: baseline.value.abs().max(1e-9),
        ..ctx
    };

    let dim = config.params.len();
    let mut population = config.population();
    let mut restart = 0u32;
    let mut generation = 0u32;
    let mut best: Option<Best> = None;
    let mut history: Vec<Validated> = Vec::new();
    let mut since_improvement = 0u32;
    let stop = 'restarts: loop {
        let seed = derive(
            derive(config.seed, Stream::Optimizer as u64),
            u64::from(restart),
        );
        let mut cma = CMAESOptions::new(vec![0.0; dim], config.sigma0)
            .mode(Mode::Maximize)
            .population_size(population)
            .seed(seed)
            .build(|x: &DVector<f64>| ctx.evaluate(x, observer).unwrap_or(f64::NAN))
            .map_err(|e| anyhow::anyhow!("CMA-ES options rejected: {e:?}"))?;
        loop {
            ctx.generation.store(generation, Ordering::Relaxed);
            ctx.done.lock().expect("done lock").clear();
            ctx.games_done_in_generation.store(0, Ordering::Relaxed);
            observer.on_phase(
                &format!("generation {generation}"),
                u64::from(config.games_per_candidate) * population as u64
                    + u64::from(config.validation_games),
            );
            let terminated = cma.next_parallel();
            let done = std::mem::take(&mut *ctx.done.lock().expect("done lock"));
            if done.len() < population {
                anyhow::bail!("generation {generation}: a journal write failed (see above)");
            }
            let mut fits: Vec<f64> = done.iter().map(|d| d.1).collect();
            fits.sort_by(f64::total_cmp);
            let best_fit = *fits.last().expect("population > 0");
            let median = crate::stats::median(&fits);
            let mean = crate::stats::mean(&fits);

            let mean_x: Vec<f64> = cma.mean().iter().copied().collect();
            let (values, _) = ctx.decode(&mean_x);
            let weights = config.weights_with(&values);
            let validation = if config.validation_games == 0 {
                None
            } else if let Some(Record::Validation {
                fitness: f,
                fitness_ci95,
                mean_score,
                games,
                ..
            }) = ctx.replay.validations.get(&generation)
            {
                ctx.games.fetch_add(u64::from(*games), Ordering::Relaxed);
                Some(Fitness {
                    value: *f,
                    ci95: *fitness_ci95,
                    mean_score: *mean_score,
                })
            } else {
                let results = ctx.play(
                    &weights,
                    Stream::Validation,
                    generation,
                    config.validation_games,
                    observer,
                );
                let f = fitness(config.objective, &results);
                ctx.append(&Record::Validation {
                    generation,
                    x: mean_x.clone(),
                    params: ctx.params_map(&values),
                    fitness: f.value,
                    fitness_ci95: f.ci95,
                    mean_score: f.mean_score,
                    games: config.validation_games,
                })?;
                Some(f)
            };
            if let Some(v) = validation {
                history.push(Validated {
                    generation,
                    restart,
                    x: mean_x.clone(),
                    fitness: v,
                });
            }
            // Without validation, the best candidate of the generation stands in.
            let judged = validation.unwrap_or(Fitness {
                value: best_fit,
                ci95: [best_fit, best_fit],
                mean_score: f64::NAN,
            });
            if best.as_ref().is_none_or(|b| judged.value > b.fitness.value) {
                best = Some(Best {
                    generation,
                    label: format!("generation {generation}"),
                    x: mean_x.clone(),
                    weights: weights.clone(),
                    fitness: judged,
                    reselected: None,
                });
                since_improvement = 0;
                folder.write_atomic(files::BEST, weights.to_ron().as_bytes())?;
            } else {
                since_improvement += 1;
            }
            let games = ctx.games.load(Ordering::Relaxed);
            let elapsed_s = match ctx.replay.generations.get(&generation) {
                Some(Record::Generation { elapsed_s, .. }) => *elapsed_s,
                _ => elapsed(),
            };
            if !ctx.replay.generations.contains_key(&generation) {
                ctx.append(&Record::Generation {
                    generation,
                    sigma: cma.sigma(),
                    best: best_fit,
                    median,
                    mean,
                    evaluations: done.len() as u32,
                    games,
                    elapsed_s,
                })?;
            }
            observer.on_generation(&GenerationReport {
                generation,
                restart,
                population,
                sigma: cma.sigma(),
                best: best_fit,
                median,
                mean,
                validation,
                best_so_far: best.as_ref().map(|b| b.fitness.value),
                baseline: baseline.value,
                games,
                elapsed_s,
            });
            generation += 1;
            super::write_generations_csv(folder)?;
            if generation.is_multiple_of(PLOT_EVERY) {
                super::refresh_plots(folder);
            }

            let s = &config.stop;
            if s.generations.is_some_and(|g| generation >= g) {
                break 'restarts StopReason::Generations;
            }
            if s.total_games.is_some_and(|g| games >= g) {
                break 'restarts StopReason::TotalGames;
            }
            if s.target_fitness.is_some_and(|t| judged.value >= t) {
                break 'restarts StopReason::TargetFitness;
            }
            if s.stagnation.is_some_and(|n| since_improvement >= n) {
                break 'restarts StopReason::Stagnation;
            }
            if s.wall_seconds.is_some_and(|w| elapsed_s >= w) {
                break 'restarts StopReason::WallTime;
            }
            if interrupt.load(Ordering::Relaxed) {
                break 'restarts StopReason::Interrupted;
            }
            if terminated.is_some() {
                match &config.restarts {
                    Some(r) if restart < r.max_restarts => {
                        restart += 1;
                        population = ((population as f64) * r.population_factor).round() as usize;
                        if !ctx.replay.generations.contains_key(&generation) {
                            ctx.append(&Record::Restart {
                                generation,
                                restart,
                                population: population as u32,
                            })?;
                        }
                        continue 'restarts;
                    }
                    _ => break 'restarts StopReason::Converged,
                }
            }
        }
    };
    if let (Some(r), true) = (config.reselect, stop != StopReason::Interrupted) {
        if let Some(chosen) = reselect(&ctx, r, &history, observer)? {
            folder.write_atomic(files::BEST, chosen.weights.to_ron().as_bytes())?;
            best = Some(chosen);
        }
    }
    Ok(RunResult {
        stop,
        generations: generation,
        games: ctx.games.load(Ordering::Relaxed),
        baseline: Some(baseline),
        best,
    })
}

/// The contenders of reselection: the `top` generations by validation, then
/// the average of the last `top` distribution means of the last restart.
fn contenders(history: &[Validated], top: usize) -> Vec<(String, u32, Vec<f64>, Option<Fitness>)> {
    let mut ranked: Vec<&Validated> = history.iter().collect();
    ranked.sort_by(|a, b| b.fitness.value.total_cmp(&a.fitness.value));
    let mut out: Vec<_> = ranked
        .iter()
        .take(top)
        .map(|v| {
            let label = format!("generation {}", v.generation);
            (label, v.generation, v.x.clone(), Some(v.fitness))
        })
        .collect();
    let Some(last) = history.last() else {
        return out;
    };
    let tail: Vec<&Validated> = history
        .iter()
        .rev()
        .take_while(|v| v.restart == last.restart)
        .take(top)
        .collect();
    if tail.len() >= 2 {
        let first = tail.last().expect("two or more").generation;
        let mut x = vec![0.0; last.x.len()];
        for v in &tail {
            for (sum, xi) in x.iter_mut().zip(&v.x) {
                *sum += xi / tail.len() as f64;
            }
        }
        let label = format!("mean of generations {first}..={}", last.generation);
        out.push((label, last.generation, x, None));
    }
    out
}

/// Plays every contender on the same fresh games and returns the best.
fn reselect(
    ctx: &Context,
    r: Reselect,
    history: &[Validated],
    observer: &dyn Observer,
) -> anyhow::Result<Option<Best>> {
    let pool = contenders(history, r.top as usize);
    if pool.is_empty() {
        return Ok(None);
    }
    observer.on_phase("reselect", pool.len() as u64 * u64::from(r.games));
    let mut chosen: Option<Best> = None;
    for (label, generation, x, validation) in pool.iter().cloned() {
        let (values, _) = ctx.decode(&x);
        let weights = ctx.config.weights_with(&values);
        let f = if let Some(Record::Reselect {
            fitness,
            fitness_ci95,
            mean_score,
            games,
            ..
        }) = ctx.replay.reselects.get(&label)
        {
            ctx.games.fetch_add(u64::from(*games), Ordering::Relaxed);
            Fitness {
                value: *fitness,
                ci95: *fitness_ci95,
                mean_score: *mean_score,
            }
        } else {
            let results = ctx.play(&weights, Stream::Reselect, 0, r.games, observer);
            let f = fitness(ctx.config.objective, &results);
            ctx.append(&Record::Reselect {
                label: label.clone(),
                generation,
                x: x.clone(),
                params: ctx.params_map(&values),
                fitness: f.value,
                fitness_ci95: f.ci95,
                mean_score: f.mean_score,
                games: r.games,
            })?;
            f
        };
        observer.on_contender(&label, &f);
        if chosen
            .as_ref()
            .is_none_or(|c| f.value > c.reselected.expect("set below").0.value)
        {
            chosen = Some(Best {
                generation,
                label,
                x,
                weights,
                fitness: validation.unwrap_or(f),
                reselected: Some((f, pool.len())),
            });
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validated(generation: u32, restart: u32, value: f64) -> Validated {
        Validated {
            generation,
            restart,
            x: vec![f64::from(generation), -f64::from(generation)],
            fitness: Fitness {
                value,
                ci95: [value, value],
                mean_score: value,
            },
        }
    }

    #[test]
    fn contenders_are_the_top_validations_and_the_recent_mean() {
        let history = [
            validated(0, 0, 10.0),
            validated(1, 0, 30.0),
            validated(2, 1, 20.0),
            validated(3, 1, 25.0),
            validated(4, 1, 5.0),
        ];
        let pool = contenders(&history, 2);
        let labels: Vec<&str> = pool.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(
            labels,
            ["generation 1", "generation 3", "mean of generations 3..=4"]
        );
        // The mean averages generations 3 and 4 of the last restart only.
        assert_eq!(pool[2].1, 4);
        assert_eq!(pool[2].2, vec![3.5, -3.5]);
        assert!(pool[2].3.is_none());
        assert_eq!(pool[0].3.unwrap().value, 30.0);
        // A mean over a single generation would repeat it: left out.
        let pool = contenders(&history[..3], 3);
        assert_eq!(pool.len(), 3);
        assert!(pool.iter().all(|c| c.0.starts_with("generation")));
        assert!(contenders(&[], 3).is_empty());
    }
}
