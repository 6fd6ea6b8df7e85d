//! The parametric board heuristic.
//!
//! [`Weights`] name the terms; [`Heuristic`] turns one weight vector into
//! per-line tables once, and then scores a board with a few lookups:
//!
//! ```
//! use tune2048::engine::Board;
//! use tune2048::heuristic::{Heuristic, Weights};
//!
//! let h = Heuristic::new(&Weights::nneonneo());
//! // Large tiles lined up along an edge, against the same tiles scattered.
//! let tidy = Board::from_values([
//!     256, 128, 64, 32, //
//!     0, 0, 0, 2, //
//!     0, 0, 0, 0, //
//!     0, 0, 0, 0, //
//! ])
//! .unwrap();
//! let scattered = Board::from_values([
//!     256, 0, 32, 0, //
//!     0, 2, 0, 64, //
//!     0, 0, 0, 0, //
//!     128, 0, 0, 0, //
//! ])
//! .unwrap();
//! assert!(h.eval(tidy) > h.eval(scattered));
//! // Weights are set by name; new weights need new tables.
//! let mut w = Weights::nneonneo();
//! w.set("empty", 2.0 * w.get("empty").unwrap()).expect("a weight name");
//! assert!(Heuristic::new(&w).eval(tidy) > h.eval(tidy));
//! ```

pub mod tables;
pub mod terms;
pub mod weights;

pub use tables::Heuristic;

pub use weights::{Weights, WeightsError, PARAM_NAMES, TERMS};
