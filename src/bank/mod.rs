//! Position banks: positions saved from played games, so that other games
//! can start from them (mid-game positions, where weights matter most, for
//! a fraction of a whole game's cost).
//!
//! A bank file is CSV text. Lines starting with `#` are comments (the
//! writer puts what made the bank there). Lines starting with `#!` before
//! the column line are header fields, `#! key: value` ([`Made`]): the
//! variant of the bank's games (`variant`, and `p4` for the classic game),
//! the weights and search that played them. Banks written before the fields
//! existed have none and load as they always did; older readers take the
//! fields for comments. The first line that is neither is the column line
//! [`HEADER`]; then one position per line:
//!
//! - `stage`: the stage name the position was saved at (`8192`: the first
//!   board of its game holding an 8192; `every:50`: after every 50 moves);
//! - `board`: 16 hex digits, one per cell, row by row from the top left,
//!   each the cell's rank (0 empty, 1 = 2, …, f = 32768); the player is to
//!   move on it (any spawn due before the move has been placed);
//! - `score`, `moves`: the score earned and the moves played before it;
//! - `seed`: the seed of the game it comes from.
//!
//! [`record`] plays the games that fill a bank; [`write`](mod@write) writes them to a
//! bank file, chunk by chunk, behind the header that says what made them.

use std::fmt;
use std::path::Path;

use crate::engine::{Board, Start, Variant};

pub mod record;
pub mod write;

/// The header line of a bank file.
pub const HEADER: &str = "stage,board,score,moves,seed";

/// What starts a header field line: `#! key: value`.
pub const FIELD_PREFIX: &str = "#!";

/// What made a bank, from its header fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Made {
    /// The variant its games were played in, and the (1-based) line of its
    /// `variant` field; `None` for a bank written before banks recorded it.
    pub variant: Option<(Variant, usize)>,
    /// Every field in file order, as written: `variant`, `p4`, `weights_file`,
    /// `weights`, `search`, `games`, `seed`, `stages`, ...
    pub fields: Vec<(String, String)>,
}

impl Made {
    /// The fields of a bank whose games were played in `variant`, then
    /// `more` (each a key and a one-line value).
    pub fn new(variant: Variant, more: Vec<(String, String)>) -> Made {
        let mut fields = vec![("variant".to_string(), variant.name().to_string())];
        if let Variant::Classic { p4 } = variant {
            fields.push(("p4".into(), p4.to_string()));
        }
        fields.extend(more);
        Made {
            variant: Some((variant, 0)),
            fields,
        }
    }

    /// The fields as file lines.
    pub fn to_text(&self) -> String {
        self.fields
            .iter()
            .map(|(k, v)| format!("{FIELD_PREFIX} {k}: {v}\n"))
            .collect()
    }
}

/// A variant as a bank's message names it: `classic (p4 0.1)`, `twos`.
fn variant_words(v: Variant) -> String {
    match v {
        Variant::Classic { p4 } => format!("classic (p4 {p4})"),
        Variant::Twos => "twos".into(),
    }
}

/// One saved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The stage name it was saved at.
    pub stage: String,
    pub start: Start,
    /// The seed of the game it comes from.
    pub seed: u64,
}

/// A bank's positions, in file order, and what made them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bank {
    pub positions: Vec<Position>,
    pub made: Made,
}

/// Why a bank file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BankError {
    #[error("{file}: cannot read the bank file")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// A line that does not parse; `line` is 1-based.
    #[error("{file}:{line}: field `{field}`: {message}")]
    Malformed {
        file: String,
        line: usize,
        field: &'static str,
        message: String,
    },
}

impl Bank {
    /// Reads a bank file; also returns its [`content_hash`].
    pub fn load(path: &Path) -> Result<(Bank, u64), BankError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| BankError::Io {
            file: file.clone(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| BankError::Malformed {
            file: file.clone(),
            line: 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            field: "text",
            message: "not UTF-8 text".into(),
        })?;
        Ok((Bank::parse(&text, &file)?, content_hash(text.as_bytes())))
    }

