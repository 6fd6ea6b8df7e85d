//! A player on the player's end of the [`protocol`](super::protocol): it
//! reads the referee's lines one at a time and answers when it is to move.
//!
//! A game's searcher is made fresh at its `role` line (with the player's
//! evaluation for that role) and asked only on the player's own turns, as in an in-process game
//! ([`matchplay::play`](super::matchplay::play)), so with a ply or node limit
//! the answers depend on the input alone and equal the in-process choices.
//! [`serve`] holds a whole session: the referee's lines in, the answers out.

use std::io::{BufRead, Write};

use super::matchplay::TABLE_BITS;
use super::player::Player;
use super::protocol::{action_text, Message};
use super::rules::{Action, AdversarialPosition, Rules, Side};
use super::search::{AlphaBeta, Limits};
use crate::engine::Board;

/// The game being played: what the set-up lines gave so far.
struct Game {
    rules: Rules,
    /// Made at the `role` line, with the evaluation for that role.
    searcher: Option<AlphaBeta>,
    role: Option<Side>,
    board: Board,
    score: u64,
}

/// A player speaking the protocol.
pub struct ProtocolPlayer {
    player: Player,
    limits: Limits,
    game: Option<Game>,
}

impl ProtocolPlayer {
    /// `player` searching under `limits` (its own fixed depth, if any, wins).
    pub fn new(player: Player, limits: Limits) -> ProtocolPlayer {
        ProtocolPlayer {
            player,
            limits,
            game: None,
        }
    }

    /// Handles one line from the referee: `Ok(Some(answer))` when the player
    /// is to move, `Ok(None)` for a set-up line or `end`, and an error that
    /// says why for a line that is malformed or impossible here.
    pub fn handle(&mut self, line: &str) -> Result<Option<String>, String> {
        let message = Message::parse(line)?;
        if let Message::Rules(rules) = message {
            self.game = Some(Game {
                rules,
                searcher: None,
                role: None,
                board: Board::EMPTY,
                score: 0,
            });
            return Ok(None);
        }
        let game = self
            .game
            .as_mut()
            .ok_or("a game must start with a `rules` line")?;
        match message {
            // Handled above.
            Message::Rules(_) => {}
            Message::Role(side) => {
                game.role = Some(side);
                let eval = self.player.eval(side).clone();
                game.searcher = Some(AlphaBeta::new(game.rules, eval, TABLE_BITS));
            }
            Message::Board(board) => game.board = board,
            Message::Score(score) => game.score = score,
            Message::End => self.game = None,
            Message::Go => return self.answer().map(Some),
            Message::Action(action) => {
                game.apply(action, false)?;
                return self.answer().map(Some);
            }
        }
        Ok(None)
    }

    /// Searches the player's move, plays it on its own board and names it.
    fn answer(&mut self) -> Result<String, String> {
        let game = self.game.as_mut().ok_or("no game")?;
        let side = game.role.ok_or("no `role` line before the first turn")?;
        let limits = self.player.limits(side, self.limits);
        let pos = game.position(side);
        let searcher = game.searcher.as_mut().ok_or("no `role` line")?;
        let decision = searcher
            .decide(pos, limits)
            .ok_or_else(|| format!("the {} has no legal move here", side.name()))?;
        game.apply(decision.action, true)?;
        Ok(action_text(decision.action))
    }
}

impl Game {
    fn position(&self, to_move: Side) -> AdversarialPosition {
        AdversarialPosition {
            board: self.board,
            score: self.score,
            to_move,
        }
    }

    /// Plays `action`: the player's own when `ours`, else the opponent's.
    fn apply(&mut self, action: Action, ours: bool) -> Result<(), String> {
        let role = self.role.ok_or("no `role` line before the first turn")?;
        let mover = if ours { role } else { role.other() };
        let next = self
            .position(mover)
            .play(self.rules, action)
            .ok_or_else(|| {
                format!(
                    "`{}` is not a legal {} action here",
                    action_text(action),
                    mover.name()
                )
            })?;
        self.board = next.board;
        self.score = next.score;
        Ok(())
    }
}

/// Why [`serve`] stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A line that is malformed or impossible here (bad input).
    #[error("protocol line {line}: {why}")]
    Protocol { line: usize, why: String },
    /// An answer could not be written.
    #[error(transparent)]
    Output(#[from] std::io::Error),
}

/// Answers the referee's lines from `input` on `output`, flushing each
/// answer, until the input ends.
pub fn serve(
    mut player: ProtocolPlayer,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), ServeError> {
    for (number, line) in input.lines().enumerate() {
        let protocol = |why: String| ServeError::Protocol {
            line: number + 1,
            why,
        };
        let line = line.map_err(|e| protocol(e.to_string()))?;
        if let Some(answer) = player.handle(&line).map_err(protocol)? {
            writeln!(output, "{answer}")?;
            output.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player() -> ProtocolPlayer {
        ProtocolPlayer::new(Player::builtin("eval1").unwrap(), Limits::plies(2))
    }

    #[test]
    fn answers_only_on_its_turns() {
        let mut p = player();
        for line in [
            "rules gpcc2015",
            "role defender",
            "board 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
            "score 0",
        ] {
            assert_eq!(p.handle(line), Ok(None), "{line}");
        }
        let answer = p.handle("place 1 2").unwrap().unwrap();
        assert!(
            ["up", "down", "left", "right"].contains(&answer.as_str()),
            "{answer}"
        );
        assert_eq!(p.handle("end"), Ok(None));
        assert!(p.handle("go").is_err());
    }

    #[test]
    fn the_attacker_places_on_an_empty_cell() {
        let mut p = player();
        for line in [
            "rules gpcc2016",
            "role attacker",
            "board 2 2 2 2 4 4 4 4 8 8 8 8 16 16 16 0",
            "score 0",
        ] {
            assert_eq!(p.handle(line), Ok(None), "{line}");
        }
        let answer = p.handle("go").unwrap().unwrap();
        assert!(answer.starts_with("place 16 "), "{answer}");
    }

    #[test]
    fn impossible_input_is_an_error() {
        let mut p = player();
        assert!(p.handle("role defender").unwrap_err().contains("`rules`"));
        p.handle("rules gpcc2015").unwrap();
        assert!(p.handle("go").unwrap_err().contains("`role`"));
        p.handle("role defender").unwrap();
        let err = p.handle("place 1 4").unwrap_err();
        assert_eq!(err, "`place 1 4` is not a legal attacker action here");
        assert!(p.handle("left").is_err());
    }
}
