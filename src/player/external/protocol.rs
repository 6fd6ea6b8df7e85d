//! The line protocol between tune2048 (the referee) and a player program,
//! version 1. Every line ends with a newline; the player flushes after each.
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
//! the move must change the board. This file reads and writes the lines;
//! [`super`] holds the conversation.

use std::fmt::Write as _;

use crate::engine::{Board, Direction};

/// The protocol version this referee speaks.
pub const VERSION: u32 = 1;

/// The longest parameter name a player may declare.
pub const MAX_NAME: usize = 64;

/// A line of the player's handshake.
#[derive(Clone, Debug, PartialEq)]
pub enum Handshake {
    Param { name: String, default: f64 },
    Ready,
}

/// Reads one handshake line, or says what is wrong with it.
pub fn parse_handshake(line: &str) -> Result<Handshake, String> {
    let mut words = line.split_ascii_whitespace();
    match words.next() {
        Some("ready") if words.next().is_none() => Ok(Handshake::Ready),
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
}