    /// Parses bank text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Bank, BankError> {
        let mut positions = Vec::new();
        let mut fields = Vec::new();
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            let fail = |field, message: String| BankError::Malformed {
                file: file.to_string(),
                line: i + 1,
                field,
                message,
            };
            if let Some(field) = line.strip_prefix(FIELD_PREFIX) {
                if header {
                    return Err(fail(
                        "header",
                        format!("a `{FIELD_PREFIX}` field after the column line `{HEADER}`"),
                    ));
                }
                let Some((key, value)) = field.split_once(':') else {
                    return Err(fail(
                        "header",
                        format!("`{line}` is not `{FIELD_PREFIX} key: value`"),
                    ));
                };
                fields.push((i + 1, key.trim().to_string(), value.trim().to_string()));
                continue;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if !header {
                if line.trim() != HEADER {
                    return Err(fail(
                        "header",
                        format!("expected `{HEADER}`, found `{line}`"),
                    ));
                }
                header = true;
                continue;
            }
            positions.push(parse_row(line).map_err(|(field, m)| fail(field, m))?);
        }
        if !header {
            return Err(BankError::Malformed {
                file: file.to_string(),
                line: text.lines().count().max(1),
                field: "header",
                message: format!("no header line `{HEADER}`: not a bank file"),
            });
        }
        Ok(Bank {
            positions,
            made: parse_made(&fields, file)?,
        })
    }

    /// Whether games of `wanted` may start from this bank: an error naming
    /// the file and the `variant` field's line when its header records
    /// another variant. A bank without the field passes.
    pub fn check_variant(&self, file: &Path, wanted: Variant) -> Result<(), BankError> {
        match self.made.variant {
            Some((bank, line)) if bank != wanted => Err(BankError::Malformed {
                file: file.display().to_string(),
                line,
                field: "variant",
                message: format!(
                    "the bank's positions come from {} games, not {} ones",
                    variant_words(bank),
                    variant_words(wanted)
                ),
            }),
            _ => Ok(()),
        }
    }

    /// The bank as file text: [`head_text`], then one line per position.
    pub fn to_text(&self, comment: &str) -> String {
        let mut text = head_text(comment, &self.made);
        for p in &self.positions {
            text.push_str(&p.to_line());
        }
        text
    }

    /// The starts of the positions saved at `stage`, in file order.
    pub fn stage(&self, stage: &str) -> Vec<Start> {
        self.positions
            .iter()
            .filter(|p| p.stage == stage)
            .map(|p| p.start)
            .collect()
    }

    /// Stage names in order of first appearance, with their position counts.
    pub fn stages(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for p in &self.positions {
            match out.iter_mut().find(|(s, _)| *s == p.stage) {
                Some((_, n)) => *n += 1,
                None => out.push((p.stage.clone(), 1)),
            }
        }
        out
    }
}

impl Position {
    /// The position's line in a bank file.
    pub fn to_line(&self) -> String {
        let s = &self.start;
        format!(
            "{},{},{},{},{}\n",
            self.stage,
            board_hex(s.board),
            s.score,
            s.moves,
            self.seed
        )
    }
}

/// What comes before a bank's positions: `comment` lines (each prefixed
/// `# `), the header fields of `made`, the column line.
pub fn head_text(comment: &str, made: &Made) -> String {
    let mut text = String::new();
    for line in comment.lines() {
        text.push_str(&format!("# {line}\n"));
    }
    text.push_str(&made.to_text());
    text.push_str(HEADER);
    text.push('\n');
    text
}

