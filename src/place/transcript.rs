//! Transcripts of the place-a-2 puzzle: reading, writing and replaying them.
//!
//! A transcript has one line per turn, `row col DIR`: the 1-based row and
//! column of the placed 2, then the move, one of `U`, `D`, `L`, `R`. Its last
//! line is `reached T in K turns`. Blank lines are skipped (they still count
//! in line numbers).
//!
//! Two kinds of error: a file that is not a transcript at all
//! ([`TranscriptError`], bad input) and a transcript whose play breaks the
//! rules or misses the target ([`ReplayError`]). Both name the line.

use std::fmt::Write as _;

use super::rules::{value, PlaceBoard, PlacementError};
use crate::engine::Direction;

/// One turn as written: 1-based row and column of the placed 2, then a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub row: u64,
    pub col: u64,
    pub dir: Direction,
}

/// A transcript as read: its turns with their line numbers, and the last line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub turns: Vec<(usize, Turn)>,
    /// The tile the last line claims, its turn count, and its line number.
    pub claimed_tile: u128,
    pub claimed_turns: u64,
    pub summary_line: usize,
}

/// Why a text is not a transcript (bad input: exit code 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TranscriptError {
    #[error(
        "line 1: empty file, expected turns `row col DIR` and a last line `reached T in K turns`"
    )]
    Empty,
    #[error("line {line}: expected `row col DIR` or `reached T in K turns`, found `{text}`")]
    Shape { line: usize, text: String },
    #[error("line {line}: `{text}` is not a {what} number")]
    NotANumber {
        line: usize,
        what: &'static str,
        text: String,
    },
    #[error("line {line}: unknown direction `{text}` (expected U, D, L or R)")]
    Direction { line: usize, text: String },
    #[error("line {line}: the transcript ends without its last line `reached T in K turns`")]
    Truncated { line: usize },
    #[error("line {line}: unexpected text after the `reached` line")]
    Trailing { line: usize },
}

/// Why a transcript fails (exit code 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("line {line}: {error}")]
    Placement { line: usize, error: PlacementError },
    #[error("line {line}: the move {dir} changes nothing")]
    NoOp { line: usize, dir: char },
    #[error("line {line}: the transcript has {found} turns, not {claimed}")]
    TurnCount {
        line: usize,
        claimed: u64,
        found: usize,
    },
    #[error("line {line}: target {target} not reached: the largest tile is {best}")]
    NotReached {
        line: usize,
        target: u128,
        best: u128,
    },
}

/// What a legal transcript achieved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayedGame {
    pub board: PlaceBoard,
    /// The largest tile of the game (it never shrinks).
    pub best: u128,
}

/// The letter of a move in a transcript.
pub fn dir_letter(dir: Direction) -> char {
    match dir {
        Direction::Up => 'U',
        Direction::Down => 'D',
        Direction::Left => 'L',
        Direction::Right => 'R',
    }
}

fn parse_dir(word: &str) -> Option<Direction> {
    match word {
        "U" | "u" => Some(Direction::Up),
        "D" | "d" => Some(Direction::Down),
        "L" | "l" => Some(Direction::Left),
        "R" | "r" => Some(Direction::Right),
        _ => None,
    }
}

fn number<T: std::str::FromStr>(
    line: usize,
    what: &'static str,
    text: &str,
) -> Result<T, TranscriptError> {
    text.parse().map_err(|_| TranscriptError::NotANumber {
        line,
        what,
        text: text.to_string(),
    })
}

