//! The line protocol between tune2048 (the referee) and a player program,
//! versions 1 and 2. Every line ends with a newline; the player flushes after
//! each. Version 1:
//!
//! ```text
//! tune2048 -> player          player -> tune2048
//! hello 1
//!                             param NAME DEFAULT   (zero or more)
//!                             ready
//! set NAME VALUE              (zero or more, before a game)
//! game classic|twos
//! board C1 C2 ... C16         move U|D|L|R
//! ...
//! quit
//! ```
//!
//! Cells are tile values (0 for empty), row-major from the top-left corner;
//! the move must change the board. Version 2 (offered by `hello 2`, taken by
//! a first answer `version 2`) sends the boards of several games in one line
//! and reads their moves in one line, in order:
//!
//! ```text
//! hello 2
//!                             version 2
//!                             param NAME DEFAULT   (zero or more)
//!                             ready
//! set NAME VALUE              (zero or more, then a `game` line)
//! game classic|twos
//! boards N C1 ... C16 ...     moves D1 D2 ... DN   (N boards of 16 cells)
//! ...
//! quit
//! ```
//!
//! This file reads and writes the lines; [`super`] holds the conversation.

use std::fmt::Write as _;

use crate::engine::{Board, Direction};

/// The newest protocol version this referee speaks: it offers it with
/// `hello 2`, and speaks version 1 to a program that does not take it.
pub const VERSION: u32 = 2;

/// The most boards one `boards` line holds (its `moves` answer stays under
/// [`crate::child::MAX_LINE`]).
pub const MAX_BATCH: usize = 1024;

/// The longest parameter name a player may declare.
pub const MAX_NAME: usize = 64;

/// A line of the player's handshake.
#[derive(Clone, Debug, PartialEq)]
pub enum Handshake {
    /// `version N`: the version the player speaks (version 2's first line).
    Version(u32),
    Param {
        name: String,
        default: f64,
    },
    Ready,
}

/// Reads one handshake line, or says what is wrong with it.
pub fn parse_handshake(line: &str) -> Result<Handshake, String> {
    let mut words = line.split_ascii_whitespace();
    match words.next() {
        Some("ready") if words.next().is_none() => Ok(Handshake::Ready),
        Some("version") => match (words.next(), words.next()) {
            (Some("1"), None) => Ok(Handshake::Version(1)),
            (Some("2"), None) => Ok(Handshake::Version(2)),
            _ => Err("expected `version 1` or `version 2`".into()),
        },
        Some("param") => {
            let (Some(name), Some(default), None) = (words.next(), words.next(), words.next())
            else {
                return Err("expected `param NAME DEFAULT`".into());
            };
            check_name(name)?;
            let default = parse_number(default)
                .ok_or_else(|| format!("the default of `{name}` is not a finite number"))?;
            Ok(Handshake::Param {
                name: name.to_string(),
                default,
            })
        }
        _ => Err("expected `param NAME DEFAULT` or `ready`".into()),
    }
}

/// A parameter name: 1 to [`MAX_NAME`] characters among letters, digits and `_ . - [ ]`.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "_.-[]".contains(c);
    if name.is_empty() || name.len() > MAX_NAME || !name.chars().all(ok) {
        return Err(format!(
            "`{name}` is not a parameter name (1 to {MAX_NAME} letters, digits or `_ . - [ ]`)"
        ));
    }
    Ok(())
}

/// A finite decimal number.
pub fn parse_number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Reads a `moves D1 … DN` answer to a `boards N` line, or says what is
/// wrong with it: `Err((index, why))`, the index of the first bad move
/// (`None` when the line as a whole is wrong: its first word, its count).
pub fn parse_moves(line: &str, n: usize) -> Result<Vec<Direction>, (Option<usize>, String)> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("moves") {
        return Err((
            None,
            "expected `moves D1 D2 …`, one letter per board".into(),
        ));
    }
    let mut dirs = Vec::with_capacity(n);
    for (i, word) in words.enumerate() {
        let dir = match word {
            "U" => Direction::Up,
            "D" => Direction::Down,
            "L" => Direction::Left,
            "R" => Direction::Right,
            _ if i < n => {
                let why = format!("move {} of {n}: `{word}` is not one of U, D, L, R", i + 1);
                return Err((Some(i), why));
            }
            _ => Direction::Up,
        };
        dirs.push(dir);
    }
    if dirs.len() != n {
        let got = dirs.len();
        let (many, first_missing) = if got < n {
            ("too few", Some(got))
        } else {
            ("too many", None)
        };
        return Err((
            first_missing,
            format!("{many} moves: {got} answers to {n} boards"),
        ));
    }
    Ok(dirs)
}

/// Reads a `move` answer.
pub fn parse_move(line: &str) -> Result<Direction, String> {
    let mut words = line.split_ascii_whitespace();
    let dir = match (words.next(), words.next(), words.next()) {
        (Some("move"), Some(d), None) => d,
        _ => return Err("expected `move U|D|L|R`".into()),
    };
    match dir {
        "U" => Ok(Direction::Up),
        "D" => Ok(Direction::Down),
        "L" => Ok(Direction::Left),
        "R" => Ok(Direction::Right),
        _ => Err(format!("`{dir}` is not one of U, D, L, R")),
    }
}

