//! Who makes a game's decisions. A [`Player`] is the built-in expectimax
//! player (its weights and its search settings) or an external program
//! spoken to over the line protocol ([`external`]), with values for the
//! parameters it declared. Either way a player is a base and named
//! parameter values on top of it: the tuner, the journal and every export
//! speak of those names, never of a struct's fields. [`lineup`] builds
//! players from the files a command names.

pub mod external;
pub mod lineup;
pub mod network;
pub mod values;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::Start;
use crate::heuristic::{Heuristic, Weights, PARAM_NAMES};
use crate::network::Network;
use crate::search::{Settings, SETTING_NAMES};
use crate::selfplay::{play_settings, GameResult, GameSpec};

pub use external::{PlayerError, Program};
pub use network::NetworkFile;

/// A player of solo games (the classic game and twos).
// A batch holds a handful of players: the built-in one's size costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Player {
    /// The built-in expectimax player.
    Builtin {
        weights: Weights,
        settings: Settings,
    },
    /// The built-in expectimax search scoring leaves with a learned network
    /// (`learn`) instead of the heuristic; only its settings are parameters.
    Network {
        network: NetworkFile,
        settings: Settings,
    },
    /// A program over the line protocol; `values` are sent as `set` lines
    /// before each game, the parameters left out keep their declared defaults.
    External {
        program: Program,
        values: BTreeMap<String, f64>,
    },
}

/// Every parameter name of the built-in player: its heuristic terms, then
/// its search settings.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    PARAM_NAMES.iter().copied().chain(SETTING_NAMES)
}

impl Player {
    /// The built-in player with `weights` and the default settings.
    pub fn builtin(weights: Weights) -> Player {
        Player::Builtin {
            weights,
            settings: Settings::default(),
        }
    }

    /// The value of parameter `name`; for an external player, only the
    /// values set (its defaults are the program's to say).
    pub fn get(&self, name: &str) -> Option<f64> {
        match self {
            Player::Builtin { weights, settings } => {
                weights.get(name).or_else(|| settings.get(name))
            }
            Player::Network { settings, .. } => settings.get(name),
            Player::External { values, .. } => values.get(name).copied(),
        }
    }

    /// Sets parameter `name`; `None` when a built-in player has no such
    /// parameter (an external program's names are checked at its handshake).
    pub fn set(&mut self, name: &str, value: f64) -> Option<()> {
        match self {
            Player::Builtin { weights, settings } => weights
                .set(name, value)
                .or_else(|| settings.set(name, value)),
            Player::Network { settings, .. } => settings.set(name, value),
            Player::External { values, .. } => {
                values.insert(name.to_string(), value);
                Some(())
            }
        }
    }

    /// Who the player is, for files and messages: `builtin`, or the
    /// external program's command.
    pub fn describe(&self) -> String {
        match self {
            Player::Builtin { .. } => "builtin".into(),
            Player::Network { network, .. } => format!("network {}", network.path().display()),
            Player::External { program, .. } => program.name(),
        }
    }

    /// The built-in player's weights (`None` for an external one).
    pub fn weights(&self) -> Option<&Weights> {
        match self {
            Player::Builtin { weights, .. } => Some(weights),
            Player::Network { .. } | Player::External { .. } => None,
        }
    }

    /// Ready to play: the built-in player's heuristic tables built.
    pub fn prepare(&self) -> Prepared<'_> {
        match self {
            Player::Builtin { weights, settings } => {
                Prepared::Builtin(Heuristic::new(weights), *settings)
            }
            Player::Network { network, settings } => {
                Prepared::Network(network.network(), *settings)
            }
            Player::External { program, values } => Prepared::External(program, values),
        }
    }
}

/// A player ready to play games: see [`Player::prepare`].
#[allow(clippy::large_enum_variant)]
pub enum Prepared<'a> {
    Builtin(Heuristic, Settings),
    Network(&'a Network, Settings),
    External(&'a Program, &'a BTreeMap<String, f64>),
}

impl Prepared<'_> {
    /// Plays one game from `start` (`None`: the variant's empty board) with
    /// spawns drawn from `seed`. The built-in player's settings replace the
    /// spec's cutoff and depth rule; an external player is a program of
    /// this thread's, started on first use and kept for later games.
    pub fn play(
        &self,
        spec: &GameSpec,
        seed: u64,
        start: Option<Start>,
    ) -> Result<GameResult, Box<PlayerError>> {
        match self {
            Prepared::Builtin(heuristic, settings) => {
                Ok(play_settings(spec, heuristic, settings, seed, start))
            }
            Prepared::Network(network, settings) => {
                Ok(play_settings(spec, *network, settings, seed, start))
            }
            Prepared::External(program, values) => {
                external::play(program, values, spec, seed, start)
            }
        }
    }

    /// The built-in player's heuristic (`None` for an external one).
    pub fn heuristic(&self) -> Option<&Heuristic> {
        match self {
            Prepared::Builtin(h, _) => Some(h),
            Prepared::Network(..) | Prepared::External(..) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builtin_player_names_its_terms_and_its_settings() {
        let mut p = Player::builtin(Weights::nneonneo());
        assert_eq!(p.get("empty"), Some(270.0));
        assert_eq!(p.get("prob_cutoff"), Some(1e-4));
        p.set("auto_offset", 4.0).unwrap();
        p.set("snake[3]", 2.0).unwrap();
        assert_eq!(p.get("auto_offset"), Some(4.0));
        assert_eq!(p.get("snake[3]"), Some(2.0));
        assert_eq!(p.set("depth", 1.0), None);
        let names: Vec<&str> = builtin_names().collect();
        assert!(names.contains(&"clock_move_ms") && names.contains(&"lost_penalty"));
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            names.len(),
            "no name is both a term and a setting"
        );
    }
}
