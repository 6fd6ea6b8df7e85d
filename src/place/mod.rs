//! The place-a-2 puzzle: on an empty N×N board (N from 2 to 8) the player
//! places a 2 on an empty cell of its choice, then makes a move that changes
//! the board; the game ends when, after the placement, no move changes the
//! board. The goal is a target tile.
//!
//! - [`rules`]: the board (one byte a cell, no cap on tiles) and the turn;
//! - [`transcript`]: the `row col DIR` transcripts, read, written, replayed;
//! - [`exact`]: every reachable state of a small board, the largest tile
//!   proved and a shortest game to it;
//! - [`planner`]: beam search toward large targets on any board.

pub mod exact;
pub mod planner;
pub mod rules;
pub mod transcript;
