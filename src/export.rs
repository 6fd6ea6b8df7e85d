//! Weights in formats other programs read: RON, JSON, a C/C++ header and a
//! Rust item. Every number prints with the shortest text that reads back to
//! the same `f64`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::heuristic::terms::Term;
use crate::heuristic::{Weights, WeightsError, TERMS};

/// The weights file inside a run folder.
pub const RUN_BEST_WEIGHTS: &str = "best.ron";

/// An output format of `tune2048 export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The project's own weights file.
    Ron,
    /// A JSON object with the same field names.
    Json,
    /// A header for C and C++ (the reference program's names where they match).
    C,
    /// A Rust `const` item of type `tune2048::heuristic::Weights`.
    Rust,
    /// The line protocol's `set NAME VALUE` lines, one per parameter.
    Set,
}

/// Errors finding or reading the weights to export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0}: no such file or folder")]
    Missing(PathBuf),
    #[error("{0}: this run has no best weights yet")]
    NoBestYet(PathBuf),
    #[error("{path}: {message}")]
    Json { path: PathBuf, message: String },
    #[error(transparent)]
    Weights(#[from] WeightsError),
}

/// Reads the weights a source names: a weights file (`.ron`, or `.json` as
/// written by [`to_json`]) or a run folder (its `best.ron`).
pub fn load_source(source: &Path) -> Result<Weights, ExportError> {
    if source.is_dir() {
        let best = source.join(RUN_BEST_WEIGHTS);
        if !best.is_file() {
            return Err(ExportError::NoBestYet(best));
        }
        return Ok(Weights::load(&best)?);
    }
    if !source.exists() {
        return Err(ExportError::Missing(source.to_path_buf()));
    }
    if source
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        let text = std::fs::read_to_string(source).map_err(|e| ExportError::Json {
            path: source.to_path_buf(),
            message: e.to_string(),
        })?;
        return from_json(&text).map_err(|message| ExportError::Json {
            path: source.to_path_buf(),
            message,
        });
    }
    Ok(Weights::load(source)?)
}

/// The weights in `format`; `source` is named in the generated comments.
pub fn render(weights: &Weights, format: ExportFormat, source: &str) -> String {
    match format {
        ExportFormat::Ron => weights.to_ron(),
        ExportFormat::Json => to_json(weights),
        ExportFormat::C => to_c_header(weights, source),
        ExportFormat::Rust => to_rust(weights, source),
        ExportFormat::Set => crate::heuristic::PARAM_NAMES
            .iter()
            .map(|&name| {
                let v = weights.get(name).expect("a listed name");
                crate::player::external::protocol::set_line(name, v)
            })
            .collect(),
    }
}

/// Pretty JSON with the field names of [`Weights`].
pub fn to_json(weights: &Weights) -> String {
    let mut text = serde_json::to_string_pretty(weights).expect("weights always serialize");
    text.push('\n');
    text
}

/// Parses and validates JSON written by [`to_json`].
pub fn from_json(text: &str) -> Result<Weights, String> {
    let weights: Weights = serde_json::from_str(text).map_err(|e| e.to_string())?;
    weights
        .validate()
        .map_err(|(field, message)| format!("field `{field}`: {message}"))?;
    Ok(weights)
}

/// The shortest decimal that reads back to `v` in C, C++ and Rust: Rust's
/// `Debug` is round-trip exact and always has a `.` or an exponent.
fn literal(v: f64) -> String {
    format!("{v:?}")
}

/// Comment text made safe for a `/* */` or `//` comment on one line.
fn comment_safe(text: &str) -> String {
    text.replace("*/", "* /").replace(['\n', '\r'], " ")
}

/// A header that compiles as C and as C++: one `#define` per scalar term and
/// the snake pattern as a `static const double` array.
pub fn to_c_header(weights: &Weights, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "/* 2048 heuristic weights exported by tune2048");
    let _ = writeln!(out, " * from {}. */", comment_safe(source));
    out.push_str("#ifndef TUNE2048_WEIGHTS_H\n#define TUNE2048_WEIGHTS_H\n\n");
    // C names are the reference C++ program's where the term is the same,
    // `TUNE2048_*` for this project's own terms (see `Weights`).
    for term in TERMS.iter().filter(|t| t.is_scalar()) {
        let v = weights
            .get(term.name)
            .expect("a scalar term is a parameter");
        let _ = writeln!(out, "#define {} ({})", term.c_name, literal(v));
    }
    out.push_str(
        "\n#if defined(__GNUC__)\n\
         #define TUNE2048_UNUSED __attribute__((unused))\n\
         #else\n\
         #define TUNE2048_UNUSED\n\
         #endif\n\n",
    );
    for term in TERMS.iter().filter(|t| !t.is_scalar()) {
        out.push_str("/* Positional weights, row-major, head at the top-left corner. */\n");
        let _ = writeln!(
            out,
            "static const double {}[{}] TUNE2048_UNUSED = {{",
            term.c_name,
            term.params.len()
        );
        for row in cells(weights, term).chunks(4) {
            let _ = writeln!(out, "    {},", row.join(", "));
        }
        out.push_str("};\n\n");
    }
    out.push_str("#endif /* TUNE2048_WEIGHTS_H */\n");
    out
}

/// A Rust item `pub const WEIGHTS: Weights = Weights { .. };` for code that
/// depends on this crate.
pub fn to_rust(weights: &Weights, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// 2048 heuristic weights exported by tune2048 from {}.",
        comment_safe(source)
    );
    out.push_str("use tune2048::heuristic::Weights;\n\n");
    out.push_str(&rust_const(weights));
    out
}

