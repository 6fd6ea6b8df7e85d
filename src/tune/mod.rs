//! CMA-ES tuning jobs.
//!
//! The shape of a run: [`driver::run`] asks [`ask_tell::AskTell`] for a whole
//! generation, scores it through the evaluation seam ([`scoring`], which
//! replays what the journal holds and plays the rest), tells the fitnesses
//! back, validates the new mean, and checks the [`stop`] rules. It never
//! sees a path: [`observer`]s own every output ([`outputs`] for the run
//! folder's files; charts live with the plots).

pub mod ask_tell;
pub mod config;
pub mod contender;
pub mod driver;
pub mod finish;
pub mod folder;
pub mod history;
pub mod journal;
pub mod lock;
pub mod meta;
pub mod objective;
pub mod observer;
pub mod outputs;
pub mod problem;
pub mod race;
pub mod replay;
pub mod scoring;
pub mod state;
pub mod stop;

use crate::evaluation::EvaluationError;

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    Evaluation(#[from] EvaluationError),
    #[error(transparent)]
    Optimizer(#[from] ask_tell::AskTellError),
    /// An observer failed to record or write an output.
    #[error("the run's outputs could not be written")]
    Output(#[source] observer::ObserverError),
}
