//! The weights of the parametric board heuristic, and their RON file format.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Every term of the board heuristic. The score of a board is the sum of a
/// line score over its 4 rows and 4 columns plus positional terms over cells;
/// see `heuristic::tables` for the exact formula.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Constant added per line (8 lines a board): keeps live boards above the
    /// 0 that a dead end scores.
    pub lost_penalty: f64,
    /// Per empty cell of a line.
    pub empty: f64,
    /// Per tile in a run of equal, non-empty ranks (zeros skipped), for runs of 2 or more.
    pub merges: f64,
    /// Penalty on the smaller of the two directed monotonicity violations.
    pub monotonicity: f64,
    /// Ranks are raised to this power inside the monotonicity term.
    pub monotonicity_power: f64,
    /// Penalty on Σ rank^sum_power.
    pub sum: f64,
    pub sum_power: f64,
    /// Penalty on Σ |rank difference| over neighbouring non-empty tiles of a
    /// line, zeros skipped (seed 004's smoothness variant).
    pub smoothness: f64,
    /// Bonus on rank^edge_power over border cells that are not corners.
    pub edge: f64,
    /// Bonus on rank^edge_power over the four corner cells.
    pub corner: f64,
    pub edge_power: f64,
    /// Positional weights, row-major, times rank^snake_power (seed 000's snake
    /// pattern; one fixed orientation, head at the top-left corner). Read as
    /// a tuple `(…)` or a list `[…]` of 16 numbers.
    #[serde(deserialize_with = "sixteen_cells")]
    pub snake: [f64; 16],
    pub snake_power: f64,
    /// Bonus per empty cell of a line, times the line's largest rank raised
    /// to `empty_power`: empty space is worth more as the tiles grow.
    #[serde(default)]
    pub empty_scaled: f64,
    #[serde(default = "one")]
    pub empty_power: f64,
    /// Bonus on rank^merge_power over neighbouring equal tiles of a line
    /// (zeros skipped): a pending merge of big tiles is worth more.
    #[serde(default)]
    pub merge_rank: f64,
    #[serde(default = "one")]
    pub merge_power: f64,
    /// Penalty on a line that is full and has no equal neighbours.
    #[serde(default)]
    pub locked: f64,
    /// Board-level penalty −crowding·16·(filled/16)^crowding_power, filled
    /// counting the whole board's tiles. Above power 1, each tile costs more
    /// than the one before it: a nearly full board is feared more than the
    /// line terms' linear count of empties can say. Not a line term.
    #[serde(default)]
    pub crowding: f64,
    #[serde(default = "one")]
    pub crowding_power: f64,
}

/// Serde default of the powers added after the first weights files.
fn one() -> f64 {
    1.0
}

/// Accepts the 16 snake weights as a RON tuple or list.
fn sixteen_cells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f64; 16], D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Cells {
        Tuple([f64; 16]),
        List(Vec<f64>),
    }
    match Cells::deserialize(d)? {
        Cells::Tuple(cells) => Ok(cells),
        Cells::List(cells) => {
            let n = cells.len();
            cells
                .try_into()
                .map_err(|_| serde::de::Error::invalid_length(n, &"16 cell weights"))
        }
    }
}

/// Names of every tunable parameter, in a fixed order.
pub const PARAM_NAMES: [&str; 35] = [
    "lost_penalty",
    "empty",
    "merges",
    "monotonicity",
    "monotonicity_power",
    "sum",
    "sum_power",
    "smoothness",
    "edge",
    "corner",
    "edge_power",
    "snake[0]",
    "snake[1]",
    "snake[2]",
    "snake[3]",
    "snake[4]",
    "snake[5]",
    "snake[6]",
    "snake[7]",
    "snake[8]",
    "snake[9]",
    "snake[10]",
    "snake[11]",
    "snake[12]",
    "snake[13]",
    "snake[14]",
    "snake[15]",
    "snake_power",
    "empty_scaled",
    "empty_power",
    "merge_rank",
    "merge_power",
    "locked",
    "crowding",
    "crowding_power",
];

/// Errors reading or writing a weights file.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("{path}: cannot read the weights file")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: field `{field}`: {message}")]
    Invalid {
        path: String,
        field: String,
        message: String,
    },
}

impl Weights {
    /// The reference heuristic (nneonneo/2048-ai after its 2014 CMA-ES tuning).
    pub fn nneonneo() -> Weights {
        Weights {
            lost_penalty: 200_000.0,
            empty: 270.0,
            merges: 700.0,
            monotonicity: 47.0,
            monotonicity_power: 4.0,
            sum: 11.0,
            sum_power: 3.5,
            smoothness: 0.0,
            edge: 0.0,
            corner: 0.0,
            edge_power: 1.0,
            snake: [0.0; 16],
            snake_power: 1.0,
            empty_scaled: 0.0,
            empty_power: 1.0,
            merge_rank: 0.0,
            merge_power: 1.0,
            locked: 0.0,
            crowding: 0.0,
            crowding_power: 1.0,
        }
    }

    /// The value of a parameter by name (see [`PARAM_NAMES`]).
    pub fn get(&self, name: &str) -> Option<f64> {
        // One name table (`field_mut`) serves both directions; the copy is 35 floats.
        self.clone().field_mut(name).copied()
    }

    /// Sets a parameter by name; `None` if there is no such parameter.
    pub fn set(&mut self, name: &str, value: f64) -> Option<()> {
        *self.field_mut(name)? = value;
        Some(())
    }

