//! Players: an evaluation for each role plus how deep they search. Built-in
//! players are named; a weights file of the parametric heuristic is a player
//! with the same evaluation in both roles, and a player file pairs a
//! defender's weights file with an attacker's.

use std::path::Path;

use serde::Deserialize;

use super::eval::Eval;
use super::rules::Side;
use super::search::Limits;
use crate::heuristic::{weights, Heuristic, Weights, WeightsError};
use crate::loader::{self, ron_message};

/// Names of the built-in players.
pub const BUILTIN: [&str; 3] = ["score", "eval1", "eval2"];

/// A player of either side.
#[derive(Clone)]
pub struct Player {
    pub name: String,
    /// The evaluation it searches with when defending.
    pub defend: Eval,
    /// The evaluation it searches with when attacking (it minimises it).
    pub attack: Eval,
    /// Fixed plies (as defender, as attacker) that override the match's
    /// search limit, for players defined by their depth.
    pub fixed_plies: Option<(u32, u32)>,
}

/// A player file: a defender's and an attacker's weights files, each
/// relative to the player file's folder.
///
/// ```ron
/// Player(defender: "gpcc-defender.ron", attacker: "gpcc-attacker.ron")
/// ```
#[derive(Debug, Deserialize)]
#[serde(rename = "Player", deny_unknown_fields)]
struct PlayerFile {
    defender: String,
    attacker: String,
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
            defend: eval.clone(),
            attack: eval,
            fixed_plies,
        })
    }

    /// A player whose evaluation in both roles is 1000 × score + the
    /// heuristic of `weights`.
    pub fn from_weights(name: &str, weights: &Weights) -> Player {
        Player::from_heuristic(name, Heuristic::new(weights))
    }

    /// [`Player::from_weights`] with the heuristic already built.
    pub fn from_heuristic(name: &str, heuristic: Heuristic) -> Player {
        let eval = Eval::Heuristic(Box::new(heuristic));
        Player {
            name: name.to_string(),
            defend: eval.clone(),
            attack: eval,
            fixed_plies: None,
        }
    }

    /// A built-in name, else the path of a player file or a weights file.
    pub fn load(spec: &str) -> Result<Player, WeightsError> {
        if let Some(p) = Player::builtin(spec) {
            return Ok(p);
        }
        let path = Path::new(spec);
        let text = loader::read_text(path, &weights::KIND)?;
        let file: PlayerFile = match ron::from_str(&text) {
            Ok(file) => file,
            // Anything else must be a weights file, whose errors say more.
            Err(_) if !names_roles(&text) => {
                return Ok(Player::from_weights(spec, &Weights::from_ron(&text, spec)?))
            }
            Err(e) => {
                return Err(WeightsError::Parse {
                    path: spec.to_string(),
                    line: e.position.line,
                    column: e.position.col,
                    message: format!("player file: {}", ron_message(&e.code)),
                })
            }
        };
        let folder = path.parent().unwrap_or(Path::new(""));
        let defender = Weights::load(&folder.join(&file.defender))?;
        let attacker = Weights::load(&folder.join(&file.attacker))?;
        Ok(Player {
            name: spec.to_string(),
            defend: Eval::Heuristic(Box::new(Heuristic::new(&defender))),
            attack: Eval::Heuristic(Box::new(Heuristic::new(&attacker))),
            fixed_plies: None,
        })
    }

    /// The evaluation it searches with in the role `side`.
    pub fn eval(&self, side: Side) -> &Eval {
        match side {
            Side::Defender => &self.defend,
            Side::Attacker => &self.attack,
        }
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

/// Whether RON text looks like a player file (it names a role's file), so
/// that its errors are reported as a player file's.
fn names_roles(text: &str) -> bool {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    code.contains("defender") || code.contains("attacker")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(test: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tune2048-player-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(dir: &Path, name: &str, text: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn a_player_file_pairs_two_weights_files() {
        let dir = folder("pair");
        let mut attacker = Weights::nneonneo();
        attacker.empty = 0.0;
        write(&dir, "d.ron", &Weights::nneonneo().to_ron());
        write(&dir, "a.ron", &attacker.to_ron());
        let file = write(
            &dir,
            "p.ron",
            "// a pair\nPlayer(defender: \"d.ron\", attacker: \"a.ron\")\n",
        );
        let p = Player::load(&file).unwrap();
        let board =
            crate::engine::Board::from_ranks([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        let d = Player::from_weights("d", &Weights::nneonneo());
        let a = Player::from_weights("a", &attacker);
        assert_eq!(p.defend.live(board, 4), d.defend.live(board, 4));
        assert_eq!(p.attack.live(board, 4), a.defend.live(board, 4));
        assert_ne!(p.defend.live(board, 4), p.attack.live(board, 4));
    }

    #[test]
    fn bad_files_name_the_file_and_the_field() {
        let dir = folder("bad");
        let typo = write(
            &dir,
            "p.ron",
            "Player(defender: \"d.ron\", atacker: \"a.ron\")",
        );
        let e = Player::load(&typo).err().unwrap().to_string();
        assert!(e.contains("p.ron:1:") && e.contains("player file"), "{e}");
        let missing = write(
            &dir,
            "q.ron",
            "Player(defender: \"nope.ron\", attacker: \"nope.ron\")",
        );
        let e = Player::load(&missing).err().unwrap().to_string();
        assert!(e.contains("nope.ron"), "{e}");
        let weights = write(&dir, "w.ron", "Weights(empty: oops)");
        let e = Player::load(&weights).err().unwrap().to_string();
        assert!(e.contains("w.ron:1:"), "{e}");
    }

    #[test]
    fn the_shipped_player_file_loads_both_roles() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/players/gpcc.ron");
        let p = Player::load(path.to_str().unwrap()).unwrap();
        let board =
            crate::engine::Board::from_ranks([5, 3, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_ne!(p.defend.live(board, 0), p.attack.live(board, 0));
    }
}
