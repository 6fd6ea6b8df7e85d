//! The parametric board heuristic.

pub mod tables;
pub mod weights;

pub use weights::{Weights, WeightsError, PARAM_NAMES};
