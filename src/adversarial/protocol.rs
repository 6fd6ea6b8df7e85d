//! The text protocol of adversarial 2048 between a referee and a player
//! program: one message per line, words separated by spaces.
//!
//! Referee to player, at the start of each game:
//!
//! - `rules gpcc2015` or `rules gpcc2016` (starts a new game);
//! - `role attacker` or `role defender`;
//! - `board V1 … V16`: the tile values, row-major from the top left, 0 for
//!   an empty cell;
//! - `score N`: the defender's score so far.
//!
//! Then, whenever it is the player's turn, one line: `go` when the player
//! moves first, else the opponent's last action (`place C V` to the
//! defender, a direction to the attacker). `end` says that the game is over.
//!
//! Player to referee, one line per turn: the attacker answers `place C V`
//! (a tile of value V on cell C in 1..=16), the defender answers `up`,
//! `down`, `left` or `right`. Words are matched without regard to case.

use std::fmt;

use super::rules::{Action, Rules, Side};
use crate::engine::{rank_of, value_of, Board, Direction, Spawn};

/// The largest score a `score` line may give: far above any reachable
/// score (a 32768 tile is worth under 500,000 points), so sums never overflow.
pub const MAX_SCORE: u64 = 1_000_000_000_000;

/// One line from the referee to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    Rules(Rules),
    Role(Side),
    Board(Board),
    Score(u64),
    /// The player is to move first from the position given.
    Go,
    /// The opponent's last action; the player is to move.
    Action(Action),
    /// The game is over.
    End,
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Rules(r) => write!(f, "rules {}", r.name()),
            Message::Role(s) => write!(f, "role {}", s.name()),
            Message::Board(b) => {
                write!(f, "board")?;
                b.values().iter().try_for_each(|v| write!(f, " {v}"))
            }
            Message::Score(s) => write!(f, "score {s}"),
            Message::Go => write!(f, "go"),
            Message::Action(a) => write!(f, "{}", action_text(*a)),
            Message::End => write!(f, "end"),
        }
    }
}

impl Message {
    /// Parses one line; the error says what is wrong with it.
    pub fn parse(line: &str) -> Result<Message, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Err("an empty line".into());
        };
        let arg = |what: &str| match rest {
            [one] => Ok(*one),
            _ => Err(format!("`{first}` takes one word: {what}")),
        };
        match first.to_ascii_lowercase().as_str() {
            "rules" => Rules::parse(arg("gpcc2015 or gpcc2016")?)
                .map(Message::Rules)
                .ok_or_else(|| format!("unknown rules `{}`", rest[0])),
            "role" => match arg("attacker or defender")?.to_ascii_lowercase().as_str() {
                "attacker" => Ok(Message::Role(Side::Attacker)),
                "defender" => Ok(Message::Role(Side::Defender)),
                other => Err(format!("unknown role `{other}`")),
            },
            "board" => parse_board(rest).map(Message::Board),
            "score" => arg("a number")?
                .parse()
                .ok()
                .filter(|&n| n <= MAX_SCORE)
                .map(Message::Score)
                .ok_or_else(|| format!("score `{}` is not a number up to {MAX_SCORE}", rest[0])),
            "go" if rest.is_empty() => Ok(Message::Go),
            "end" if rest.is_empty() => Ok(Message::End),
            _ => parse_action(line)
                .map(Message::Action)
                .map_err(|_| format!("`{}` is not a message of the protocol", line.trim())),
        }
    }
}

/// 16 tile values, each 0 or a power of two from 2 to 32768.
fn parse_board(words: &[&str]) -> Result<Board, String> {
    if words.len() != 16 {
        return Err(format!(
            "`board` takes 16 tile values, found {}",
            words.len()
        ));
    }
    let mut values = [0u32; 16];
    for (slot, w) in values.iter_mut().zip(words) {
        *slot = w
            .parse()
            .map_err(|_| format!("tile `{w}` is not a number"))?;
    }
    Board::from_values(values)
        .ok_or_else(|| "a tile value is not 0 or a power of two from 2 to 32768".into())
}