/// The header fields (line, key, value) read as a [`Made`]: `variant` must
/// be `classic` (with a `p4` within 0..=1) or `twos` (without one).
fn parse_made(fields: &[(usize, String, String)], file: &str) -> Result<Made, BankError> {
    let fail = |line, field, message| BankError::Malformed {
        file: file.to_string(),
        line,
        field,
        message,
    };
    let find = |key: &str| fields.iter().find(|(_, k, _)| k == key);
    let p4 = match find("p4") {
        None => None,
        Some((line, _, value)) => match value.parse::<f64>() {
            Ok(p4) if (0.0..=1.0).contains(&p4) => Some((p4, *line)),
            _ => {
                return Err(fail(
                    *line,
                    "p4",
                    format!("`{value}` is not a probability within 0..=1"),
                ))
            }
        },
    };
    let variant = match (find("variant"), p4) {
        (None, None) => None,
        (None, Some((_, line))) => {
            return Err(fail(
                line,
                "p4",
                "a `p4` field without a `variant` field".into(),
            ))
        }
        (Some((line, _, name)), p4) => match (name.as_str(), p4) {
            ("classic", Some((p4, _))) => Some((Variant::Classic { p4 }, *line)),
            ("classic", None) => {
                return Err(fail(
                    *line,
                    "p4",
                    "a classic bank's header gives its `p4` (the chance of a 4)".into(),
                ))
            }
            ("twos", None) => Some((Variant::Twos, *line)),
            ("twos", Some((_, p4_line))) => {
                return Err(fail(
                    p4_line,
                    "p4",
                    "twos games spawn no 4: no `p4` field".into(),
                ))
            }
            (other, _) => {
                return Err(fail(
                    *line,
                    "variant",
                    format!("`{other}` is not a variant: classic or twos"),
                ))
            }
        },
    };
    Ok(Made {
        variant,
        fields: fields
            .iter()
            .map(|(_, k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}

/// The start a game of seed `seed` plays from: [`Start::pick`].
pub fn pick(starts: &[Start], seed: u64) -> Start {
    Start::pick(starts, seed)
}

/// One data line, or the field at fault and why.
fn parse_row(line: &str) -> Result<Position, (&'static str, String)> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [stage, board, score, moves, seed] = fields[..] else {
        return Err((
            "row",
            format!("expected 5 fields ({HEADER}), found {}", fields.len()),
        ));
    };
    if stage.is_empty() || stage.contains(char::is_whitespace) {
        return Err(("stage", format!("`{stage}` is not a stage name")));
    }
    let board = parse_board(board).map_err(|m| ("board", m))?;
    let number = |field: &'static str, text: &str| {
        text.parse::<u64>()
            .map_err(|_| (field, format!("`{text}` is not a non-negative integer")))
    };
    let moves = number("moves", moves)?;
    let moves = u32::try_from(moves).map_err(|_| ("moves", format!("{moves} is too large")))?;
    Ok(Position {
        stage: stage.to_string(),
        start: Start {
            board,
            score: number("score", score)?,
            moves,
        },
        seed: number("seed", seed)?,
    })
}

/// 16 hex digits, cell 0 first, each a rank.
pub fn board_hex(board: Board) -> String {
    board
        .ranks()
        .iter()
        .map(|&r| char::from_digit(u32::from(r), 16).expect("ranks are below 16"))
        .collect()
}

/// Parses [`board_hex`]'s form; a board with no legal move is refused (no
/// game can be played from it).
pub fn parse_board(text: &str) -> Result<Board, String> {
    let digits: Option<Vec<u8>> = text
        .chars()
        .map(|c| c.to_digit(16).map(|d| d as u8))
        .collect();
    let ranks: [u8; 16] = digits
        .and_then(|d| d.try_into().ok())
        .ok_or_else(|| format!("`{text}` is not 16 hex digits"))?;
    let board = Board::from_ranks(ranks);
    if !board.has_move() {
        return Err(format!("`{text}` has no legal move"));
    }
    Ok(board)
}

/// FNV-1a, 64 bits: a run records its bank's hash, so a resume can tell
/// that the file changed. (A check against accidents, not against forgery.)
pub fn content_hash(bytes: &[u8]) -> u64 {
    crate::fnv::hash(bytes)
}

/// A hash as it is written in configs: 16 hex digits.
pub struct HashText(pub u64);

impl fmt::Display for HashText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests;
