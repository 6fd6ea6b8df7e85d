//! The tuning loop. CMA-ES asks for a whole generation; every candidate
//! plays the same seeded games (common random numbers) in one batch; the
//! fitnesses are told back; the new distribution mean is validated on fresh
//! games. Every result goes to the observers, which journal it; replayed
//! through an optimizer with the same seed, the journal brings a stopped run
//! back to exactly where it was.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::ask_tell::{AskTell, Told};
use super::config::{Reselect, TuneConfig, TuneStage};
use super::contender::{contenders, Contender, Validated};
use super::journal::Record;
use super::objective::Fitness;
use super::observer::Observer;
use super::problem::Problem;
use super::race::{self, RaceVerdict};
use super::replay::{Replay, Replayed};
use super::scoring::{game_spec, Games, Scorer, Subject, Task, BASELINE_GENERATION};
use super::state::{Best, GenerationRow, RunResult, RunState};
use super::stop::{Standing, StopReason};
use super::TuneError;
use crate::evaluation::Evaluator;
use crate::seeds::{derive, Stream};
use crate::stats;

/// Runs (or resumes, from what `replay` holds) the tuning job.
/// `interrupt` is polled between generations.
pub fn run(
    config: &TuneConfig,
    replay: &Replay,
    evaluator: &dyn Evaluator,
    observer: &dyn Observer,
    interrupt: &AtomicBool,
) -> Result<RunResult, TuneError> {
    observer
        .on_start(config, replay.len())
        .map_err(TuneError::Output)?;
    let scorer = Scorer {
        config,
        search: config.stages[0].search,
        spec: game_spec(config, &config.stages[0].search),
        replay,
        evaluator,
        observer,
        keep_values: config.race.is_some(),
    };
    let baseline = baseline(&scorer)?;
    let mut tuner = Tuner {
        problem: Problem::new(config, baseline.fitness.value),
        scorer,
        state: RunState::new(baseline.fitness, baseline.games.into()),
        stage: 0,
        stage_start: 0,
        started: Instant::now(),
        resumed_elapsed: replay.elapsed_s(),
    };
    let stop = tuner.generations(interrupt)?;
    if let (Some(r), true) = (config.reselect, stop != StopReason::Interrupted) {
        tuner.reselect(r)?;
    }
    let result = RunResult {
        stop,
        state: tuner.state,
    };
    observer.on_finish(&result).map_err(TuneError::Output)?;
    Ok(result)
}

/// The base weights on the validation games: the level charts refer to and
/// the unit of the bound penalty.
fn baseline(scorer: &Scorer) -> Result<Replayed, TuneError> {
    let config = scorer.config;
    let task = Task {
        subject: Subject::Baseline,
        player: config.base.clone(),
        params: Default::default(),
    };
    let games = Games {
        stream: Stream::Validation,
        generation: BASELINE_GENERATION,
        first: 0,
        games: config.stages[0].validation_games.max(1),
    };
    Ok(scorer.score(&[task], games, "baseline")?.swap_remove(0))
}

struct Tuner<'a> {
    problem: Problem<'a>,
    scorer: Scorer<'a>,
    state: RunState,
    started: Instant,
    /// Wall time of the run before this process took it up.
    resumed_elapsed: f64,
    /// The stage in force, and the generation it began with.
    stage: usize,
    stage_start: u32,
}

