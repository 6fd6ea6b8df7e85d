//! A game clock shared by the moves of a game, as `interact` spends BOJ
//! 28489's 15 seconds: each move may take the smaller of a fixed cap and
//! what is left over an estimate of the moves to come. A [`NodeClock`]
//! counts the same clock in moves tried, so that games under it replay from
//! their seed and a tuner can tune the clock's settings.

use serde::{Deserialize, Serialize};

use super::Settings;

/// What a move may spend, in milliseconds, with `left_ms` left on the game
/// clock: min(`clock_move_ms`, `left_ms` / `clock_moves_left`), never below 0.
pub fn allotment_ms(left_ms: f64, settings: &Settings) -> f64 {
    (left_ms / settings.clock_moves_left)
        .min(settings.clock_move_ms)
        .max(0.0)
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
    /// The moves a move may try with `spent` of the game's already tried:
    /// at least 1, so that every move is searched to depth 0 at least.
    pub fn allotment(&self, spent: u64, settings: &Settings) -> u64 {
        let left_ms = self.game_nodes.saturating_sub(spent) as f64 / self.nodes_per_ms;
        ((allotment_ms(left_ms, settings) * self.nodes_per_ms) as u64).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_gets_the_cap_early_and_a_share_of_what_is_left_late() {
        let s = Settings::default(); // 1.5 ms cap, 2000 moves left
        assert_eq!(allotment_ms(13_000.0, &s), 1.5);
        assert_eq!(allotment_ms(2_000.0, &s), 1.0);
        assert_eq!(allotment_ms(-5.0, &s), 0.0);
        let clock = NodeClock {
            game_nodes: 1_000_000,
            nodes_per_ms: 100.0,
        };
        assert_eq!(clock.allotment(0, &s), 150);
        assert_eq!(clock.allotment(900_000, &s), 50);
        assert_eq!(clock.allotment(2_000_000, &s), 1);
    }
}
