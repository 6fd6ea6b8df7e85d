//! The learned board value: an n-tuple network, its files, and how it is
//! learned, packed and blended.
//!
//! A tuple is a list of cells. Its table holds one weight per way of filling
//! those cells with ranks (16^n entries for n cells). The network scores an
//! afterstate (a board after a move, before the spawn) as the sum, over its
//! tuples and the 8 symmetries of the square, of the weight its cells pick:
//!
//! `value(b) = Σ_tuples Σ_symmetries w_t[index of sym(b) on t's cells]`
//!
//! Trained by temporal differences ([`learn`]), the value estimates the
//! points a game will still earn after the afterstate. A search adds the
//! points already earned on the way to a leaf (see
//! [`Network::implied_score`]), so its leaves compare as whole-game scores.
//!
//! A network may be split into stages by the largest tile: with boundaries
//! t_1 < … < t_k, a board whose largest tile is at least t_j and below
//! t_{j+1} is scored by stage j's tables (stage 0 below t_1). A boundary
//! may also ask for a second tile (`16384+8192`: a 16384 with an 8192 or
//! more beside it; [`stage`]). Each stage has
//! a full set of tables, so what a late stage learns cannot move the values
//! of the early game. Stages may be promoted as learning reaches them, each
//! starting as a copy of the one before (`promote`).
//!
//! Where each part lives, each file importing only those above it:
//!
//! - [`tuples`]: tuples as data, the named tuple sets;
//! - [`stage`]: stage boundaries, by one tile or two;
//! - `pages`: the tables' memory, in huge pages where the system gives
//!   them (a lookup at random in 256 MiB then misses no TLB);
//! - `order`: a table's two orders, play order in memory and file order
//!   on disk, and the conversion between them;
//! - [`value`]: the [`Network`] and its tables, its value and the step
//!   learning takes, and the [`Evaluate`](crate::heuristic::Evaluate) a
//!   search asks of it;
//! - [`header`]: a file's text header and its closing hash;
//! - [`packed`]: the packed file, weights rounded to a grid and deflated
//!   (`tune2048 pack`);
//! - [`deltas`]: packed stages written as their differences from the stage
//!   before (`pack --stage-deltas`);
//! - [`files`]: the one reader of full and packed files, and the writer of
//!   full ones;
//! - `promote`: stages put in use as learning reaches them;
//! - [`blend`]: the mean of networks, weight by weight (`tune2048 blend`);
//! - [`method`]: how a network learns beyond its rate (λ, coherence,
//!   restarts, lookahead, a stop tile, rounds), as its header records it;
//! - [`coherence`]: each weight's accumulated errors (temporal coherence),
//!   held beside a copy of the weight, and their file;
//! - [`error_sizes`]: the one sum of a coherence file `pack --keep` ranks
//!   weights by, streamed from the file without the rest;
//! - `lookups`: the weights one board looks up, found once for a step of
//!   learning;
//! - `learned`: what learning moves, the network's weights or the
//!   coherence's, read and stepped through a board's lookups;
//! - `staged`: what the copy games are played on lacks of the learning
//!   weights, copied out of them to be written to it later;
//! - `changed`: the lines of weights learning changed, copied out as a
//!   `staged`;
//! - `rounds`: learning in rounds as a pipeline on every thread: which
//!   game plays, which is learned and when a round's copy is written;
//! - [`lookahead`]: learning games played one chance layer deep;
//! - [`learn`]: learning by TD(λ) on afterstates, one game after another
//!   or in rounds on every core;
//! - [`folder`]: the learning folder, its lock, its progress file and its
//!   resume rule (`tune2048 learn`);
//! - [`ziap`]: a network as ziap/2048-tdl's weights file, for that program
//!   to play (`tune2048 export --format ziap`).
//!
//! A network file names a player (`player::NetworkFile`); the network
//! imports nothing above the engine but the [`Evaluate`](crate::heuristic::Evaluate)
//! trait, the bank's positions it may learn from, and the folder lock.

pub mod blend;
mod changed;
pub mod coherence;
pub mod deltas;
pub mod error_sizes;
pub mod files;
pub mod folder;
mod hashed;
pub mod header;
pub mod learn;
mod learned;
pub mod lookahead;
mod lookups;
pub mod method;
mod order;
pub mod packed;
mod pages;
mod promote;
mod rounds;
pub mod stage;
mod staged;
pub mod tuples;
pub mod value;
pub mod ziap;

#[cfg(test)]
mod learn_tests;
#[cfg(test)]
mod promote_tests;
#[cfg(test)]
mod tests;

pub use coherence::Coherence;
pub use error_sizes::ErrorSizes;
pub use folder::{sums_beside, FolderError, LearningFolder};
pub use header::FileHeader;
pub use method::{Method, Schedule};
pub use packed::{pack, KeepBy, MostLearned, Packing, Plan};
pub use stage::{parse_stages, stage_sources, stages_text, Boundary};
pub use tuples::{named_tuples, parse_tuples, TUPLE_NAMES};
pub use value::{Network, NetworkError, Trained};
