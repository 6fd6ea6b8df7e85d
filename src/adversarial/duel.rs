//! Duels: the games a tuner scores an adversarial player by. A candidate
//! (weights of the parametric heuristic) takes one role against fixed
//! opponents, over openings drawn from each game's seed. Game `index` of a
//! batch meets opponent `index mod n`, so every opponent plays the same
//! share of any batch of a multiple of n games, and which game meets whom
//! depends on the batch alone, never on the thread that plays it.

use serde::{Deserialize, Serialize};

use super::matchplay::{opening, play, MatchGame};
use super::player::Player;
use super::rules::{Rules, Side};
use super::search::Limits;
use crate::heuristic::{Heuristic, Weights};

/// A fixed opponent: a built-in player or the weights of the parametric
/// heuristic (the same evaluation in both roles).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Opponent {
    /// `score`, `eval1` or `eval2` ([`Player::builtin`]).
    Builtin(String),
    /// A weights file's content; `name` says where it came from.
    Weights { name: String, weights: Box<Weights> },
}

impl Opponent {
    pub fn name(&self) -> &str {
        match self {
            Opponent::Builtin(name) | Opponent::Weights { name, .. } => name,
        }
    }

    /// The opponent as a player (a weights opponent builds its heuristic).
    pub fn player(&self) -> Player {
        match self {
            Opponent::Builtin(name) => {
                Player::builtin(name).unwrap_or_else(|| panic!("{name:?} is not a built-in player"))
            }
            Opponent::Weights { name, weights } => Player::from_weights(name, weights),
        }
    }
}

/// How every duel of a batch is played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelSpec {
    pub rules: Rules,
    /// The candidate's role; the opponents take the other.
    pub role: Side,
    /// At least one.
    pub opponents: Vec<Opponent>,
    /// Random turns opening each game ([`opening`]).
    pub opening_turns: u32,
    /// Plies per decision, for both sides (a built-in's fixed depth wins).
    pub plies: u32,
    /// A node budget per decision (iterative deepening up to `plies`).
    pub nodes: Option<u64>,
}

impl DuelSpec {
    /// The limits every decision searches under: reproducible, never timed.
    pub fn limits(&self) -> Limits {
        Limits {
            nodes: self.nodes,
            ..Limits::plies(self.plies)
        }
    }

    /// Game `index` of a batch: the candidate, with `heuristic` in its
    /// role, against opponent `index mod n`, from the opening of `seed`.
    /// The result is the defender's game, whichever role the candidate has.
    pub fn play(&self, heuristic: &Heuristic, seed: u64, index: usize) -> MatchGame {
        let candidate = Player::from_heuristic("candidate", heuristic.clone());
        let opponent = self.opponents[index % self.opponents.len()].player();
        let open = opening(self.rules, self.opening_turns, seed);
        let (defender, attacker) = match self.role {
            Side::Defender => (&candidate, &opponent),
            Side::Attacker => (&opponent, &candidate),
        };
        play(self.rules, defender, attacker, self.limits(), &open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adversarial::matchplay;

    fn spec(role: Side) -> DuelSpec {
        DuelSpec {
            rules: Rules::Gpcc2016,
            role,
            opponents: vec![
                Opponent::Builtin("eval2".into()),
                Opponent::Weights {
                    name: "reference".into(),
                    weights: Box::new(Weights::nneonneo()),
                },
            ],
            opening_turns: 2,
            plies: 2,
            nodes: None,
        }
    }

    #[test]
    fn a_duel_is_the_match_game_of_its_opponent_and_opening() {
        let weights = Weights::nneonneo();
        let h = Heuristic::new(&weights);
        let me = Player::from_weights("candidate", &weights);
        for role in [Side::Defender, Side::Attacker] {
            let s = spec(role);
            for index in 0..4 {
                let seed = 100 + index as u64;
                let them = s.opponents[index % 2].player();
                let open = opening(s.rules, 2, seed);
                let (d, a) = match role {
                    Side::Defender => (&me, &them),
                    Side::Attacker => (&them, &me),
                };
                let expected = matchplay::play(s.rules, d, a, Limits::plies(2), &open);
                assert_eq!(s.play(&h, seed, index), expected, "{role:?} game {index}");
            }
        }
    }

    #[test]
    fn specs_travel_as_json() {
        let s = spec(Side::Attacker);
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<DuelSpec>(&text).unwrap(), s);
    }
}
