//! Named parameter values as a file: what a run's best player is, for any
//! player (`best-params.json`), and the formats a player reads them in:
//! the protocol's `set` lines, JSON, and a C header.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::loader::{self, Kind, LoadError};

/// A player's tuned values by name, with the player they belong to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamValues {
    /// `builtin`, or the external program's command.
    pub player: String,
    /// Every tuned parameter's value.
    pub params: BTreeMap<String, f64>,
}

/// Errors reading a values file: the loader's, naming the file and the
/// line.
pub type ValuesError = LoadError;

/// What the loader calls a values file and its fields.
pub const KIND: Kind = Kind {
    file: "values file",
    field: "value",
};

impl ParamValues {
    /// The file's JSON text (numbers read back exactly).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("values always serialize");
        text.push('\n');
        text
    }

    /// Reads a values file written by [`ParamValues::to_json`].
    pub fn load(path: &Path) -> Result<ParamValues, ValuesError> {
        loader::load(path, &KIND, loader::parse_json)
    }

    /// The protocol's `set` lines, one per value: what a player reads
    /// before a game, and what a person pastes into one.
    pub fn to_set_lines(&self) -> String {
        self.params
            .iter()
            .map(|(name, &v)| super::external::protocol::set_line(name, v))
            .collect()
    }

    /// A C/C++ header: one `#define TUNE2048_PARAM_<NAME>` per value, the
    /// name in upper case with every other character than letters and
    /// digits made `_`.
    pub fn to_c_header(&self, source: &str) -> String {
        let mut text = format!(
            "/* Tuned parameters of {}, exported by tune2048 from {source}. */\n\
             #ifndef TUNE2048_PARAMS_H\n#define TUNE2048_PARAMS_H\n\n",
            self.player
        );
        for (name, v) in &self.params {
            let _ = writeln!(text, "#define {} {}", c_name(name), c_number(*v));
        }
        text.push_str("\n#endif /* TUNE2048_PARAMS_H */\n");
        text
    }
}

/// `TUNE2048_PARAM_` and the name made a C identifier.
pub fn c_name(name: &str) -> String {
    let tail: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("TUNE2048_PARAM_{tail}")
}

/// A double literal that reads back to the same value (a `.0` or exponent
/// keeps an integer-valued number a double).
fn c_number(v: f64) -> String {
    let text = format!("{v:?}");
    if text.contains(['.', 'e', 'E']) || text.contains("inf") || text.contains("NaN") {
        text
    } else {
        format!("{text}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> ParamValues {
        ParamValues {
            player: "builtin".into(),
            params: [("empty".to_string(), 270.5), ("snake[3]".to_string(), 1e-7)]
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn values_write_as_set_lines_json_and_a_header_that_read_back() {
        let v = values();
        assert_eq!(
            v.to_set_lines(),
            "set empty 270.5\nset snake[3] 0.0000001\n"
        );
        let back: ParamValues = serde_json::from_str(&v.to_json()).unwrap();
        assert_eq!(back, v);
        let h = v.to_c_header("run/best-params.json");
        assert!(h.contains("#define TUNE2048_PARAM_EMPTY 270.5\n"), "{h}");
        assert!(h.contains("#define TUNE2048_PARAM_SNAKE_3_ 1e-7\n"), "{h}");
        assert_eq!(c_number(3.0), "3.0");
    }

    #[test]
    fn a_bad_file_names_its_line() {
        let dir = std::env::temp_dir().join(format!("t2048-values-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("v.json");
        std::fs::write(
            &path,
            "{\n \"player\": \"x\",\n \"params\": {\"a\": \"b\"}}",
        )
        .unwrap();
        let err = ParamValues::load(&path).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}:3:", path.display())), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
