//! Players: an evaluation plus how deep it searches. Built-in players are
//! named; any weights file of the parametric heuristic is a player too.

use std::path::Path;

use super::eval::Eval;
use super::rules::Side;
use super::search::Limits;
use crate::heuristic::{Heuristic, Weights, WeightsError};

/// Names of the built-in players.
pub const BUILTIN: [&str; 3] = ["score", "eval1", "eval2"];

/// A player of either side.
#[derive(Clone)]
pub struct Player {
    pub name: String,
    pub eval: Eval,
    /// Fixed plies (as defender, as attacker) that override the match's
    /// search limit, for players defined by their depth.
    pub fixed_plies: Option<(u32, u32)>,
}

impl Player {
    /// A built-in player:
    /// - `score`: the score only, searching 2 defender turns (4 plies when
    ///   defending, 5 when attacking), whatever the match's limit;
    /// - `eval1`: score, corners and edges ([`Eval::Edges`]);
    /// - `eval2`: score minus neighbour differences ([`Eval::Smooth`]).
    pub fn builtin(name: &str) -> Option<Player> {
        let (eval, fixed_plies) = match name {
            "score" => (Eval::Score, Some((4, 5))),
            "eval1" => (Eval::Edges, None),
            "eval2" => (Eval::Smooth, None),
            _ => return None,
        };
        Some(Player {
            name: name.to_string(),
            eval,
            fixed_plies,
        })
    }

    /// A player whose evaluation is 1000 × score + the heuristic of `weights`.
    pub fn from_weights(name: &str, weights: &Weights) -> Player {
        Player {
            name: name.to_string(),
            eval: Eval::Heuristic(Box::new(Heuristic::new(weights))),
            fixed_plies: None,
        }
    }

    /// A built-in name, or else the path of a weights file.
    pub fn load(spec: &str) -> Result<Player, WeightsError> {
        if let Some(p) = Player::builtin(spec) {
            return Ok(p);
        }
        let weights = Weights::load(Path::new(spec))?;
        Ok(Player::from_weights(spec, &weights))
    }

    /// The limits this player searches under in the role `side`.
    pub fn limits(&self, side: Side, match_limits: Limits) -> Limits {
        match self.fixed_plies {
            Some((defending, attacking)) => Limits::plies(match side {
                Side::Defender => defending,
                Side::Attacker => attacking,
            }),
            None => match_limits,
        }
    }
}