/// The letter of a direction on the wire.
pub fn letter(dir: Direction) -> char {
    match dir {
        Direction::Up => 'U',
        Direction::Down => 'D',
        Direction::Left => 'L',
        Direction::Right => 'R',
    }
}

/// `set NAME VALUE` with the value written so that it reads back exactly.
pub fn set_line(name: &str, value: f64) -> String {
    format!("set {name} {value}\n")
}

/// Appends `board C1 … C16` and a newline to `out`.
pub fn write_board(out: &mut String, board: Board) {
    out.push_str("board");
    for rank in board.ranks() {
        let value = if rank == 0 { 0 } else { 1u32 << rank };
        let _ = write!(out, " {value}");
    }
    out.push('\n');
}

/// Appends `boards N` and the N boards' cells and a newline to `out`.
pub fn write_boards(out: &mut String, boards: impl ExactSizeIterator<Item = Board>) {
    let _ = write!(out, "boards {}", boards.len());
    for board in boards {
        for rank in board.ranks() {
            push_cell(out, rank);
        }
    }
    out.push('\n');
}

/// ` VALUE` for a cell of rank `rank` (0: empty), without formatting machinery.
fn push_cell(out: &mut String, rank: u8) {
    const VALUES: [&str; 16] = [
        " 0", " 2", " 4", " 8", " 16", " 32", " 64", " 128", " 256", " 512", " 1024", " 2048",
        " 4096", " 8192", " 16384", " 32768",
    ];
    out.push_str(VALUES[usize::from(rank & 15)]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_lines_are_read_or_refused_with_a_reason() {
        assert_eq!(parse_handshake("ready"), Ok(Handshake::Ready));
        assert_eq!(
            parse_handshake("param snake[3] -1.5e2"),
            Ok(Handshake::Param {
                name: "snake[3]".into(),
                default: -150.0
            })
        );
        for bad in [
            "",
            "ready now",
            "param",
            "param x",
            "param x 1 2",
            "param x nan",
            "param x inf",
            "param x y",
            "param a=b 1",
            "hello",
        ] {
            assert!(parse_handshake(bad).is_err(), "{bad:?}");
        }
        let long = format!("param {} 1", "x".repeat(MAX_NAME + 1));
        assert!(parse_handshake(&long).is_err());
    }

    #[test]
    fn moves_parse_strictly_and_boards_and_values_write_exactly() {
        assert_eq!(parse_move("move L"), Ok(Direction::Left));
        assert_eq!(parse_move("move  R "), Ok(Direction::Right));
        for bad in ["move", "move X", "move UP", "L", "move U D", "moves U"] {
            assert!(parse_move(bad).is_err(), "{bad:?}");
        }
        for dir in Direction::ALL {
            assert_eq!(parse_move(&format!("move {}", letter(dir))), Ok(dir));
        }
        let board =
            Board::from_values([2, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 32768, 0, 0, 8]).unwrap();
        let mut out = String::new();
        write_board(&mut out, board);
        assert_eq!(out, "board 2 0 0 4 0 0 0 0 0 0 0 0 32768 0 0 8\n");
        for v in [0.1 + 0.2, 1e-300, 270.0, -3.5, 123_456_789.123_456_78] {
            let line = set_line("x", v);
            let text = line.trim_end().rsplit(' ').next().unwrap();
            assert_eq!(parse_number(text), Some(v), "{line}");
        }
    }

    #[test]
    fn version_2_lines_read_and_write_exactly() {
        assert_eq!(parse_handshake("version 2"), Ok(Handshake::Version(2)));
        assert_eq!(parse_handshake("version 1"), Ok(Handshake::Version(1)));
        for bad in ["version", "version 3", "version 2 2"] {
            assert!(parse_handshake(bad).is_err(), "{bad:?}");
        }
        let a = Board::from_values([2, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 32768, 0, 0, 8]).unwrap();
        let b = Board::from_values([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1024, 0, 2, 2]).unwrap();
        let mut out = String::new();
        write_boards(&mut out, [a, b].into_iter());
        assert_eq!(
            out,
            "boards 2 2 0 0 4 0 0 0 0 0 0 0 0 32768 0 0 8 0 0 0 0 0 0 0 0 0 0 0 0 1024 0 2 2\n"
        );
        use Direction::*;
        assert_eq!(parse_moves("moves U L  R", 3), Ok(vec![Up, Left, Right]));
        assert_eq!(parse_moves("moves", 0), Ok(vec![]));
        assert_eq!(parse_moves("moves U D", 3).unwrap_err().0, Some(2));
        assert!(parse_moves("moves U D", 3)
            .unwrap_err()
            .1
            .contains("too few moves: 2 answers to 3"));
        assert_eq!(parse_moves("moves U D L R", 3).unwrap_err().0, None);
        assert!(parse_moves("moves U D L R", 3)
            .unwrap_err()
            .1
            .contains("too many"));
        assert_eq!(parse_moves("moves U X L", 3).unwrap_err().0, Some(1));
        assert!(parse_moves("moves U X L", 3)
            .unwrap_err()
            .1
            .contains("move 2 of 3: `X`"));
        assert_eq!(parse_moves("move U", 1).unwrap_err().0, None);
    }
}
