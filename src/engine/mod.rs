//! The game: pure, allocation-free rules. No rayon, serde I/O or global RNG.

pub mod board;
pub mod game;
pub mod grid;
pub mod perft;
pub mod spawn;
pub mod tables;

pub use board::{rank_of, value_of, Board, Direction, Moved, PlaceError};
pub use game::{play_from, play_game, GameRecord, Outcome, Policy, Start, TurnOrder};
pub use spawn::{Placer, RandomPlacer, ScriptedPlacer, Spawn, Timing, Variant};
