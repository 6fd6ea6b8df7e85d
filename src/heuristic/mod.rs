//! The parametric board heuristic.

pub mod tables;
pub mod weights;

pub use tables::Heuristic;

pub use weights::{Weights, WeightsError, PARAM_NAMES};