    fn field_mut(&mut self, name: &str) -> Option<&mut f64> {
        Some(match name {
            "lost_penalty" => &mut self.lost_penalty,
            "empty" => &mut self.empty,
            "merges" => &mut self.merges,
            "monotonicity" => &mut self.monotonicity,
            "monotonicity_power" => &mut self.monotonicity_power,
            "sum" => &mut self.sum,
            "sum_power" => &mut self.sum_power,
            "smoothness" => &mut self.smoothness,
            "edge" => &mut self.edge,
            "corner" => &mut self.corner,
            "edge_power" => &mut self.edge_power,
            "snake_power" => &mut self.snake_power,
            "empty_scaled" => &mut self.empty_scaled,
            "empty_power" => &mut self.empty_power,
            "merge_rank" => &mut self.merge_rank,
            "merge_power" => &mut self.merge_power,
            "locked" => &mut self.locked,
            "crowding" => &mut self.crowding,
            "crowding_power" => &mut self.crowding_power,
            _ => {
                let i: usize = name
                    .strip_prefix("snake[")?
                    .strip_suffix(']')?
                    .parse()
                    .ok()?;
                self.snake.get_mut(i)?
            }
        })
    }

    /// Checks that every value is finite and every power is in a sane range.
    pub fn validate(&self) -> Result<(), (String, String)> {
        for name in PARAM_NAMES {
            let v = self.get(name).expect("every listed name is a field");
            if !v.is_finite() {
                return Err((name.to_string(), format!("{v} is not a finite number")));
            }
        }
        for name in [
            "monotonicity_power",
            "sum_power",
            "edge_power",
            "snake_power",
            "empty_power",
            "merge_power",
            "crowding_power",
        ] {
            let v = self.get(name).unwrap();
            if !(0.0..=8.0).contains(&v) {
                return Err((name.to_string(), format!("{v} is outside 0..=8")));
            }
        }
        Ok(())
    }

    /// Parses weights from RON text; `path` names the source in errors.
    pub fn from_ron(text: &str, path: &str) -> Result<Weights, WeightsError> {
        let weights: Weights = ron::from_str(text).map_err(|e| WeightsError::Parse {
            path: path.to_string(),
            line: e.position.line,
            column: e.position.col,
            message: e.code.to_string(),
        })?;
        weights
            .validate()
            .map_err(|(field, message)| WeightsError::Invalid {
                path: path.to_string(),
                field,
                message,
            })?;
        Ok(weights)
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Weights::from_ron(&text, &path.display().to_string())
    }

    /// The weights as RON text, one named term a line.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(true)
            .new_line("\n".to_string())
            .indentor("    ".to_string());
        let mut text = ron::ser::to_string_pretty(self, config).expect("weights always serialize");
        text.push('\n');
        text
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_ron())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_gets_and_sets_its_own_field() {
        let mut w = Weights::nneonneo();
        for (i, name) in PARAM_NAMES.iter().enumerate() {
            w.set(name, 1000.0 + i as f64).unwrap();
        }
        for (i, name) in PARAM_NAMES.iter().enumerate() {
            assert_eq!(w.get(name), Some(1000.0 + i as f64), "{name}");
        }
        assert_eq!(w.snake[15], 1000.0 + 26.0);
        assert_eq!(w.locked, 1000.0 + 32.0);
        assert_eq!(w.crowding_power, 1000.0 + 34.0);
        assert_eq!(w.get("snake[16]"), None);
        assert_eq!(w.get("bogus"), None);
    }

    #[test]
    fn ron_round_trip_is_exact() {
        let mut w = Weights::nneonneo();
        w.snake[3] = 0.1 + 0.2;
        w.sum_power = std::f64::consts::E;
        let back = Weights::from_ron(&w.to_ron(), "mem").unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn snake_weights_read_as_a_tuple_or_a_list() {
        let mut w = Weights::nneonneo();
        w.snake[2] = 7.5;
        let text = w.to_ron();
        let tuple = text
            .lines()
            .find(|l| l.contains("snake:"))
            .unwrap()
            .to_string();
        let list = tuple.replace("snake: (", "snake: [").replace("),", "],");
        assert_eq!(
            Weights::from_ron(&text.replace(&tuple, &list), "w.ron").unwrap(),
            w
        );
        let short = list.replace("7.5, ", "");
        let err = Weights::from_ron(&text.replace(&tuple, &short), "w.ron")
            .unwrap_err()
            .to_string();
        assert!(err.contains("16 cell weights"), "{err}");
    }

    #[test]
    fn files_from_before_the_added_terms_still_load() {
        // Everything after snake_power came later.
        let added = &PARAM_NAMES[PARAM_NAMES
            .iter()
            .position(|&n| n == "snake_power")
            .unwrap()
            + 1..];
        assert_eq!(added.len(), 7);
        let text: String = Weights::nneonneo()
            .to_ron()
            .lines()
            .filter(|l| !added.iter().any(|a| l.trim_start().starts_with(a)))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(text.lines().count(), 15, "{text}");
        assert_eq!(
            Weights::from_ron(&text, "old.ron").unwrap(),
            Weights::nneonneo()
        );
    }

    #[test]
    fn unknown_fields_are_rejected_with_a_position() {
        let text = Weights::nneonneo()
            .to_ron()
            .replace("    empty:", "    emptyy:");
        let err = Weights::from_ron(&text, "w.ron").unwrap_err().to_string();
        assert!(err.starts_with("w.ron:3:"), "{err}");
        assert!(err.contains("emptyy"), "{err}");
    }
}
