//! BOJ 28489, the twos game over a pipe: the judge prints a cell P in 1..=16
//! (row-major from the top left) where a 2 appears; the player answers `UP`,
//! `DOWN`, `LEFT` or `RIGHT` and flushes; the judge prints `-1` when no move
//! is left. Both ends live here, beside the adversarial protocol
//! ([`crate::adversarial::protocol`]); `tune2048 interact` and `tune2048
//! judge` parse their flags, call them and print.
//!
//! - [`protocol`]: the words of the protocol, the judge's and the player's;
//! - [`player`]: our player's end: a whole session ([`player::play_judge`])
//!   with its clock and per-move trace, and the default network;
//! - [`judge`]: a local judge: games against a player program, run as a
//!   [`crate::child::Child`], their verdicts and their CSV.

pub mod judge;
pub mod player;
pub mod protocol;

pub use judge::{judge_games, JudgeOptions, JudgeSummary, JudgedGame};
pub use player::{play_judge, Pace, PlayOptions, SessionError};
pub use protocol::{legal_answer, parse_word, JudgeWord};