/// The literals of an array term's cells, in order.
fn cells(weights: &Weights, term: &Term) -> Vec<String> {
    term.params
        .iter()
        .map(|p| literal(weights.get(p).expect("a cell is a parameter")))
        .collect()
}

/// The `const` item alone (tested by compiling a copy of it). Fields come in
/// the struct's order ([`TERMS`]), an array four cells a line.
fn rust_const(w: &Weights) -> String {
    let mut out = String::from("pub const WEIGHTS: Weights = Weights {\n");
    for term in &TERMS {
        if term.is_scalar() {
            let v = w.get(term.name).expect("a scalar term is a parameter");
            let _ = writeln!(out, "    {}: {},", term.name, literal(v));
        } else {
            let _ = writeln!(out, "    {}: [", term.name);
            for row in cells(w, term).chunks(4) {
                let _ = writeln!(out, "        {},", row.join(", "));
            }
            out.push_str("    ],\n");
        }
    }
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::PARAM_NAMES;

    /// Awkward values: non-terminating binary fractions, tiny and huge
    /// magnitudes, negatives and a negative zero.
    fn awkward() -> Weights {
        let mut w = Weights::nneonneo();
        w.empty = 0.1 + 0.2;
        w.merges = -1.0 / 3.0;
        w.smoothness = 1e-300;
        w.edge = 6.02214076e23;
        w.corner = -0.0;
        w.sum_power = std::f64::consts::E;
        for (i, cell) in w.snake.iter_mut().enumerate() {
            *cell = (i as f64).sqrt() - 1.5;
        }
        w
    }

    #[test]
    fn ron_json_ron_is_exact() {
        let w = awkward();
        let ron_text = render(&w, ExportFormat::Ron, "mem");
        let from_ron = Weights::from_ron(&ron_text, "mem").unwrap();
        let json_text = render(&from_ron, ExportFormat::Json, "mem");
        let back = from_json(&json_text).unwrap();
        assert_eq!(back.to_ron(), ron_text);
        for name in PARAM_NAMES {
            assert_eq!(
                back.get(name).unwrap().to_bits(),
                w.get(name).unwrap().to_bits(),
                "{name}"
            );
        }
        // Field names are the struct's.
        assert!(
            json_text.contains("\"monotonicity_power\": 4.0"),
            "{json_text}"
        );
    }

    #[test]
    fn c_header_names_every_term_once() {
        let text = to_c_header(&awkward(), "runs/x/best.ron");
        for term in TERMS.iter().filter(|t| t.is_scalar()) {
            let name = term.c_name;
            assert_eq!(
                text.matches(&format!("#define {name} (")).count(),
                1,
                "{name}"
            );
        }
        assert!(text.contains("#define SCORE_LOST_PENALTY (200000.0)"));
        assert!(text.contains("#define SCORE_EMPTY_WEIGHT (0.30000000000000004)"));
        assert!(text.contains("#define TUNE2048_SMOOTHNESS_WEIGHT (1e-300)"));
        assert!(text.contains("#define TUNE2048_CORNER_WEIGHT (-0.0)"));
        assert!(text.contains("static const double TUNE2048_SNAKE[16]"));
        assert!(text.starts_with("/*") && text.ends_with("#endif /* TUNE2048_WEIGHTS_H */\n"));
    }

    #[test]
    fn comments_cannot_be_closed_by_the_source_name() {
        let text = to_c_header(&Weights::nneonneo(), "a*/b\nc");
        assert!(text.contains("from a* /b c. */"), "{text}");
    }

    #[test]
    fn every_literal_reads_back_exactly() {
        for v in [
            0.1,
            -1.0 / 3.0,
            1e-300,
            6.02214076e23,
            2e16,
            -0.0,
            5.0,
            f64::MIN_POSITIVE,
        ] {
            let text = literal(v);
            assert!(text.contains('.') || text.contains('e'), "{text}");
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                v.to_bits(),
                "{text}"
            );
        }
    }

    // The exact text `rust_const` writes for the reference weights, pasted
    // here so the compiler checks that the exported item is valid Rust of
    // the right type.
    #[rustfmt::skip]
    pub const WEIGHTS: Weights = Weights {
    lost_penalty: 200000.0,
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
    snake: [
        0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0,
    ],
    snake_power: 1.0,
    empty_scaled: 0.0,
    empty_power: 1.0,
    merge_rank: 0.0,
    merge_power: 1.0,
    locked: 0.0,
    crowding: 0.0,
    crowding_power: 1.0,
    value_power: 1.0,
    value_base: 2.0,
    ordered_head: 0.0,
    ordered_right: 0.0,
    ordered_equal: 0.0,
    ordered_wrong: 0.0,
    ordered_gap: 0.0,
    dead_end: 0.0,
};

    #[test]
    fn rust_item_is_the_compiled_golden() {
        let golden = include_str!("export.rs");
        let start = golden.find("    pub const WEIGHTS").unwrap();
        let end = start + golden[start..].find("};\n").unwrap() + 3;
        let expected: String = golden[start..end].strip_prefix("    ").unwrap().to_string();
        assert_eq!(rust_const(&Weights::nneonneo()), expected);
        assert_eq!(WEIGHTS, Weights::nneonneo());
        let full = to_rust(&awkward(), "best.ron");
        assert!(full.contains("use tune2048::heuristic::Weights;"));
        assert!(full.contains("    empty: 0.30000000000000004,\n"));
    }
}
