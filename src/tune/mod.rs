//! CMA-ES tuning jobs.
//!
//! The shape of a run: [`driver::run`] asks [`ask_tell::AskTell`] for a whole
//! generation, scores it through the evaluation seam ([`scoring`], which
//! replays what the journal holds and plays the rest), tells the fitnesses
//! back, validates the new mean, and checks the [`stop`] rules. It never
//! sees a path: [`observer`]s own every output ([`outputs`] for the run
//! folder's files; charts live with the plots).
//!
//! A one-generation run of a tiny job, with no observer (so no file is
//! written); `tune2048 tune` adds the observers that keep the run folder.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use tune2048::evaluation::LocalEvaluator;
//! use tune2048::tune::{config, driver, observer::Observers, replay::Replay};
//!
//! let text = r#"(
//!     name: "tiny",
//!     variant: Classic(p4: 0.1),
//!     search: (depth: Fixed(0), prob_cutoff: 0.0001),
//!     base_weights: "weights/nneonneo.ron",
//!     params: [(name: "empty", min: 0.0, max: 2000.0, scale: 100.0)],
//!     objective: MeanScore,
//!     games_per_candidate: 2,
//!     population: 4,
//!     sigma0: 0.5,
//!     stop: (generations: 1),
//!     validation_games: 2,
//!     final_games: 0,
//!     seed: 1,
//! )"#;
//! // A relative `base_weights` is read beside the config file it names.
//! let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tiny.ron");
//! let config = config::parse(text, &path)?;
//! let evaluator = LocalEvaluator::new(Some(1))?;
//! let no_stop = AtomicBool::new(false);
//! let result = driver::run(&config, &Replay::new(&[]), &evaluator, &Observers(vec![]), &no_stop)?;
//! assert_eq!(result.state.generations(), 1);
//! assert!(result.best().is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod ask_tell;
pub mod config;
pub mod contender;
pub mod driver;
pub mod end;
pub mod finish;
pub mod folder;
pub mod history;
pub mod journal;
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
