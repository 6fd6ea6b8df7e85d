//! Players built from the files a command names: a built-in player from
//! weights with a values file set on top ([`builtin`]), a learned network's
//! player ([`network`]), an external program with values for the
//! parameters it declares ([`external`]), and the values files themselves
//! ([`load_values`]: a `.set` file or a `best-params.json`). Which files
//! and settings go with which player is the command line's to say.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::external::protocol::{check_name, parse_number};
use super::values::{ParamValues, ValuesError};
use super::{NetworkFile, Player, PlayerError, Program};
use crate::heuristic::Weights;
use crate::search::Settings;

/// Why a player could not be built.
#[derive(Debug, thiserror::Error)]
pub enum LineupError {
    /// A file or value that does not fit the player (bad input).
    #[error("{0}")]
    Invalid(String),
    /// A `.set` file that cannot be read.
    #[error("{}: cannot read it: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// The program could not be started or did not declare its parameters.
    #[error(transparent)]
    Player(#[from] Box<PlayerError>),
}

/// The built-in player with `weights` and `settings`, and the values of
/// the file `values` (if given) set on top by name, terms and settings
/// alike; the result must be valid weights and settings.
pub fn builtin(
    weights: &Weights,
    settings: Settings,
    values: Option<&Path>,
) -> Result<Player, LineupError> {
    let mut player = Player::Builtin {
        weights: weights.clone(),
        settings,
    };
    let Some(path) = values else {
        return Ok(player);
    };
    let invalid = |message: String| LineupError::Invalid(format!("{}: {message}", path.display()));
    for (name, v) in load_values(path)? {
        player
            .set(&name, v)
            .ok_or_else(|| invalid(format!("the built-in player has no parameter `{name}`")))?;
    }
    if let Player::Builtin { weights, settings } = &player {
        if let Err((name, why)) = weights.validate() {
            return Err(invalid(format!("`{name}`: {why}")));
        }
        if let Err((name, must)) = settings.validate() {
            return Err(invalid(format!("`{name}` must be {must}")));
        }
    }
    Ok(player)
}

/// The built-in search scoring leaves with the learned network at `path`.
pub fn network(path: &Path, settings: Settings) -> Result<Player, LineupError> {
    let network = NetworkFile::load(path).map_err(|e| LineupError::Invalid(e.to_string()))?;
    Ok(Player::Network { network, settings })
}

/// `program` with the values of the file `values` (if given), each of which
/// must name a parameter the program declares: the program is started to
/// ask it.
pub fn external(program: Program, values: Option<&Path>) -> Result<Player, LineupError> {
    let loaded = match values {
        Some(path) => load_values(path)?,
        None => Default::default(),
    };
    let declared = super::external::describe(&program)?;
    for name in loaded.keys() {
        if !declared.iter().any(|d| &d.name == name) {
            return Err(LineupError::Invalid(format!(
                "{}: `{}` declares no parameter `{name}`",
                values.expect("values came from a file").display(),
                program.name()
            )));
        }
    }
    Ok(Player::External {
        program,
        values: loaded,
    })
}

/// Parameter values from a file: `set NAME VALUE` lines (a `.set` file) or
/// a `best-params.json`.
pub fn load_values(path: &Path) -> Result<BTreeMap<String, f64>, LineupError> {
    if path.extension().is_none_or(|e| e != "set") {
        return Ok(ParamValues::load(path)?.params);
    }
    let text = std::fs::read_to_string(path).map_err(|error| LineupError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut values = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let parsed = match words.as_slice() {
            ["set", name, value] => check_name(name)
                .ok()
                .and(parse_number(value))
                .map(|v| (name.to_string(), v)),
            _ => None,
        };
        let Some((name, v)) = parsed else {
            return Err(LineupError::Invalid(format!(
                "{}:{}: expected `set NAME VALUE`, found `{line}`",
                path.display(),
                n + 1
            )));
        };
        values.insert(name, v);
    }
    Ok(values)
}
