//! The parametric board heuristic.

pub mod tables;
pub mod terms;
pub mod weights;

pub use tables::Heuristic;

pub use weights::{Weights, WeightsError, PARAM_NAMES, TERMS};
