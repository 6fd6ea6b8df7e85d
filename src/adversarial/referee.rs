//! The referee's end of the [`protocol`](super::protocol): games and matches
//! between two [`Seat`]s (player programs, or anything that answers lines).
//!
//! The referee sends each seat the set-up lines, then asks the side to move
//! for its action and checks it against the rules before passing it on. An
//! answer that is missing, late, malformed or illegal loses the game for the
//! seat that gave it: the game stops there, with a message that names the
//! answer and the line it answered. A player that loses a game this way loses
//! the match; when both do, the match is drawn.

use std::fmt;

use serde::Serialize;

use super::matchplay::{opening, MatchGame, MatchResult, MatchSpec, MatchVerdict, Opening};
use super::protocol::{parse_action, Message};
use super::rules::{Action, AdversarialPosition, Rules, Side};
use crate::engine::value_of;

/// One player's end of the line: the referee sends it lines and waits for
/// its answers.
pub trait Seat {
    /// Why a line could not be sent or received (a time-out, the end of
    /// the program's output, …).
    type Error: fmt::Display;
    /// Sends one line (without its newline).
    fn send(&mut self, line: &str) -> Result<(), Self::Error>;
    /// The next line the player wrote (without its newline).
    fn receive(&mut self) -> Result<String, Self::Error>;
}

/// A player of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Who {
    A,
    B,
}

impl Who {
    pub fn other(self) -> Who {
        match self {
            Who::A => Who::B,
            Who::B => Who::A,
        }
    }
}

/// A game lost by breaking the protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProtocolFault {
    /// 1 for the game A defends, 2 for the game B defends.
    pub game: u32,
    pub player: Who,
    /// `attacker` or `defender`.
    pub role: &'static str,
    pub message: String,
}

/// A refereed match: the results as in-process play reports them, and the
/// faults that decided it, if any.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefereedMatch {
    #[serde(flatten)]
    pub result: MatchResult,
    pub faults: Vec<ProtocolFault>,
}

/// A refereed game: where it stopped, and who broke the protocol (the side
/// and why), if anyone did.
#[derive(Clone, Debug, PartialEq)]
pub struct RefereedGame {
    pub result: MatchGame,
    pub fault: Option<(Side, String)>,
}

/// Plays match `index` of `spec` (its search limits are the programs'
/// business and go unused): the same opening as
/// [`play_match`](super::matchplay::play_match), then a game with A
/// defending and one with B defending, each between fresh seats from `seat`.
pub fn referee_match<S: Seat, E>(
    spec: &MatchSpec,
    index: u64,
    mut seat: impl FnMut(Who) -> Result<S, E>,
) -> Result<RefereedMatch, E> {
    let opening_seed = crate::seeds::derive(spec.seed, index);
    let open = opening(spec.rules, spec.opening_turns, opening_seed);
    let mut faults = Vec::new();
    let mut game = |number: u32, defender: Who| -> Result<MatchGame, E> {
        let mut def = seat(defender)?;
        let mut att = seat(defender.other())?;
        let g = referee_game(spec.rules, &open, &mut def, &mut att);
        if let Some((side, message)) = g.fault {
            faults.push(ProtocolFault {
                game: number,
                player: if side == Side::Defender {
                    defender
                } else {
                    defender.other()
                },
                role: side.name(),
                message,
            });
        }
        Ok(g.result)
    };
    let a_defends = game(1, Who::A)?;
    let b_defends = game(2, Who::B)?;
    let faulted = |who| faults.iter().any(|f: &ProtocolFault| f.player == who);
    let verdict = match (faulted(Who::A), faulted(Who::B)) {
        (true, false) => MatchVerdict::Loss,
        (false, true) => MatchVerdict::Win,
        (true, true) => MatchVerdict::Draw,
        (false, false) => MatchVerdict::by_totals(a_defends.score, b_defends.score),
    };
    Ok(RefereedMatch {
        result: MatchResult {
            index,
            opening_seed,
            a_defends,
            b_defends,
            verdict,
        },
        faults,
    })
}

/// One seat with what the referee has told it, for messages.
struct Line<'a, S> {
    seat: &'a mut S,
    side: Side,
    sent: u32,
    last: String,
    answers: u32,
}

impl<S: Seat> Line<'_, S> {
    fn send(&mut self, message: Message) -> Result<(), (Side, String)> {
        self.sent += 1;
        self.last = message.to_string();
        self.seat.send(&self.last).map_err(|e| {
            let why = format!("cannot send line {} `{}`: {e}", self.sent, self.last);
            (self.side, why)
        })
    }

    /// The next answer, numbered.
    fn ask(&mut self) -> Result<(u32, String), (Side, String)> {
        let line = self.seat.receive().map_err(|e| {
            let why = format!("after line {} `{}`: {e}", self.sent, self.last);
            (self.side, why)
        })?;
        self.answers += 1;
        Ok((self.answers, line))
    }
}

