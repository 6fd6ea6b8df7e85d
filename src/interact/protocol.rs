//! The words of BOJ 28489: the judge's (a cell where a 2 appears, or `-1`)
//! and the player's answers (a direction), each read with an error that
//! names where it stands (the protocol line, the answer's number).

use crate::engine::{Board, Direction};

/// One word from the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgeWord {
    /// A 2 appears on this cell (0-based, row-major from the top left).
    Cell(usize),
    /// `-1`: the game is over.
    End,
}

/// Reads one word of protocol line `number`: a cell 1..=16 or -1. The
/// error names the line.
pub fn parse_word(word: &str, number: usize) -> Result<JudgeWord, String> {
    read_word(word).map_err(|why| format!("protocol line {number}: {why}"))
}

/// Reads one word: a cell 1..=16 or -1, or says what is wrong with it.
pub(super) fn read_word(word: &str) -> Result<JudgeWord, String> {
    let p: i64 = word
        .parse()
        .map_err(|_| format!("expected a cell 1..=16 or -1, found `{word}`"))?;
    match p {
        -1 => Ok(JudgeWord::End),
        1..=16 => Ok(JudgeWord::Cell((p - 1) as usize)),
        _ => Err(format!("cell {p} is outside 1..=16")),
    }
}

/// The board after the player's answer number `number`, or why it is not
/// a legal one.
pub fn legal_answer(board: Board, answer: &str, number: u32) -> Result<Board, String> {
    let word = answer.trim();
    let Some(dir) = Direction::parse(word).filter(|_| word.len() > 1) else {
        let shown: String = word.chars().take(40).flat_map(char::escape_debug).collect();
        return Err(format!(
            "answer {number}: `{shown}` is not UP, DOWN, LEFT or RIGHT"
        ));
    };
    match board.make_move(dir) {
        Some(m) => Ok(m.board),
        None => Err(format!("answer {number}: {dir} is illegal here")),
    }
}
