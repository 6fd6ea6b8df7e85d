//! Adversarial 2048 (the GPCC 2015/2016 game): an attacker places every new
//! tile where it likes, and a defender slides. The rules are data on top of
//! the engine's game loop ([`crate::engine::play_game`]): tiles come before
//! each move, from a [`crate::engine::Placer`] that is the attacker.
//!
//! - [`rules`]: the two rule sets, positions and the moves of each side;
//! - [`perft`]: leaf counts over attacker and defender plies;
//! - [`search`]: alpha-beta negamax with a transposition table;
//! - [`eval`]: the defender's evaluations (the attacker minimises them);
//! - [`player`]: players (an evaluation per role and a search limit);
//! - [`matchplay`]: games and matches with the roles swapped;
//! - [`duel`]: a tuning candidate's games against fixed opponents;
//! - [`protocol`]: the line protocol between a referee and player programs;
//!   [`protocol_player`] is our player's end of it, [`referee`] the referee's.

pub mod duel;
pub mod eval;
pub mod matchplay;
pub mod perft;
pub mod player;
pub mod protocol;
pub mod protocol_player;
pub mod referee;
pub mod rules;
pub mod search;

pub use rules::{Action, AdversarialPosition, Rules, Side};
