//! What a run knows as it goes: one row per generation, the best weights so
//! far, the validated history. Observers read it; only the driver writes it.

use super::contender::{Contender, Validated};
use super::objective::Fitness;
use super::stop::StopReason;
use crate::player::Player;

/// One generation's numbers (a row of `generations.csv`).
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationRow {
    pub generation: u32,
    pub restart: u32,
    /// Candidates evaluated (the population λ).
    pub evaluations: u32,
    /// Games played in the run so far, validation included.
    pub games: u64,
    /// Best, median and mean of the candidates' fitness (before the penalty).
    pub best: f64,
    pub median: f64,
    pub mean: f64,
    /// The step size after this generation's update.
    pub sigma: f64,
    /// The distribution mean on fresh games (`None` without validation).
    pub validation: Option<Fitness>,
    /// Wall time of the run at the end of this generation (over resumes).
    pub elapsed_s: f64,
    /// This generation set a new best.
    pub new_best: bool,
    /// The tuned parameters' values at the distribution mean after this
    /// generation, in config order.
    pub mean_values: Vec<f64>,
}

/// The best weights found, by validation (and reselection, if configured).
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    pub chosen: Contender,
    /// The point in normalized coordinates.
    pub x: Vec<f64>,
    /// The base player with the tuned parameters at the point's values.
    pub player: Player,
    /// Its validation (an averaged contender has none: its reselection stands in).
    pub fitness: Fitness,
    /// Its result on the reselection games, and how many contenders played them.
    pub reselected: Option<(Fitness, usize)>,
}

impl Best {
    /// Whether these weights are one generation's validated mean rather than
    /// an average of several (which has no validation of its own).
    pub fn is_one_generation(&self) -> bool {
        matches!(self.chosen, Contender::Generation(_))
    }
}

/// The run so far.
#[derive(Clone, Debug)]
pub struct RunState {
    /// The base weights' fitness on the validation games.
    pub baseline: Fitness,
    pub rows: Vec<GenerationRow>,
    pub best: Option<Best>,
    /// Every validated distribution mean, for reselection.
    pub history: Vec<Validated>,
    pub since_improvement: u32,
    pub games: u64,
}

impl RunState {
    pub fn new(baseline: Fitness, games: u64) -> RunState {
        RunState {
            baseline,
            rows: Vec::new(),
            best: None,
            history: Vec::new(),
            since_improvement: 0,
            games,
        }
    }

    /// Generations finished.
    pub fn generations(&self) -> u32 {
        self.rows.len() as u32
    }

    pub fn last(&self) -> Option<&GenerationRow> {
        self.rows.last()
    }
}

/// What a finished (or interrupted) run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub stop: StopReason,
    pub state: RunState,
}

impl RunResult {
    pub fn best(&self) -> Option<&Best> {
        self.state.best.as_ref()
    }
}
