//! Observers see the run; the optimizer itself never prints.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::objective::Fitness;

/// One generation's numbers.
#[derive(Clone, Debug)]
pub struct GenerationReport {
    pub generation: u32,
    pub restart: u32,
    pub population: usize,
    pub sigma: f64,
    pub best: f64,
    pub median: f64,
    pub mean: f64,
    pub validation: Option<Fitness>,
    pub best_so_far: Option<f64>,
    pub baseline: f64,
    pub games: u64,
    pub elapsed_s: f64,
}

/// Hooks with no-op defaults. Called from worker threads, hence `Sync`.
pub trait Observer: Sync {
    /// A batch of `games` games begins (a generation, the baseline, the final comparison).
    fn on_phase(&self, _name: &str, _games: u64) {}
    /// One game finished.
    fn on_game(&self) {}
    fn on_generation(&self, _report: &GenerationReport) {}
    /// A contender of the final choice finished its reselection games.
    fn on_contender(&self, _label: &str, _fitness: &Fitness) {}
}

/// A progress bar per phase and a line per generation, on stderr.
pub struct Progress {
    bar: Mutex<Option<ProgressBar>>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            bar: Mutex::new(None),
        }
    }
}

impl Progress {
    fn finish(&self) {
        if let Some(bar) = self.bar.lock().expect("bar lock").take() {
            bar.finish_and_clear();
        }
    }
}

impl Observer for Progress {
    fn on_phase(&self, name: &str, games: u64) {
        self.finish();
        let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr_with_hz(4));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>14} [{bar:30}] {pos}/{len} games  {per_sec}  ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(name.to_string());
        *self.bar.lock().expect("bar lock") = Some(bar);
    }

    fn on_game(&self) {
        if let Some(bar) = self.bar.lock().expect("bar lock").as_ref() {
            bar.inc(1);
        }
    }

    fn on_contender(&self, label: &str, f: &Fitness) {
        let line = format!(
            "reselect  {label}: {:.1} [{:.1}, {:.1}]",
            f.value, f.ci95[0], f.ci95[1]
        );
        match self.bar.lock().expect("bar lock").as_ref() {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn on_generation(&self, r: &GenerationReport) {
        self.finish();
        let val = match r.validation {
            Some(v) => format!("val {:.1} [{:.1}, {:.1}]", v.value, v.ci95[0], v.ci95[1]),
            None => "val -".to_string(),
        };
        eprintln!(
            "gen {:>3}  best {:.1}  median {:.1}  sigma {:.3}  {val}  best-val {:.1} ({:.2}x base)  {} games  {:.0}s",
            r.generation,
            r.best,
            r.median,
            r.sigma,
            r.best_so_far.unwrap_or(f64::NAN),
            r.best_so_far.unwrap_or(f64::NAN) / r.baseline,
            r.games,
            r.elapsed_s,
        );
    }
}
