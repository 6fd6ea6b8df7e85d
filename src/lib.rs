//! tune2048: tune 2048 expectimax heuristics with CMA-ES over parallel self-play.
//!
//! - [`engine`]: the rules (fast 4×4 bitboard, N×N reference, variants, game loop);
//! - [`heuristic`]: the parametric board evaluation and its weights files,
//!   and [`heuristic::Evaluate`], what a search asks of any evaluation;
//! - [`network`]: the learned n-tuple network: its value, files, packing,
//!   blending, learning and learning folder;
//! - [`search`]: expectimax with a per-thread transposition table;
//! - [`selfplay`]: one seeded game; [`evaluation`]: batches of games, in parallel;
//!   [`stats`]: their statistics; `cluster` (feature `mpi`): batches over the
//!   processes of an MPI job; [`workers`]: which of the two a command plays
//!   on; [`bank`]: positions saved from games, to start other games from;
//! - [`tune`]: CMA-ES tuning jobs, run folders, journal and resume;
//! - [`export`] and [`plot`]: weights for other solvers, and charts;
//! - [`cpu`]: what a binary built for another CPU says before it dies;
//! - beneath them all: [`lock`] (one writer per folder, the host name),
//!   [`loader`] (weights, settings and values files), [`progress`] (the
//!   progress bars' style) and [`utc`] (times as text).

pub mod adversarial;
pub mod atomic_file;
pub mod bank;
pub mod bench;
pub mod child;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod cpu;
pub mod engine;
pub mod evaluation;
pub mod export;
pub mod fnv;
pub mod heuristic;
pub mod interact;
pub mod loader;
pub mod lock;
pub mod maxtile;
pub mod network;
pub mod place;
pub mod player;
pub mod plot;
pub mod progress;
pub mod report;
pub mod search;
pub mod seeds;
pub mod selfplay;
pub mod stats;
pub mod tune;
pub mod utc;
pub mod workers;
