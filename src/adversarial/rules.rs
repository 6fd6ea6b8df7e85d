//! The rules of adversarial 2048 as data: which tiles the attacker may place,
//! whose turn it is, and the moves of each side.
//!
//! The board is 4×4 and starts empty. The attacker puts a tile on any empty
//! cell (a 2 under `gpcc2015`; a 2 or a 4 under `gpcc2016`). Then the
//! defender makes a move that changes the board. The game ends when the
//! defender has no legal move. Every merge adds the new tile's value to the
//! defender's score. After a legal move some cell is always empty, so the
//! attacker can always place.

use crate::engine::{Board, Direction, Spawn, Timing, TurnOrder};

/// A rule set of the adversarial game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Rules {
    /// The attacker places a 2.
    Gpcc2015,
    /// The attacker places a 2 or a 4.
    Gpcc2016,
}

impl Rules {
    /// The ranks the attacker may place (1 = a 2, 2 = a 4).
    pub fn ranks(self) -> &'static [u8] {
        match self {
            Rules::Gpcc2015 => &[1],
            Rules::Gpcc2016 => &[1, 2],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rules::Gpcc2015 => "gpcc2015",
            Rules::Gpcc2016 => "gpcc2016",
        }
    }

    pub fn parse(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "gpcc2015" => Some(Rules::Gpcc2015),
            "gpcc2016" => Some(Rules::Gpcc2016),
            _ => None,
        }
    }

    /// The engine's turn order for this game: an empty start, a tile before
    /// every move, no move limit.
    pub fn turn_order(self) -> TurnOrder {
        TurnOrder {
            timing: Timing::BeforeMove,
            start_tiles: 0,
            move_limit: None,
        }
    }

    /// Whether the attacker may place a tile of `rank`.
    pub fn allows(self, rank: u8) -> bool {
        self.ranks().contains(&rank)
    }
}

/// The side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }
}

/// A move of either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Place(Spawn),
    Slide(Direction),
}

impl Action {
    /// A compact code: 0..4 for a slide, 4 + 2·cell + (rank − 1) for a placement.
    pub fn code(self) -> u8 {
        match self {
            Action::Slide(d) => d as u8,
            Action::Place(s) => 4 + 2 * s.cell as u8 + (s.rank - 1),
        }
    }

    pub fn from_code(code: u8) -> Action {
        if code < 4 {
            Action::Slide(Direction::ALL[code as usize])
        } else {
            let c = code - 4;
            Action::Place(Spawn {
                cell: (c / 2) as usize,
                rank: c % 2 + 1,
            })
        }
    }
}

/// A position: the board, the defender's score so far, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AdversarialPosition {
    pub board: Board,
    pub score: u64,
    pub to_move: Side,
}

impl AdversarialPosition {
    /// The start: an empty board, no score, the attacker to move.
    pub const START: AdversarialPosition = AdversarialPosition {
        board: Board::EMPTY,
        score: 0,
        to_move: Side::Attacker,
    };

    /// Whether the game is over: the defender is to move and cannot.
    pub fn is_over(&self) -> bool {
        self.to_move == Side::Defender && !self.board.has_move()
    }

    /// The legal actions, in a fixed order (slides in [`Direction::ALL`]
    /// order; placements by cell, then by rank).
    pub fn actions(&self, rules: Rules, out: &mut Vec<Action>) {
        out.clear();
        match self.to_move {
            Side::Defender => {
                out.extend(self.board.legal_moves().map(Action::Slide));
            }
            Side::Attacker => {
                let mut empty = self.board.empty_mask();
                while empty != 0 {
                    let cell = empty.trailing_zeros() as usize;
                    empty &= empty - 1;
                    for &rank in rules.ranks() {
                        out.push(Action::Place(Spawn { cell, rank }));
                    }
                }
            }
        }
    }

    /// The position after `action`, or `None` if it is not legal here (a
    /// slide that changes nothing, a tile on an occupied cell, a move out of
    /// turn). A slide that would make a 65536 is not playable on this board
    /// either and counts as illegal.
    pub fn play(&self, rules: Rules, action: Action) -> Option<AdversarialPosition> {
        match (self.to_move, action) {
            (Side::Defender, Action::Slide(dir)) => {
                let moved = self.board.make_move(dir)?;
                if moved.overflow {
                    return None;
                }
                Some(AdversarialPosition {
                    board: moved.board,
                    score: self.score + u64::from(moved.score),
                    to_move: Side::Attacker,
                })
            }
            (Side::Attacker, Action::Place(s)) if rules.allows(s.rank) => {
                let board = self.board.place(s.cell, s.rank).ok()?;
                Some(AdversarialPosition {
                    board,
                    score: self.score,
                    to_move: Side::Defender,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_codes_round_trip() {
        for code in 0..36u8 {
            assert_eq!(Action::from_code(code).code(), code);
        }
    }

    #[test]
    fn placements_follow_the_rules() {
        let mut v = Vec::new();
        AdversarialPosition::START.actions(Rules::Gpcc2015, &mut v);
        assert_eq!(v.len(), 16);
        AdversarialPosition::START.actions(Rules::Gpcc2016, &mut v);
        assert_eq!(v.len(), 32);
        let four = Action::Place(Spawn { cell: 3, rank: 2 });
        assert!(AdversarialPosition::START
            .play(Rules::Gpcc2015, four)
            .is_none());
        let p = AdversarialPosition::START
            .play(Rules::Gpcc2016, four)
            .unwrap();
        assert_eq!(p.to_move, Side::Defender);
        assert!(p.play(Rules::Gpcc2016, four).is_none());
    }

    #[test]
    fn merges_score_for_the_defender() {
        let p = AdversarialPosition {
            board: Board::from_ranks([1, 1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            score: 10,
            to_move: Side::Defender,
        };
        let after = p
            .play(Rules::Gpcc2015, Action::Slide(Direction::Left))
            .unwrap();
        assert_eq!(after.score, 10 + 4 + 8);
        assert_eq!(after.to_move, Side::Attacker);
        // A slide that changes nothing is illegal.
        assert!(p
            .play(Rules::Gpcc2015, Action::Slide(Direction::Up))
            .is_none());
    }
}
