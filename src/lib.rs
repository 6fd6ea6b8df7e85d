//! tune2048: tune 2048 expectimax heuristics with CMA-ES over parallel self-play,
//! and learn n-tuple networks by self-play.
//!
//! The modules form layers, from the bottom up; a module imports only modules of
//! its own layer or below, and there is no import cycle (docs/src/design.md):
//!
//! 1. Utilities: [`seeds`] (every game's seed), [`fnv`], [`atomic_file`] (whole-file
//!    writes), [`lock`] (one writer per folder), [`loader`] (RON/JSON files with
//!    file:line:field errors), [`utc`], [`progress`] (the one progress bar over games),
//!    [`stats`] (summaries, Student t, paired comparisons), [`child`] (a program
//!    run as a child: timed reads, writes with a deadline, its group killed),
//!    [`cpu`] (a binary built for another CPU).
//! 2. Rules: [`engine`] (bitboard, move tables, N×N reference, variants, the game
//!    loop), [`maxtile`] (BOJ 12100), [`place`] (the place-a-2 puzzle).
//! 3. Evaluations: [`heuristic`] (the parametric heuristic, its weights files, and
//!    [`heuristic::Evaluate`], what a search asks of any evaluation) and
//!    [`network`] (the learned n-tuple network: its value, files, packing,
//!    blending, learning methods and learning folder).
//! 4. Search: [`search`] (expectimax, transposition table, settings, clock);
//!    [`adversarial`] (GPCC adversarial 2048: rules, alpha-beta, its protocol
//!    and referee).
//! 5. Players and games: [`player`] (the built-in player, a network, or an
//!    external program over the line protocol), [`selfplay`] (one seeded game),
//!    [`interact`] (the BOJ 28489 protocol and a local judge), [`bank`]
//!    (positions saved from games), [`evaluation`] (batches of games on a pool,
//!    chunked runs and their CSV), `cluster` (feature `mpi`: the same batches over
//!    an MPI job), [`workers`] (which of the two a command plays on), [`mod@bench`].
//! 6. Tuning: [`tune`] (CMA-ES jobs, run folders, journal, resume).
//! 7. Outputs: [`export`] (weights for other solvers), [`plot`] (charts),
//!    [`report`] (the run as one web page).
//!
//! The command line is the binary's own (`src/cli/`, in `main.rs`): flags,
//! wiring and printing over this library, which does not depend on it.

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