/// The text of an action: `place C V` or a direction in lower case.
pub fn action_text(action: Action) -> String {
    match action {
        Action::Place(s) => format!("place {} {}", s.cell + 1, value_of(s.rank)),
        Action::Slide(d) => d.name().to_ascii_lowercase(),
    }
}

/// Parses an action: `place C V` (C in 1..=16, V a power of two from 2 to
/// 32768) or one of `up`, `down`, `left`, `right`. Whether the action is
/// legal is for the rules to say.
pub fn parse_action(line: &str) -> Result<Action, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let malformed = || {
        format!(
            "`{}` is not `place CELL VALUE` nor up, down, left or right",
            line.trim()
        )
    };
    match words.as_slice() {
        [word] => {
            let dir = match word.to_ascii_lowercase().as_str() {
                "up" => Direction::Up,
                "down" => Direction::Down,
                "left" => Direction::Left,
                "right" => Direction::Right,
                _ => return Err(malformed()),
            };
            Ok(Action::Slide(dir))
        }
        [place, cell, value] if place.eq_ignore_ascii_case("place") => {
            let cell: usize = cell.parse().map_err(|_| malformed())?;
            if !(1..=16).contains(&cell) {
                return Err(format!("cell {cell} is outside 1..=16"));
            }
            let value: u32 = value.parse().map_err(|_| malformed())?;
            let rank = rank_of(value)
                .filter(|&r| r > 0)
                .ok_or_else(|| format!("{value} is not a tile value"))?;
            Ok(Action::Place(Spawn {
                cell: cell - 1,
                rank,
            }))
        }
        _ => Err(malformed()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let board = Board::from_values([2, 0, 0, 4, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]).unwrap();
        for m in [
            Message::Rules(Rules::Gpcc2015),
            Message::Rules(Rules::Gpcc2016),
            Message::Role(Side::Attacker),
            Message::Role(Side::Defender),
            Message::Board(board),
            Message::Score(1234),
            Message::Go,
            Message::End,
            Message::Action(Action::Slide(Direction::Left)),
            Message::Action(Action::Place(Spawn { cell: 15, rank: 2 })),
        ] {
            assert_eq!(Message::parse(&m.to_string()), Ok(m), "{m}");
        }
        assert_eq!(
            Message::Board(board).to_string(),
            "board 2 0 0 4 0 8 0 0 0 0 0 0 0 0 0 2"
        );
    }

    #[test]
    fn actions_parse_without_regard_to_case_and_reject_the_rest() {
        assert_eq!(parse_action(" UP "), Ok(Action::Slide(Direction::Up)));
        assert_eq!(
            parse_action("Place 1 4"),
            Ok(Action::Place(Spawn { cell: 0, rank: 2 }))
        );
        for bad in ["", "u", "up left", "place 1", "place x 2", "place 1 2 3"] {
            assert!(parse_action(bad).unwrap_err().contains("is not"), "{bad}");
        }
        assert_eq!(
            parse_action("place 17 2").unwrap_err(),
            "cell 17 is outside 1..=16"
        );
        assert_eq!(
            parse_action("place 3 3").unwrap_err(),
            "3 is not a tile value"
        );
        assert_eq!(
            parse_action("place 3 0").unwrap_err(),
            "0 is not a tile value"
        );
    }

    #[test]
    fn bad_messages_say_why() {
        for (line, want) in [
            ("", "an empty line"),
            ("rules gpcc2017", "unknown rules `gpcc2017`"),
            ("role", "`role` takes one word"),
            ("board 1 2", "16 tile values, found 2"),
            ("score -3", "score `-3` is not a number"),
            ("score 1000000000001", "not a number up to 1000000000000"),
            ("hello", "`hello` is not a message"),
            ("go now", "`go now` is not a message"),
        ] {
            let err = Message::parse(line).unwrap_err();
            assert!(err.contains(want), "{line}: {err}");
        }
    }
}
