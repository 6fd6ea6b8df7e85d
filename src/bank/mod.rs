//! Position banks: positions saved from played games, so that other games
//! can start from them (mid-game positions, where weights matter most, for
//! a fraction of a whole game's cost).
//!
//! A bank file is CSV text. Lines starting with `#` are comments (the
//! writer puts what made the bank there); the first other line is the
//! header [`HEADER`]; then one position per line:
//!
//! - `stage`: the stage name the position was saved at (`8192`: the first
//!   board of its game holding an 8192; `every:50`: after every 50 moves);
//! - `board`: 16 hex digits, one per cell, row by row from the top left,
//!   each the cell's rank (0 empty, 1 = 2, …, f = 32768); the player is to
//!   move on it (any spawn due before the move has been placed);
//! - `score`, `moves`: the score earned and the moves played before it;
//! - `seed`: the seed of the game it comes from.
//!
//! [`record`] plays the games that fill a bank.

use std::fmt;
use std::path::Path;

use crate::engine::{Board, Start};

pub mod record;

/// The header line of a bank file.
pub const HEADER: &str = "stage,board,score,moves,seed";

/// One saved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The stage name it was saved at.
    pub stage: String,
    pub start: Start,
    /// The seed of the game it comes from.
    pub seed: u64,
}

/// A bank's positions, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bank {
    pub positions: Vec<Position>,
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
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fail = |field, message: String| BankError::Malformed {
                file: file.to_string(),
                line: i + 1,
                field,
                message,
            };
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
        Ok(Bank { positions })
    }

    /// The bank as file text: `comment` lines (each prefixed `# `), the
    /// header, one line per position.
    pub fn to_text(&self, comment: &str) -> String {
        let mut text = String::new();
        for line in comment.lines() {
            text.push_str(&format!("# {line}\n"));
        }
        text.push_str(HEADER);
        text.push('\n');
        for p in &self.positions {
            let s = &p.start;
            text.push_str(&format!(
                "{},{},{},{},{}\n",
                p.stage,
                board_hex(s.board),
                s.score,
                s.moves,
                p.seed
            ));
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

/// The start a game of seed `seed` plays from: `starts[seed % len]`. Game
/// seeds are well mixed, so this draws positions evenly; every candidate
/// playing a seed starts from the same position.
pub fn pick(starts: &[Start], seed: u64) -> Start {
    assert!(!starts.is_empty(), "a stage with positions");
    starts[(seed % starts.len() as u64) as usize]
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
