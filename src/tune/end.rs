//! How a run ended: the final comparison's report (`final.json`) and the
//! [`End`] the observers' last hook sees. [`super::finish`] plays the
//! comparison and calls the hook; the observers ([`super::observer`],
//! [`super::outputs`]) read the end from here, so neither imports the other.

use serde::{Deserialize, Serialize};

use super::config::TuneConfig;
use super::state::RunResult;
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

/// How a run ended, for the observers' last hook
/// ([`Observer::on_end`](super::observer::Observer::on_end)).
pub struct End<'a> {
    pub config: &'a TuneConfig,
    pub result: &'a RunResult,
    /// The final comparison: none when the run was interrupted or the
    /// config sets `final_games` to 0.
    pub report: Option<&'a FinalReport>,
}
