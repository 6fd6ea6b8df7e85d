//! One loader for the small RON and JSON files a user writes or a run
//! leaves: weights (`heuristic::weights`), search settings
//! (`search::settings`) and tuned values (`player::values`). Each is read
//! the same way, and fails the same way, with a [`LoadError`] naming the
//! file and where in it:
//!
//! - unreadable: `PATH: cannot read the weights file` (the system's reason
//!   as its cause);
//! - not text, bad syntax, an unknown field, a value of the wrong type:
//!   `PATH:LINE:COLUMN: message` ([`read_text`], [`parse_ron`], [`parse_json`]);
//! - a value out of its range: ``PATH: field `name`: message``
//!   ([`LoadError::invalid`]).
//!
//! The tuning config (`tune::config`), whose errors say more, reads its text
//! here too ([`utf8_text`], [`ron_message`]).

use std::path::Path;

use serde::de::DeserializeOwned;

/// What is loaded: the words that name the file and its fields in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// The file, as in "cannot read the weights file".
    pub file: &'static str,
    /// One of its fields, as in "field `empty`".
    pub field: &'static str,
}

/// Errors reading a weights, settings or values file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read the {}", kind.file)]
    Io {
        path: String,
        kind: &'static Kind,
        #[source]
        source: std::io::Error,
    },
    /// Not text, bad syntax, an unknown field or a value of the wrong type.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A value out of its range.
    #[error("{path}: {} `{field}`: {message}", kind.field)]
    Invalid {
        path: String,
        kind: &'static Kind,
        field: String,
        message: String,
    },
}

impl LoadError {
    /// Field `field` of the file `path` holds a value out of its range.
    pub fn invalid(path: &str, kind: &'static Kind, field: &str, message: String) -> LoadError {
        LoadError::Invalid {
            path: path.to_string(),
            kind,
            field: field.to_string(),
            message,
        }
    }
}

/// Reads the file at `path` and parses its text with `parse`, which is
/// given the text and the path as errors should name it.
pub fn load<T>(
    path: &Path,
    kind: &'static Kind,
    parse: impl FnOnce(&str, &str) -> Result<T, LoadError>,
) -> Result<T, LoadError> {
    let name = path.display().to_string();
    let text = read_text(path, kind)?;
    parse(&text, &name)
}

/// The text of the file at `path`: a [`LoadError::Io`] when it cannot be
/// read, a [`LoadError::Parse`] at the line and column where it stops
/// being UTF-8.
pub fn read_text(path: &Path, kind: &'static Kind) -> Result<String, LoadError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: name.clone(),
        kind,
        source,
    })?;
    utf8_text(bytes).map_err(|(line, column)| LoadError::Parse {
        path: name,
        line,
        column,
        message: "not UTF-8 text".into(),
    })
}

/// RON text as a `T`; `path` names the text in errors.
pub fn parse_ron<T: DeserializeOwned>(text: &str, path: &str) -> Result<T, LoadError> {
    ron::from_str(text).map_err(|e| ron_error(&e, path))
}

/// A RON error as a [`LoadError::Parse`] at its line and column.
pub fn ron_error(e: &ron::error::SpannedError, path: &str) -> LoadError {
    LoadError::Parse {
        path: path.to_string(),
        line: e.position.line,
        column: e.position.col,
        message: ron_message(&e.code),
    }
}

/// JSON text as a `T`; `path` names the text in errors (serde_json's
/// message names the line and column again).
pub fn parse_json<T: DeserializeOwned>(text: &str, path: &str) -> Result<T, LoadError> {
    serde_json::from_str(text).map_err(|e| LoadError::Parse {
        path: path.to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// A file's bytes as text, or the 1-based line and column (in characters)
/// where they stop being UTF-8.
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, (usize, usize)> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + String::from_utf8_lossy(&valid[line_start..])
            .chars()
            .count();
        (line, column)
    })
}

/// A RON error's text. ron 0.8 writes "named `x`in `Y`": the space is put back.
pub fn ron_message(code: &ron::Error) -> String {
    code.to_string().replace("`in ", "` in ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const THING: Kind = Kind {
        file: "thing file",
        field: "knob",
    };

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Thing {
        a: u32,
    }

    #[test]
    fn every_error_names_the_file_and_where() {
        let err = parse_ron::<Thing>("(\n  b: 1)", "t.ron")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t.ron:2:"), "{err}");
        let err = parse_json::<Thing>("{\n \"a\": \"x\"}", "t.json")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t.json:2:"), "{err}");
        let err = LoadError::invalid("t.ron", &THING, "a", "is odd".into());
        assert_eq!(err.to_string(), "t.ron: knob `a`: is odd");
        let missing = Path::new("/nonexistent/t.ron");
        let err = load(missing, &THING, parse_ron::<Thing>).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/nonexistent/t.ron: cannot read the thing file"
        );
        assert!(std::error::Error::source(&err).is_some());
        assert_eq!(utf8_text(b"ok\n\xc3(".to_vec()), Err((2, 1)));
    }
}
