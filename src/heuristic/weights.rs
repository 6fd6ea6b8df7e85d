//! The weights of the parametric board heuristic, and their RON file format.

use std::fmt;
use std::ops::RangeInclusive;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::terms::define_weights;
use crate::loader::{self, Kind, LoadError};

define_weights! {
    /// Every term of the board heuristic. The score of a board is the sum of a
    /// line score over its 4 rows and 4 columns plus positional terms over cells;
    /// see `heuristic::tables` for the exact formula. The values after `=` are
    /// the reference heuristic's ([`Weights::nneonneo`]); a term added after
    /// the first weights files has a serde default equal to it, so that older
    /// files still load.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Weights {
        /// Constant added per line (8 lines a board): keeps live boards above the
        /// 0 that a dead end scores.
        lost_penalty: f64 = 200_000.0, c "SCORE_LOST_PENALTY";
        /// Per empty cell of a line.
        empty: f64 = 270.0, c "SCORE_EMPTY_WEIGHT";
        /// Per tile in a run of equal, non-empty ranks (zeros skipped), for runs of 2 or more.
        merges: f64 = 700.0, c "SCORE_MERGES_WEIGHT";
        /// Penalty on the smaller of the two directed monotonicity violations.
        monotonicity: f64 = 47.0, c "SCORE_MONOTONICITY_WEIGHT";
        /// Ranks are raised to this power inside the monotonicity term.
        monotonicity_power: f64 = 4.0, c "SCORE_MONOTONICITY_POWER", valid POWERS;
        /// Penalty on Σ rank^sum_power.
        sum: f64 = 11.0, c "SCORE_SUM_WEIGHT";
        sum_power: f64 = 3.5, c "SCORE_SUM_POWER", valid POWERS;
        /// Penalty on Σ |rank difference| over neighbouring non-empty tiles of a
        /// line, zeros skipped (the smoothness of a published GPCC 2015 player).
        smoothness: f64 = 0.0, c "TUNE2048_SMOOTHNESS_WEIGHT";
        /// Bonus on rank^edge_power over border cells that are not corners.
        edge: f64 = 0.0, c "TUNE2048_EDGE_WEIGHT";
        /// Bonus on rank^edge_power over the four corner cells.
        corner: f64 = 0.0, c "TUNE2048_CORNER_WEIGHT";
        edge_power: f64 = 1.0, c "TUNE2048_EDGE_POWER", valid POWERS;
        /// Positional weights, row-major, times rank^snake_power (the common snake
        /// pattern; one fixed orientation, head at the top-left corner). Read as
        /// a tuple `(…)` or a list `[…]` of 16 numbers.
        #[serde(deserialize_with = "sixteen_cells")]
        snake: [f64; 16] = [0.0; 16], c "TUNE2048_SNAKE", params [
            "snake[0]", "snake[1]", "snake[2]", "snake[3]",
            "snake[4]", "snake[5]", "snake[6]", "snake[7]",
            "snake[8]", "snake[9]", "snake[10]", "snake[11]",
            "snake[12]", "snake[13]", "snake[14]", "snake[15]",
        ];
        snake_power: f64 = 1.0, c "TUNE2048_SNAKE_POWER", valid POWERS;
        /// Bonus per empty cell of a line, times the line's largest rank raised
        /// to `empty_power`: empty space is worth more as the tiles grow.
        #[serde(default)]
        empty_scaled: f64 = 0.0, c "TUNE2048_EMPTY_SCALED_WEIGHT";
        #[serde(default = "one")]
        empty_power: f64 = 1.0, c "TUNE2048_EMPTY_POWER", valid POWERS;
        /// Bonus on rank^merge_power over neighbouring equal tiles of a line
        /// (zeros skipped): a pending merge of big tiles is worth more.
        #[serde(default)]
        merge_rank: f64 = 0.0, c "TUNE2048_MERGE_RANK_WEIGHT";
        #[serde(default = "one")]
        merge_power: f64 = 1.0, c "TUNE2048_MERGE_POWER", valid POWERS;
        /// Penalty on a line that is full and has no equal neighbours.
        #[serde(default)]
        locked: f64 = 0.0, c "TUNE2048_LOCKED_WEIGHT";
        /// Board-level penalty −crowding·16·(filled/16)^crowding_power, filled
        /// counting the whole board's tiles. Above power 1, each tile costs more
        /// than the one before it: a nearly full board is feared more than the
        /// line terms' linear count of empties can say. Not a line term.
        #[serde(default)]
        crowding: f64 = 0.0, c "TUNE2048_CROWDING_WEIGHT";
        #[serde(default = "one")]
        crowding_power: f64 = 1.0, c "TUNE2048_CROWDING_POWER", valid POWERS;
        /// The tile-value transform of the ordered terms below and of the
        /// dead-end cost: a tile of rank r is worth
        /// v(r) = r^value_power · value_base^r (v(0) = 0). Power 1 and base 2
        /// give r·2^r; power 0 and base 2 the tile's face value 2^r; base 1
        /// the plain power of the rank.
        #[serde(default = "one")]
        value_power: f64 = 1.0, c "TUNE2048_VALUE_POWER", valid POWERS;
        #[serde(default = "two")]
        value_base: f64 = 2.0, c "TUNE2048_VALUE_BASE", valid BASES;
        /// Ordered lines: every line is read towards the top-left corner
        /// (rows from the left, columns from the top), and each pair of
        /// neighbouring cells (a, b), a nearer the corner, is scored on
        /// their tile values A = v(a), B = v(b). Bonus on v of the line's
        /// first cell (the corner end).
        #[serde(default)]
        ordered_head: f64 = 0.0, c "TUNE2048_ORDERED_HEAD_WEIGHT";
        /// Bonus (A + B) on a pair in the right order: a tile followed by a
        /// smaller or equal one, or by an empty cell.
        #[serde(default)]
        ordered_right: f64 = 0.0, c "TUNE2048_ORDERED_RIGHT_WEIGHT";
        /// Further bonus A on a pair of equal tiles.
        #[serde(default)]
        ordered_equal: f64 = 0.0, c "TUNE2048_ORDERED_EQUAL_WEIGHT";
        /// Penalty (B − A) on a pair in the wrong order: a tile followed by a
        /// larger one.
        #[serde(default)]
        ordered_wrong: f64 = 0.0, c "TUNE2048_ORDERED_WRONG_WEIGHT";
        /// Penalty B on an empty cell ahead of a tile (nearer the corner).
        #[serde(default)]
        ordered_gap: f64 = 0.0, c "TUNE2048_ORDERED_GAP_WEIGHT";
        /// A board with no legal move costs this times v(largest tile on the
        /// board searched from), below the value the search gives it anyway
        /// (0, or less than every live board it scored): losing a big tile
        /// is feared in proportion to it. Not a line term; the search
        /// applies it. Never negative.
        #[serde(default)]
        dead_end: f64 = 0.0, c "TUNE2048_DEAD_END_WEIGHT", valid NON_NEGATIVE;
    }
}