/// Where a game stands.
struct Play {
    rules: Rules,
    pos: AdversarialPosition,
    moves: u32,
    /// Set when a slide made a 65536 (the engine's tile cap): the game ends.
    capped: bool,
}

/// Referees one game from `open` between two seats.
pub fn referee_game<S: Seat>(
    rules: Rules,
    open: &Opening,
    defender: &mut S,
    attacker: &mut S,
) -> RefereedGame {
    let mut play = Play {
        rules,
        pos: open.position,
        moves: 0,
        capped: false,
    };
    let mut lines = [defender, attacker].map(|seat| Line {
        seat,
        side: Side::Defender,
        sent: 0,
        last: String::new(),
        answers: 0,
    });
    lines[1].side = Side::Attacker;
    let fault = play.run(&mut lines).err();
    for line in &mut lines {
        // Both learn that the game is over; one that cannot hear it any more
        // has nothing left to lose.
        let _ = line.send(Message::End);
    }
    RefereedGame {
        result: play.result(),
        fault,
    }
}

impl Play {
    /// Sets both seats up, then asks the side to move until the game ends.
    fn run<S: Seat>(&mut self, lines: &mut [Line<'_, S>; 2]) -> Result<(), (Side, String)> {
        for line in lines.iter_mut() {
            line.send(Message::Rules(self.rules))?;
            line.send(Message::Role(line.side))?;
            line.send(Message::Board(self.pos.board))?;
            line.send(Message::Score(self.pos.score))?;
        }
        let mut relay = Message::Go;
        while !self.pos.is_over() && !self.capped {
            let line = &mut lines[usize::from(self.pos.to_move == Side::Attacker)];
            line.send(relay)?;
            let (number, text) = line.ask()?;
            let action = self.step(&text).map_err(|why| {
                (
                    line.side,
                    format!("answer {number} `{}`: {why}", quote(&text)),
                )
            })?;
            relay = Message::Action(action);
        }
        Ok(())
    }

    /// Checks an answer of the side to move and plays it.
    fn step(&mut self, text: &str) -> Result<Action, String> {
        let action = parse_action(text)?;
        let pos = self.pos;
        match (pos.to_move, action) {
            (Side::Attacker, Action::Slide(_)) => {
                return Err("the attacker must answer `place CELL VALUE`".into())
            }
            (Side::Defender, Action::Place(_)) => {
                return Err("the defender must answer up, down, left or right".into())
            }
            (Side::Attacker, Action::Place(s)) if !self.rules.allows(s.rank) => {
                return Err(format!(
                    "{} allows only {}",
                    self.rules.name(),
                    allowed(self.rules)
                ))
            }
            (Side::Attacker, Action::Place(s)) if pos.board.rank(s.cell) != 0 => {
                return Err(format!("cell {} is occupied", s.cell + 1))
            }
            (Side::Defender, Action::Slide(dir)) => match pos.board.make_move(dir) {
                None => return Err("the move does not change the board".into()),
                Some(m) if m.overflow => {
                    // A 65536 does not fit the board: the engine ends such a game.
                    self.capped = true;
                    self.pos.board = m.board;
                    self.pos.score += u64::from(m.score);
                    self.moves += 1;
                    return Ok(action);
                }
                Some(_) => self.moves += 1,
            },
            _ => {}
        }
        self.pos = pos
            .play(self.rules, action)
            .ok_or_else(|| "not a legal action here".to_string())?;
        Ok(action)
    }

    fn result(&self) -> MatchGame {
        MatchGame {
            score: self.pos.score,
            moves: self.moves,
            max_tile: if self.capped {
                65536
            } else {
                value_of(self.pos.board.max_rank())
            },
            board: self.pos.board,
        }
    }
}

/// The tiles `rules` lets the attacker place, in words.
fn allowed(rules: Rules) -> String {
    let values: Vec<String> = rules
        .ranks()
        .iter()
        .map(|&r| value_of(r).to_string())
        .collect();
    format!("a {}", values.join(" or a "))
}

/// An answer as messages show it: trimmed, escaped, at most 40 characters.
fn quote(text: &str) -> String {
    let text = text.trim();
    let mut shown: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().count() > 40 {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::super::matchplay::play_match;
    use super::super::player::Player;
    use super::super::protocol_player::ProtocolPlayer;
    use super::super::search::Limits;
    use super::*;

    /// Our player, in process, behind the protocol.
    struct Ours {
        player: ProtocolPlayer,
        answers: VecDeque<String>,
    }

    impl Seat for Ours {
        type Error = String;
        fn send(&mut self, line: &str) -> Result<(), String> {
            if let Some(answer) = self.player.handle(line)? {
                self.answers.push_back(answer);
            }
            Ok(())
        }
        fn receive(&mut self) -> Result<String, String> {
            self.answers.pop_front().ok_or_else(|| "silent".into())
        }
    }

    fn spec(rules: Rules) -> MatchSpec {
        MatchSpec {
            rules,
            limits: Limits::plies(3),
            opening_turns: 2,
            matches: 3,
            seed: 5,
        }
    }

    fn ours(name: &str, limits: Limits) -> Ours {
        let player = Player::builtin(name).unwrap();
        Ours {
            player: ProtocolPlayer::new(player, limits),
            answers: VecDeque::new(),
        }
    }

    #[test]
    fn refereed_games_equal_in_process_games() {
        for rules in [Rules::Gpcc2015, Rules::Gpcc2016] {
            let s = spec(rules);
            let (a, b) = (
                Player::builtin("eval1").unwrap(),
                Player::builtin("score").unwrap(),
            );
            for i in 0..s.matches {
                let refereed = referee_match(&s, i, |who| {
                    Ok::<_, ()>(ours(
                        if who == Who::A { "eval1" } else { "score" },
                        s.limits,
                    ))
                })
                .unwrap();
                assert_eq!(refereed.faults, []);
                assert_eq!(refereed.result, play_match(&s, &a, &b, i));
            }
        }
    }

    /// A seat that gives fixed answers and then falls silent.
    struct Script(VecDeque<&'static str>);

    impl Seat for Script {
        type Error = &'static str;
        fn send(&mut self, _: &str) -> Result<(), &'static str> {
            Ok(())
        }
        fn receive(&mut self) -> Result<String, &'static str> {
            self.0.pop_front().map(String::from).ok_or("silent")
        }
    }

    /// The fault of the game where B, answering `answers`, attacks our A.
    fn attacker_fault(rules: Rules, answers: &[&'static str]) -> ProtocolFault {
        let s = spec(rules);
        let m = referee_match(&s, 0, |who| {
            Ok::<_, ()>(match who {
                Who::A => Seats::Ours(Box::new(ours("eval1", s.limits))),
                Who::B => Seats::Script(Script(answers.iter().copied().collect())),
            })
        })
        .unwrap();
        assert_eq!(m.result.verdict, MatchVerdict::Win);
        m.faults.into_iter().next().unwrap()
    }

    enum Seats {
        Ours(Box<Ours>),
        Script(Script),
    }

    impl Seat for Seats {
        type Error = String;
        fn send(&mut self, line: &str) -> Result<(), String> {
            match self {
                Seats::Ours(o) => o.send(line),
                Seats::Script(s) => s.send(line).map_err(String::from),
            }
        }
        fn receive(&mut self) -> Result<String, String> {
            match self {
                Seats::Ours(o) => o.receive(),
                Seats::Script(s) => s.receive().map_err(String::from),
            }
        }
    }

    #[test]
    fn bad_answers_lose_the_game_with_a_message() {
        let f = attacker_fault(Rules::Gpcc2016, &[]);
        assert_eq!((f.game, f.player, f.role), (1, Who::B, "attacker"));
        assert_eq!(f.message, "after line 5 `go`: silent");
        let cases: [(Rules, &[&str], &str); 5] = [
            (
                Rules::Gpcc2016,
                &["hello"],
                "answer 1 `hello`: `hello` is not `place CELL VALUE`",
            ),
            (
                Rules::Gpcc2016,
                &["up"],
                "answer 1 `up`: the attacker must answer `place",
            ),
            (
                Rules::Gpcc2015,
                &["place 1 4"],
                "answer 1 `place 1 4`: gpcc2015 allows only a 2",
            ),
            (
                Rules::Gpcc2016,
                &["place 1 8"],
                "gpcc2016 allows only a 2 or a 4",
            ),
            (
                Rules::Gpcc2016,
                &["place 99 2"],
                "cell 99 is outside 1..=16",
            ),
        ];
        for (rules, answers, want) in cases {
            let f = attacker_fault(rules, answers);
            assert!(f.message.contains(want), "{answers:?}: {}", f.message);
        }
    }

    #[test]
    fn an_occupied_cell_is_illegal() {
        let s = spec(Rules::Gpcc2015);
        let open = opening(s.rules, 2, 1);
        let cell = (0..16).find(|&c| open.position.board.rank(c) != 0).unwrap();
        let text = format!("place {} 2", cell + 1);
        let answer: &'static str = Box::leak(text.into_boxed_str());
        let mut def = Seats::Ours(Box::new(ours("eval1", s.limits)));
        let mut att = Seats::Script(Script([answer].into()));
        let g = referee_game(s.rules, &open, &mut def, &mut att);
        let (side, why) = g.fault.unwrap();
        assert_eq!(side, Side::Attacker);
        assert!(
            why.ends_with(&format!("cell {} is occupied", cell + 1)),
            "{why}"
        );
        assert_eq!(g.result.score, open.position.score);
    }

    #[test]
    fn a_defender_move_that_changes_nothing_is_illegal() {
        let open = Opening {
            position: AdversarialPosition::START,
            actions: vec![],
        };
        let mut def = Script(["up", "up"].into());
        let mut att = Script(["place 1 2", "place 2 2"].into());
        let g = referee_game(Rules::Gpcc2015, &open, &mut def, &mut att);
        assert_eq!(
            g.fault,
            Some((
                Side::Defender,
                "answer 1 `up`: the move does not change the board".into()
            ))
        );
    }
}