impl Tuner<'_> {
    fn config(&self) -> &TuneConfig {
        self.problem.config()
    }

    fn record(&self, record: Record) -> Result<(), TuneError> {
        self.scorer
            .observer
            .on_record(&record)
            .map_err(TuneError::Output)
    }

    /// The stage the run is in.
    fn stage(&self) -> &TuneStage {
        &self.config().stages[self.stage]
    }

    /// Generations until a stop rule is met, with IPOP restarts when the
    /// optimizer converges and restarts are configured, and the next stage
    /// when a stage has played its generations.
    fn generations(&mut self, interrupt: &AtomicBool) -> Result<StopReason, TuneError> {
        let mut population = self.config().population();
        let mut restart = 0u32;
        let mut start = (vec![0.0; self.problem.dim()], self.config().sigma0);
        loop {
            let mut seed = derive(
                derive(self.config().seed, Stream::Optimizer as u64),
                u64::from(restart),
            );
            if self.stage > 0 {
                seed = derive(seed, STAGE_SEEDS + self.stage as u64);
            }
            let mut cma = AskTell::new(start.0.clone(), start.1, population, seed)?;
            let told = loop {
                let told = self.generation(&mut cma, restart)?;
                self.scorer
                    .observer
                    .on_generation(&self.state)
                    .map_err(TuneError::Output)?;
                if let Some(stop) = self.config().stop.check(&self.standing(interrupt)) {
                    return Ok(stop);
                }
                let played = self.state.generations() - self.stage_start;
                if self.stage().generations.is_some_and(|g| played >= g) {
                    if self.stage + 1 == self.config().stages.len() {
                        return Ok(StopReason::Generations);
                    }
                    self.next_stage();
                    start = (told.mean.clone(), told.sigma);
                    break None;
                }
                if !told.terminated.is_empty() {
                    break Some(told);
                }
            };
            let Some(told) = told else {
                continue;
            };
            match self.config().restarts {
                Some(r) if restart < r.max_restarts => {
                    restart += 1;
                    population = ((population as f64) * r.population_factor).round() as usize;
                    start.1 = self.config().sigma0;
                    self.restart(restart, population)?;
                }
                _ => {
                    debug_assert!(!told.terminated.is_empty());
                    return Ok(StopReason::Converged);
                }
            }
        }
    }

    /// Journals an IPOP restart (once: not again when replaying).
    fn restart(&self, restart: u32, population: usize) -> Result<(), TuneError> {
        let generation = self.state.generations();
        if self.scorer.replay.has_restart(generation) {
            return Ok(());
        }
        self.record(Record::Restart {
            generation,
            restart,
            population: population as u32,
        })
    }

    /// Moves to the next stage: its games from now on, and a best and a
    /// reselection history of its own (fitness at another depth does not compare).
    fn next_stage(&mut self) {
        self.stage += 1;
        self.stage_start = self.state.generations();
        self.scorer.search = self.stage().search;
        self.scorer.spec = game_spec(self.config(), &self.stage().search);
        self.state.best = None;
        self.state.history.clear();
        self.state.since_improvement = 0;
    }

    fn standing(&self, interrupt: &AtomicBool) -> Standing {
        let row = self.state.last().expect("a generation ended");
        Standing {
            generations: self.state.generations(),
            games: self.state.games,
            judged: judged(row).value,
            since_improvement: self.state.since_improvement,
            elapsed_s: row.elapsed_s,
            interrupted: interrupt.load(Ordering::Relaxed),
        }
    }

    /// Asks for a generation, scores it, tells it, validates the new mean.
    fn generation(&mut self, cma: &mut AskTell, restart: u32) -> Result<Told, TuneError> {
        let generation = self.state.generations();
        let tasks: Vec<Task> = cma
            .ask()?
            .into_iter()
            .enumerate()
            .map(|(index, x)| self.candidate(generation, index as u32, 0, x))
            .collect();
        let scored = self.rank(generation, tasks)?;
        let told = cma.tell(
            &scored
                .iter()
                .map(|s| s.fitness.value - s.penalty)
                .collect::<Vec<_>>(),
        )?;
        let validation = self.validate(generation, restart, &told.mean)?;
        let fitness: Vec<f64> = scored.iter().map(|s| s.fitness.value).collect();
        self.end_generation(generation, restart, &fitness, &told, validation)?;
        Ok(told)
    }

    /// A task for the weights at point `x`.
    fn task(&self, subject: Subject, x: &[f64]) -> Task {
        let d = self.problem.decode(x);
        Task {
            subject,
            player: d.player,
            params: d.params,
        }
    }

    /// Candidate `index` of `generation` at point `x`, on its games from `first` on.
    fn candidate(&self, generation: u32, index: u32, first: u32, x: Vec<f64>) -> Task {
        let d = self.problem.decode(&x);
        Task {
            player: d.player,
            params: d.params,
            subject: Subject::Candidate {
                generation,
                index,
                first,
                penalty: d.penalty,
                x,
            },
        }
    }

    /// Every candidate on the generation's ranking games; with racing, the
    /// undecided ones go on in rounds until the top μ are separated.
    fn rank(&mut self, generation: u32, tasks: Vec<Task>) -> Result<Vec<Replayed>, TuneError> {
        let games = Games {
            stream: Stream::Ranking,
            generation,
            first: 0,
            games: self.stage().games_per_candidate,
        };
        let phase = format!("generation {generation}");
        let mut scored = self.scorer.score(&tasks, games, &phase)?;
        self.count(&scored);
        let Some(r) = self.config().race else {
            return Ok(scored);
        };
        let (lambda, mu) = (tasks.len(), tasks.len() / 2);
        let rounds = 1 + (r.max_games - games.games).div_ceil(r.round_games);
        let delta = race::delta_per_interval(r.delta, lambda, rounds);
        let mut verdicts = vec![RaceVerdict::Open; lambda];
        let mut played = games.games;
        loop {
            let values: Vec<Vec<f64>> = scored.iter().map(|s| s.values.clone()).collect();
            for (v, now) in verdicts
                .iter_mut()
                .zip(race::verdicts(&race::bounds(&values, delta), mu))
            {
                if *v == RaceVerdict::Open {
                    *v = now;
                }
            }
            if race::decided(&verdicts, mu) || played >= r.max_games {
                return Ok(scored);
            }
            let open: Vec<usize> = (0..lambda)
                .filter(|&i| verdicts[i] == RaceVerdict::Open)
                .collect();
            let round: Vec<Task> = open
                .iter()
                .map(|&i| {
                    let Subject::Candidate { x, .. } = &tasks[i].subject else {
                        unreachable!("ranking tasks are candidates")
                    };
                    self.candidate(generation, i as u32, played, x.clone())
                })
                .collect();
            let games = Games {
                first: played,
                games: r.round_games.min(r.max_games - played),
                ..games
            };
            let more = self.scorer.score(&round, games, &format!("{phase} race"))?;
            self.count(&more);
            for (&i, m) in open.iter().zip(more) {
                scored[i] = merge(&scored[i], m);
            }
            played += games.games;
        }
    }

    fn count(&mut self, scored: &[Replayed]) {
        self.state.games += scored.iter().map(|s| u64::from(s.games)).sum::<u64>();
    }

    /// The distribution mean on fresh games (none when validation is off).
    fn validate(
        &mut self,
        generation: u32,
        restart: u32,
        mean: &[f64],
    ) -> Result<Option<Fitness>, TuneError> {
        let stage = *self.stage();
        if stage.validation_games == 0 {
            return Ok(None);
        }
        let task = self.task(
            Subject::Validation {
                generation,
                x: mean.to_vec(),
            },
            mean,
        );
        let games = Games {
            stream: Stream::Validation,
            generation,
            first: 0,
            games: stage.validation_games,
        };
        let scored = self
            .scorer
            .score(&[task], games, &format!("validation {generation}"))?;
        self.count(&scored);
        let fitness = scored[0].fitness;
        self.state.history.push(Validated {
            generation,
            restart,
            x: mean.to_vec(),
            fitness,
        });
        Ok(Some(fitness))
    }

    /// Updates the best and the rows, and journals the generation's end.
    fn end_generation(
        &mut self,
        generation: u32,
        restart: u32,
        fitness: &[f64],
        told: &Told,
        validation: Option<Fitness>,
    ) -> Result<(), TuneError> {
        let mut sorted = fitness.to_vec();
        sorted.sort_by(f64::total_cmp);
        let replayed_elapsed = self.scorer.replay.generation_elapsed(generation);
        let row = GenerationRow {
            generation,
            restart,
            evaluations: fitness.len() as u32,
            games: self.state.games,
            best: *sorted.last().expect("population > 0"),
            median: stats::median(&sorted),
            mean: stats::mean(&sorted),
            sigma: told.sigma,
            validation,
            elapsed_s: replayed_elapsed.unwrap_or_else(|| {
                self.resumed_elapsed.max(0.0) + self.started.elapsed().as_secs_f64()
            }),
            new_best: false,
            mean_values: self.problem.decode(&told.mean).values,
        };
        let judged = judged(&row);
        let improved = self
            .state
            .best
            .as_ref()
            .is_none_or(|b| judged.value > b.fitness.value);
        if improved {
            self.state.best = Some(Best {
                chosen: Contender::Generation(generation),
                x: told.mean.clone(),
                player: self.problem.decode(&told.mean).player,
                fitness: judged,
                reselected: None,
            });
            self.state.since_improvement = 0;
        } else {
            self.state.since_improvement += 1;
        }
        if replayed_elapsed.is_none() {
            self.record(Record::Generation {
                generation,
                sigma: row.sigma,
                best: row.best,
                median: row.median,
                mean: row.mean,
                evaluations: row.evaluations,
                games: row.games,
                elapsed_s: row.elapsed_s,
            })?;
        }
        self.state.rows.push(GenerationRow {
            new_best: improved,
            ..row
        });
        Ok(())
    }

    /// Plays every contender on the same fresh games; the best becomes the run's best.
    fn reselect(&mut self, r: Reselect) -> Result<(), TuneError> {
        let entries = contenders(&self.state.history, r.top as usize);
        if entries.is_empty() {
            return Ok(());
        }
        let tasks: Vec<Task> = entries
            .iter()
            .map(|e| {
                let subject = Subject::Contender {
                    contender: e.contender,
                    x: e.x.clone(),
                };
                self.task(subject, &e.x)
            })
            .collect();
        let games = Games {
            stream: Stream::Reselect,
            generation: 0,
            first: 0,
            games: r.games,
        };
        let scored = self.scorer.score(&tasks, games, "reselect")?;
        self.count(&scored);
        let mut chosen: Option<Best> = None;
        for ((entry, task), s) in entries.into_iter().zip(tasks).zip(&scored) {
            self.scorer
                .observer
                .on_contender(entry.contender, &s.fitness);
            let better = chosen
                .as_ref()
                .is_none_or(|c| s.fitness.value > c.reselected.expect("set below").0.value);
            if better {
                chosen = Some(Best {
                    chosen: entry.contender,
                    x: entry.x,
                    player: task.player,
                    fitness: entry.validation.unwrap_or(s.fitness),
                    reselected: Some((s.fitness, scored.len())),
                });
            }
        }
        self.state.best = chosen;
        Ok(())
    }
}

/// One candidate's games so far and a further round of them, as one result.
fn merge(a: &Replayed, b: Replayed) -> Replayed {
    let mut values = a.values.clone();
    values.extend(&b.values);
    let games = a.games + b.games;
    let weight = |r: &Replayed| f64::from(r.games) / f64::from(games);
    Replayed {
        fitness: Fitness {
            value: stats::mean(&values),
            ci95: stats::mean_ci95(&values),
            mean_score: weight(a) * a.fitness.mean_score + weight(&b) * b.fitness.mean_score,
        },
        penalty: a.penalty,
        games,
        values,
    }
}

/// Stage `s > 0` seeds its optimizers with `derive(restart seed, STAGE_SEEDS + s)`.
const STAGE_SEEDS: u64 = 1 << 32;

/// A generation's judged fitness: its validation, else its best candidate.
fn judged(row: &GenerationRow) -> Fitness {
    row.validation.unwrap_or(Fitness {
        value: row.best,
        ci95: [row.best, row.best],
        mean_score: f64::NAN,
    })
}

#[cfg(test)]
mod tests;