/// Reads a transcript.
pub fn parse(text: &str) -> Result<Transcript, TranscriptError> {
    let mut turns = Vec::new();
    let mut last_line = 0;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    for (line, l) in lines.by_ref() {
        last_line = line;
        if l.is_empty() {
            continue;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        let shape = || TranscriptError::Shape {
            line,
            text: l.to_string(),
        };
        if words[0] == "reached" {
            let [_, tile, "in", count, "turns" | "turn"] = words[..] else {
                return Err(shape());
            };
            let summary = Transcript {
                turns,
                claimed_tile: number(line, "tile", tile)?,
                claimed_turns: number(line, "turn", count)?,
                summary_line: line,
            };
            return match lines.find(|(_, l)| !l.is_empty()) {
                Some((line, _)) => Err(TranscriptError::Trailing { line }),
                None => Ok(summary),
            };
        }
        let [row, col, dir] = words[..] else {
            return Err(shape());
        };
        let turn = Turn {
            row: number(line, "row", row)?,
            col: number(line, "column", col)?,
            dir: parse_dir(dir).ok_or_else(|| TranscriptError::Direction {
                line,
                text: dir.to_string(),
            })?,
        };
        turns.push((line, turn));
    }
    if turns.is_empty() {
        Err(TranscriptError::Empty)
    } else {
        Err(TranscriptError::Truncated {
            line: last_line + 1,
        })
    }
}

/// Plays one turn on `board`: the placement, then the move.
pub fn play_turn(board: &PlaceBoard, turn: Turn, line: usize) -> Result<PlaceBoard, ReplayError> {
    let index = |v: u64| usize::try_from(v).unwrap_or(usize::MAX).wrapping_sub(1);
    let (row, col) = (index(turn.row), index(turn.col));
    let placed = board.place(row, col).map_err(|error| {
        // Report the cell as written, 1-based.
        let error = match error {
            PlacementError::OutOfRange { n, .. } => PlacementError::OutOfRange {
                row: turn.row as usize,
                col: turn.col as usize,
                n,
            },
            PlacementError::Occupied { .. } => PlacementError::Occupied {
                row: turn.row as usize,
                col: turn.col as usize,
            },
        };
        ReplayError::Placement { line, error }
    })?;
    placed.make_move(turn.dir).ok_or(ReplayError::NoOp {
        line,
        dir: dir_letter(turn.dir),
    })
}

/// Replays a transcript on the empty `n`×`n` board and checks that it is
/// legal, that its last line tells the truth, and that it reaches `target`.
pub fn replay(t: &Transcript, n: usize, target: u128) -> Result<ReplayedGame, ReplayError> {
    let mut board = PlaceBoard::empty(n).expect("the caller checked the size");
    for &(line, turn) in &t.turns {
        board = play_turn(&board, turn, line)?;
    }
    if t.claimed_turns != t.turns.len() as u64 {
        return Err(ReplayError::TurnCount {
            line: t.summary_line,
            claimed: t.claimed_turns,
            found: t.turns.len(),
        });
    }
    let best = value(board.max_rank());
    for goal in [t.claimed_tile, target] {
        if best < goal {
            return Err(ReplayError::NotReached {
                line: t.summary_line,
                target: goal,
                best,
            });
        }
    }
    Ok(ReplayedGame { board, best })
}

/// Writes a transcript: the turns (row-major cells, from 0), then the last line.
pub fn write(n: usize, turns: &[(usize, Direction)], tile: u128) -> String {
    let mut out = String::new();
    for &(cell, dir) in turns {
        let _ = writeln!(out, "{} {} {}", cell / n + 1, cell % n + 1, dir_letter(dir));
    }
    let _ = writeln!(out, "reached {tile} in {} turns", turns.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, n: usize, target: u128) -> Result<ReplayedGame, String> {
        let t = parse(text).map_err(|e| format!("parse: {e}"))?;
        replay(&t, n, target).map_err(|e| format!("replay: {e}"))
    }

    #[test]
    fn a_short_game_replays() {
        // 2×2: 2 at the top left, left; 2 at the top right, left: a 4.
        let r = check("1 1 D\n1 1 D\nreached 4 in 2 turns\n", 2, 4).unwrap();
        assert_eq!(r.best, 4);
        let text = write(2, &[(0, Direction::Down), (0, Direction::Down)], 4);
        assert_eq!(text, "1 1 D\n1 1 D\nreached 4 in 2 turns\n");
    }

    #[test]
    fn bad_transcripts_name_the_line() {
        let err = |text: &str| check(text, 2, 4).unwrap_err();
        assert_eq!(
            err("1 1 D\n2 1 D\nreached 4 in 2 turns\n"),
            "replay: line 2: row 2, column 1 is occupied"
        );
        assert_eq!(
            err("1 1 D\n3 1 D\nreached 4 in 2 turns\n"),
            "replay: line 2: row 3, column 1 is outside the 2×2 board"
        );
        assert_eq!(
            err("1 1 D\n0 1 D\nreached 4 in 2 turns\n"),
            "replay: line 2: row 0, column 1 is outside the 2×2 board"
        );
        assert_eq!(
            err("1 1 D\n1 1 L\nreached 4 in 2 turns\n"),
            "replay: line 2: the move L changes nothing"
        );
        assert_eq!(
            err("1 1 D\nreached 4 in 1 turns\n"),
            "replay: line 2: target 4 not reached: the largest tile is 2"
        );
        assert_eq!(
            err("1 1 D\n1 1 D\nreached 4 in 3 turns\n"),
            "replay: line 3: the transcript has 2 turns, not 3"
        );
        assert_eq!(
            err("1 1 X\n"),
            "parse: line 1: unknown direction `X` (expected U, D, L or R)"
        );
        assert_eq!(
            err("1 1 D\n1 1\n"),
            "parse: line 2: expected `row col DIR` or `reached T in K turns`, found `1 1`"
        );
        assert_eq!(err("a 1 D\n"), "parse: line 1: `a` is not a row number");
        assert_eq!(
            err("1 1 D\n1 1 D\n"),
            "parse: line 3: the transcript ends without its last line `reached T in K turns`"
        );
        assert_eq!(
            err("\n\n"),
            "parse: line 1: empty file, expected turns `row col DIR` and a last line `reached T in K turns`"
        );
        assert_eq!(
            err("1 1 D\n1 1 D\nreached 4 in 2 turns\n1 1 D\n"),
            "parse: line 4: unexpected text after the `reached` line"
        );
    }
}
