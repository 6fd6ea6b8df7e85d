//! A game clock shared by the moves of a game, as `interact` spends BOJ
//! 28489's 15 seconds: each move may take the smaller of a cap, which may
//! ramp up as the tiles grow, and what is left over an estimate of the
//! moves to come. A [`NodeClock`]
//! counts the same clock in moves tried, so that games under it replay from
//! their seed and a tuner can tune the clock's settings.

use serde::{Deserialize, Serialize};

use super::Settings;
use crate::engine::Board;

/// The least share of `clock_move_ms` a move gets under a ramp.
const RAMP_FLOOR: f64 = 1.0 / 16.0;

/// What a move on `board` may spend, in milliseconds, with `left_ms` left
/// on the game clock: min(cap, `left_ms` / `clock_moves_left`), never below
/// 0, where the cap is `clock_move_ms`, scaled by the ramp when
/// `clock_ramp_sum` is set (see [`Settings::clock_ramp_sum`]); a crowded
/// board's move gets `crowded_boost` times that (see
/// [`Settings::crowded_empty`]).
pub fn allotment_ms(left_ms: f64, board: Board, settings: &Settings) -> f64 {
    let boost = if board.count_empty() <= settings.crowded_empty {
        settings.crowded_boost
    } else {
        1.0
    };
    ((left_ms / settings.clock_moves_left).min(settings.clock_move_ms * ramp(board, settings))
        * boost)
        .max(0.0)
}

/// The share of `clock_move_ms` a move on `board` may take.
fn ramp(board: Board, settings: &Settings) -> f64 {
    if settings.clock_ramp_sum <= 0.0 {
        return 1.0;
    }
    let sum: u64 = board.values().iter().map(|&v| u64::from(v)).sum();
    (sum as f64 / settings.clock_ramp_sum).clamp(RAMP_FLOOR, 1.0)
}

/// A game clock in moves tried: `game_nodes` for the whole game, and
/// `nodes_per_ms` to turn the settings' milliseconds into moves tried (the
/// rate `interact` searches at on the machine it is meant for).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeClock {
    pub game_nodes: u64,
    pub nodes_per_ms: f64,
}

impl NodeClock {
    /// The moves a move on `board` may try with `spent` of the game's
    /// already tried: at least 1, so that every move is searched to depth 0
    /// at least.
    pub fn allotment(&self, spent: u64, board: Board, settings: &Settings) -> u64 {
        let left_ms = self.game_nodes.saturating_sub(spent) as f64 / self.nodes_per_ms;
        ((allotment_ms(left_ms, board, settings) * self.nodes_per_ms) as u64).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_gets_the_cap_early_and_a_share_of_what_is_left_late() {
        let s = Settings::default(); // 1.5 ms cap, 2000 moves left, no ramp
        let b = Board::EMPTY;
        assert_eq!(allotment_ms(13_000.0, b, &s), 1.5);
        assert_eq!(allotment_ms(2_000.0, b, &s), 1.0);
        assert_eq!(allotment_ms(-5.0, b, &s), 0.0);
        let clock = NodeClock {
            game_nodes: 1_000_000,
            nodes_per_ms: 100.0,
        };
        assert_eq!(clock.allotment(0, b, &s), 150);
        assert_eq!(clock.allotment(900_000, b, &s), 50);
        assert_eq!(clock.allotment(2_000_000, b, &s), 1);
    }

    #[test]
    fn the_ramp_grows_the_cap_with_the_tile_sum() {
        let s = Settings {
            clock_move_ms: 4.0,
            clock_ramp_sum: 1024.0,
            ..Settings::default()
        };
        let with = |values: &[u32]| {
            let mut all = [0; 16];
            all[..values.len()].copy_from_slice(values);
            Board::from_values(all).unwrap()
        };
        // Early boards get the floor, 1/16 of the cap.
        assert_eq!(allotment_ms(13_000.0, with(&[2, 2]), &s), 0.25);
        // Halfway up the ramp, half the cap.
        assert_eq!(allotment_ms(13_000.0, with(&[256, 256]), &s), 2.0);
        // Past its end the full cap, and the share of what is left still binds.
        assert_eq!(allotment_ms(13_000.0, with(&[1024, 512]), &s), 4.0);
        assert_eq!(allotment_ms(2_000.0, with(&[1024, 512]), &s), 1.0);
    }

    #[test]
    fn a_crowded_board_gets_the_boost() {
        let s = Settings {
            crowded_empty: 1,
            crowded_boost: 3.0,
            ..Settings::default()
        };
        let mut values = [2; 16];
        values[0] = 0;
        let one_empty = Board::from_values(values).unwrap();
        values[1] = 0;
        let two_empty = Board::from_values(values).unwrap();
        assert_eq!(allotment_ms(13_000.0, one_empty, &s), 4.5);
        assert_eq!(allotment_ms(2_000.0, one_empty, &s), 3.0);
        assert_eq!(allotment_ms(13_000.0, two_empty, &s), 1.5);
        // Off by default.
        assert_eq!(allotment_ms(13_000.0, one_empty, &Settings::default()), 1.5);
    }
}