/// The range of every power.
const POWERS: RangeInclusive<f64> = 0.0..=8.0;

/// The range of the tile-value base: from the rank's power alone (1) to
/// faster than the tiles' face values grow.
const BASES: RangeInclusive<f64> = 1.0..=3.0;

/// The range of a cost that is never a bonus.
const NON_NEGATIVE: RangeInclusive<f64> = 0.0..=f64::MAX;

/// Serde default of the powers added after the first weights files.
fn one() -> f64 {
    1.0
}

/// Serde default of the tile-value base.
fn two() -> f64 {
    2.0
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

/// Errors reading a weights file: the loader's, naming the file and the
/// line or field.
pub type WeightsError = LoadError;

/// What the loader calls a weights file and its fields.
pub const KIND: Kind = Kind {
    file: "weights file",
    field: "field",
};

impl Weights {
    /// The reference weights with the lost penalty and the four scored line
    /// terms at 0 and every power kept: a clean start for tests of one term.
    #[cfg(test)]
    pub fn zeroed() -> Weights {
        Weights {
            lost_penalty: 0.0,
            empty: 0.0,
            merges: 0.0,
            monotonicity: 0.0,
            sum: 0.0,
            ..Weights::nneonneo()
        }
    }

    /// The reference heuristic (nneonneo/2048-ai after its 2014 CMA-ES tuning).
    pub fn nneonneo() -> Weights {
        REFERENCE
    }

    /// The value of a parameter by name (see [`PARAM_NAMES`]).
    pub fn get(&self, name: &str) -> Option<f64> {
        let k = PARAM_NAMES.iter().position(|&n| n == name)?;
        self.fields().into_iter().flatten().nth(k).copied()
    }

    /// Sets a parameter by name; `None` if there is no such parameter.
    pub fn set(&mut self, name: &str, value: f64) -> Option<()> {
        let k = PARAM_NAMES.iter().position(|&n| n == name)?;
        *self.fields_mut().into_iter().flatten().nth(k)? = value;
        Some(())
    }

    /// Checks that every value is finite and every term with a valid range
    /// (the powers) lies in it.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let fields = self.fields();
        let values = fields.iter().flat_map(|f| f.iter());
        for (name, &v) in PARAM_NAMES.iter().zip(values) {
            if !v.is_finite() {
                return Err((name.to_string(), format!("{v} is not a finite number")));
            }
        }
        for (term, values) in TERMS.iter().zip(fields) {
            let Some(range) = &term.valid else { continue };
            for (name, &v) in term.params.iter().zip(values) {
                if !range.contains(&v) {
                    let (lo, hi) = (range.start(), range.end());
                    let message = if *hi == f64::MAX {
                        format!("{v} is below {lo}")
                    } else {
                        format!("{v} is outside {lo}..={hi}")
                    };
                    return Err((name.to_string(), message));
                }
            }
        }
        Ok(())
    }

    /// Parses weights from RON text; `path` names the source in errors.
    pub fn from_ron(text: &str, path: &str) -> Result<Weights, WeightsError> {
        let weights: Weights = loader::parse_ron(text, path)?;
        weights
            .validate()
            .map_err(|(field, message)| LoadError::invalid(path, &KIND, &field, message))?;
        Ok(weights)
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        loader::load(path, &KIND, Weights::from_ron)
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
    fn every_name_is_the_serde_field_it_sets() {
        for (i, term) in TERMS.iter().enumerate() {
            let mut w = Weights::nneonneo();
            let values: Vec<f64> = (0..term.params.len())
                .map(|j| 1000.0 + (100 * i + j) as f64)
                .collect();
            for (name, &v) in term.params.iter().zip(&values) {
                w.set(name, v).unwrap();
            }
            let text: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
            let line = if term.is_scalar() {
                format!("    {}: {},\n", term.name, text[0])
            } else {
                format!("    {}: ({}),\n", term.name, text.join(", "))
            };
            assert!(w.to_ron().contains(&line), "{line}");
        }
    }

    #[test]
    fn array_cells_are_named_by_index_and_match_the_field() {
        let w = Weights::nneonneo();
        let fields = w.fields();
        for (term, values) in TERMS.iter().zip(fields) {
            assert_eq!(term.params.len(), values.len(), "{}", term.name);
            if !term.is_scalar() {
                for (i, param) in term.params.iter().enumerate() {
                    assert_eq!(*param, format!("{}[{i}]", term.name));
                }
            }
        }
        assert_eq!(
            PARAM_NAMES.len(),
            fields.iter().map(|f| f.len()).sum::<usize>()
        );
    }

    #[test]
    fn powers_are_bounded_and_other_terms_only_finite() {
        let mut w = Weights::nneonneo();
        w.set("crowding_power", 8.5).unwrap();
        assert_eq!(
            w.validate(),
            Err(("crowding_power".into(), "8.5 is outside 0..=8".into()))
        );
        // Finiteness is checked first, over every parameter.
        w.set("snake[4]", f64::NAN).unwrap();
        assert_eq!(
            w.validate(),
            Err(("snake[4]".into(), "NaN is not a finite number".into()))
        );
        let mut w = Weights::nneonneo();
        w.set("lost_penalty", -1e300).unwrap();
        w.set("monotonicity_power", 0.0).unwrap();
        assert_eq!(w.validate(), Ok(()));
        let bounded: Vec<&str> = TERMS
            .iter()
            .filter(|t| t.valid.is_some())
            .map(|t| t.name)
            .collect();
        let named: Vec<&str> = PARAM_NAMES
            .into_iter()
            .filter(|n| n.ends_with("_power") || ["value_base", "dead_end"].contains(n))
            .collect();
        assert_eq!(bounded, named);
        assert_eq!(bounded.len(), 10);
        let mut w = Weights::nneonneo();
        w.set("dead_end", -1.0).unwrap();
        assert_eq!(
            w.validate(),
            Err(("dead_end".into(), "-1 is below 0".into()))
        );
        w.set("dead_end", 0.0).unwrap();
        w.set("value_base", 0.5).unwrap();
        assert_eq!(
            w.validate(),
            Err(("value_base".into(), "0.5 is outside 1..=3".into()))
        );
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
        assert_eq!(added.len(), 15);
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
    fn shipped_weights_files_are_written_exactly_as_to_ron_writes_them() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/weights");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let w = Weights::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(w.to_ron(), text, "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 6, "{seen} files");
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
