//! Observers see the run and own its outputs; the driver itself never prints
//! or writes a file. Every hook has a no-op default. Hooks that write return
//! their error, and the first error ends the run with that error.

use std::sync::Mutex;

use indicatif::ProgressBar;

use super::config::{Depth, Game, TuneConfig};
use super::contender::Contender;
use super::end::End;
use super::journal::Record;
use super::objective::Fitness;
use super::state::{RunResult, RunState};

/// An observer's failure, with its own chain of causes.
pub type ObserverError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Hooks called by the driver. `on_game` comes from worker threads, hence `Sync`.
pub trait Observer: Sync {
    /// The run begins (or resumes, with `replayed` journal records).
    fn on_start(&self, _config: &TuneConfig, _replayed: usize) -> Result<(), ObserverError> {
        Ok(())
    }
    /// A batch of `games` games begins to play.
    fn on_phase(&self, _name: &str, _games: u64) {}
    /// One game finished.
    fn on_game(&self) {}
    /// A result the journal does not hold yet (replayed results are not repeated).
    fn on_record(&self, _record: &Record) -> Result<(), ObserverError> {
        Ok(())
    }
    /// A generation ended; its row is `state.last()`.
    fn on_generation(&self, _state: &RunState) -> Result<(), ObserverError> {
        Ok(())
    }
    /// A contender of the final choice was scored on the reselection games.
    fn on_contender(&self, _contender: Contender, _fitness: &Fitness) {}
    /// The generations ended (the final choice made, if any).
    fn on_finish(&self, _result: &RunResult) -> Result<(), ObserverError> {
        Ok(())
    }
    /// The run ended: the final comparison played, the stop journaled.
    fn on_end(&self, _end: &End) -> Result<(), ObserverError> {
        Ok(())
    }
}

/// Several observers, called in order; the first error stops the call.
pub struct Observers<'a>(pub Vec<&'a dyn Observer>);

impl Observer for Observers<'_> {
    fn on_start(&self, config: &TuneConfig, replayed: usize) -> Result<(), ObserverError> {
        self.0.iter().try_for_each(|o| o.on_start(config, replayed))
    }
    fn on_phase(&self, name: &str, games: u64) {
        self.0.iter().for_each(|o| o.on_phase(name, games));
    }
    fn on_game(&self) {
        self.0.iter().for_each(|o| o.on_game());
    }
    fn on_record(&self, record: &Record) -> Result<(), ObserverError> {
        self.0.iter().try_for_each(|o| o.on_record(record))
    }
    fn on_generation(&self, state: &RunState) -> Result<(), ObserverError> {
        self.0.iter().try_for_each(|o| o.on_generation(state))
    }
    fn on_contender(&self, contender: Contender, fitness: &Fitness) {
        self.0
            .iter()
            .for_each(|o| o.on_contender(contender, fitness));
    }
    fn on_finish(&self, result: &RunResult) -> Result<(), ObserverError> {
        self.0.iter().try_for_each(|o| o.on_finish(result))
    }
    fn on_end(&self, end: &End) -> Result<(), ObserverError> {
        self.0.iter().try_for_each(|o| o.on_end(end))
    }
}

/// A progress bar per phase and a line per generation, on stderr.
#[derive(Default)]
pub struct Progress {
    bar: Mutex<Option<ProgressBar>>,
    /// In a staged run, the first generation past the first stage: the
    /// baseline was measured under the first stage's search, so later
    /// generations' fitness is not divided by it.
    first_stage_end: Mutex<Option<u32>>,
}

impl Progress {
    fn finish_bar(&self) {
        if let Some(bar) = self.bar.lock().expect("bar lock").take() {
            bar.finish_and_clear();
        }
    }

    /// A line on stderr above the bar (also when stderr is no terminal and
    /// the bar is hidden).
    fn println(&self, line: String) {
        match self.bar.lock().expect("bar lock").as_ref() {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

impl Observer for Progress {
    fn on_start(&self, config: &TuneConfig, replayed: usize) -> Result<(), ObserverError> {
        let what = if replayed > 0 {
            format!("resuming from {replayed} journal records")
        } else {
            "starting".to_string()
        };
        let stages: Vec<String> = config
            .stages
            .iter()
            .map(|s| {
                let length = s
                    .generations
                    .map_or(String::new(), |g| format!("{g} generations, "));
                let search = match (&config.variant, s.search.depth) {
                    (Game::Gpcc(_), Depth::Fixed(plies)) => format!("{plies} plies"),
                    (_, depth) => format!("depth {depth}"),
                };
                format!(
                    "{length}{} games per candidate at {search}",
                    s.games_per_candidate
                )
            })
            .collect();
        if config.stages.len() > 1 {
            *self.first_stage_end.lock().expect("stage lock") = config.stages[0].generations;
        }
        eprintln!(
            "{what}: {} terms, population {}; {}",
            config.params.len(),
            config.population(),
            stages.join(", then ")
        );
        Ok(())
    }

    fn on_phase(&self, name: &str, games: u64) {
        self.finish_bar();
        let bar = crate::progress::games_bar(games, name);
        *self.bar.lock().expect("bar lock") = Some(bar);
    }

    fn on_game(&self) {
        if let Some(bar) = self.bar.lock().expect("bar lock").as_ref() {
            bar.inc(1);
        }
    }

    fn on_contender(&self, contender: Contender, f: &Fitness) {
        self.println(format!(
            "reselect  {contender}: {:.1} [{:.1}, {:.1}]",
            f.value, f.ci95[0], f.ci95[1]
        ));
    }

    fn on_generation(&self, state: &RunState) -> Result<(), ObserverError> {
        self.finish_bar();
        let Some(r) = state.last() else {
            return Ok(());
        };
        let val = match r.validation {
            Some(v) => format!("val {:.1} [{:.1}, {:.1}]", v.value, v.ci95[0], v.ci95[1]),
            None => "val -".to_string(),
        };
        let best = state.best.as_ref().map_or(f64::NAN, |b| b.fitness.value);
        let past_first_stage = self
            .first_stage_end
            .lock()
            .expect("stage lock")
            .is_some_and(|end| r.generation >= end);
        let ratio = if past_first_stage {
            "the base was measured at the first stage's search".to_string()
        } else {
            format!("{:.2}x base", best / state.baseline.value)
        };
        eprintln!(
            "gen {:>3}  best {:.1}  median {:.1}  sigma {:.3}  {val}  best-val {best:.1} ({ratio})  {} games  {:.0}s",
            r.generation,
            r.best,
            r.median,
            r.sigma,
            r.games,
            r.elapsed_s,
        );
        Ok(())
    }

    fn on_finish(&self, _result: &RunResult) -> Result<(), ObserverError> {
        self.finish_bar();
        Ok(())
    }
}
