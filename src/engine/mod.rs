//! The game: pure, allocation-free rules. No rayon, serde I/O or global RNG.
//!
//! A [`Board`] is a `Copy` value of 16 four-bit ranks; a move returns the
//! new board and the points its merges earned, or `None` when it changes
//! nothing:
//!
//! ```
//! use tune2048::engine::{Board, Direction};
//!
//! let board = Board::from_values([
//!     2, 2, 4, 0, //
//!     0, 0, 0, 0, //
//!     0, 0, 0, 0, //
//!     0, 0, 0, 0, //
//! ])
//! .expect("powers of two");
//! let moved = board.make_move(Direction::Left).expect("a legal move");
//! assert_eq!(moved.board.values()[..4], [4, 4, 0, 0]);
//! assert_eq!(moved.score, 4);
//! // Every tile is already against the top edge.
//! assert!(board.make_move(Direction::Up).is_none());
//! assert_eq!(moved.board.legal_moves().count(), 3);
//! ```

pub mod board;
pub mod game;
pub mod grid;
pub mod perft;
pub mod spawn;
pub mod tables;

pub use board::{rank_of, value_of, Board, Direction, Moved, PlaceError};
pub use game::{play_from, play_game, GameRecord, Outcome, Policy, Start, Stepper, TurnOrder};
pub use spawn::{Placer, RandomPlacer, ScriptedPlacer, Spawn, Timing, Variant};
