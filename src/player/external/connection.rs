//! One running player program after its handshake: the version it speaks,
//! what it declared, the values it holds, and version 1's conversation of
//! one game (the `set` lines and `game` line, then a `board` line and a
//! `move` answer per decision; version 2's is in `lockstep.rs`). Every
//! failure becomes a [`PlayerError`] with the tail of the program's stderr,
//! after the program is killed.

use std::collections::BTreeMap;
use std::time::Duration;

use super::protocol::{self, Handshake};
use super::{Declared, PlayerError, Program};
use crate::child::{Child, ChildError, Deadline, Stderr};
use crate::engine::{play_from, play_game, Board, Direction, RandomPlacer, Start, Variant};
use crate::search::SearchStats;
use crate::selfplay::{GameResult, GameSpec};

/// How long a program may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);
/// How long to wait for the rest of a failed program's stderr.
const TAIL_WAIT: Duration = Duration::from_millis(300);

/// A running program after its handshake.
pub(super) struct Connection {
    pub(super) program: Program,
    pub(super) process: Child,
    /// The protocol version it speaks: 2 when it took `hello 2`, else 1.
    pub(super) version: u32,
    pub(super) declared: Vec<Declared>,
    /// The value the program holds for each declared parameter.
    holds: Vec<f64>,
    /// Lines are built here, to send each batch of them in one write.
    pub(super) out: String,
}

/// Why a handshake failed: the error, and whether the program ended before
/// its first line (a version 1 program that refuses `hello 2`).
struct Refused(Box<PlayerError>, bool);

impl Connection {
    /// Starts `program` and reads its declarations. With `lockstep` above 1 it
    /// offers version 2; a program that ends without a word at `hello 2` is
    /// started again and greeted with `hello 1`.
    pub(super) fn start(program: &Program) -> Result<Connection, Box<PlayerError>> {
        if program.lockstep <= 1 {
            return Connection::open(program, 1).map_err(|Refused(e, _)| e);
        }
        match Connection::open(program, protocol::VERSION) {
            Err(Refused(_, true)) => Connection::open(program, 1).map_err(|Refused(e, _)| e),
            other => other.map_err(|Refused(e, _)| e),
        }
    }

    /// Starts `program` and greets it with `hello OFFER`.
    fn open(program: &Program, offer: u32) -> Result<Connection, Refused> {
        let fail = |problem: String| {
            Box::new(PlayerError {
                player: program.name(),
                seed: None,
                sent: None,
                answer: None,
                problem,
                stderr: Vec::new(),
            })
        };
        if program.command.is_empty() {
            return Err(Refused(fail("the command is empty".into()), false));
        }
        let process = Child::spawn(&program.command, Stderr::Tail)
            .map_err(|e| Refused(fail(format!("cannot start it: {e}")), false))?;
        let mut c = Connection {
            program: program.clone(),
            process,
            version: 1,
            declared: Vec::new(),
            holds: Vec::new(),
            out: String::with_capacity(128),
        };
        c.handshake(offer)?;
        c.holds = c.declared.iter().map(|d| d.default).collect();
        Ok(c)
    }

    /// Says `hello OFFER`, reads the version taken (version 2's first line;
    /// none: version 1) and the `param` lines up to `ready`.
    fn handshake(&mut self, offer: u32) -> Result<(), Refused> {
        let hello = format!("hello {offer}\n");
        let limit = Duration::from_secs_f64(self.program.handshake_secs.clamp(1e-3, 1e9));
        if let Err(e) = self.process.send(&hello, Deadline::after(limit)) {
            return Err(Refused(
                self.fail(None, Some(&hello), None, e.to_string()),
                false,
            ));
        }
        let mut first = true;
        loop {
            let line = match self.process.receive(Deadline::after(limit)) {
                Ok(line) => line,
                Err(e) => {
                    let silent = first && matches!(e, ChildError::Ended(_));
                    return Err(Refused(
                        self.fail(None, Some(&hello), None, e.to_string()),
                        silent,
                    ));
                }
            };
            let was_first = std::mem::replace(&mut first, false);
            let fail = |c: &mut Connection, line: &str, why: String| {
                Refused(c.fail(None, Some(&hello), Some(line), why), false)
            };
            match protocol::parse_handshake(&line) {
                Ok(Handshake::Version(v)) if was_first && v <= offer => self.version = v,
                Ok(Handshake::Version(v)) => {
                    let why = if was_first {
                        format!("it took version {v}, but was offered version {offer} at most")
                    } else {
                        "`version` comes first, before any `param`".into()
                    };
                    return Err(fail(self, &line, why));
                }
                Ok(Handshake::Ready) => return Ok(()),
                Ok(Handshake::Param { name, default }) => {
                    if self.declared.iter().any(|d| d.name == name) {
                        let why = format!("parameter `{name}` is declared twice");
                        return Err(fail(self, &line, why));
                    }
                    self.declared.push(Declared { name, default });
                }
                Err(why) => return Err(fail(self, &line, why)),
            }
        }
    }

    /// An error about this program, with its stderr's tail; the program is
    /// killed first, so that the tail is complete.
    pub(super) fn fail(
        &mut self,
        seed: Option<u64>,
        sent: Option<&str>,
        answer: Option<&str>,
        problem: String,
    ) -> Box<PlayerError> {
        self.process.stop(Duration::ZERO);
        Box::new(PlayerError {
            player: self.program.name(),
            seed,
            sent: sent.map(str::to_string),
            answer: answer.map(str::to_string),
            problem,
            stderr: self.process.stderr_tail(TAIL_WAIT),
        })
    }

    /// Plays one game (see [`super::play`]).
    pub(super) fn play(
        &mut self,
        values: &BTreeMap<String, f64>,
        spec: &GameSpec,
        seed: u64,
        start: Option<Start>,
    ) -> Result<GameResult, Box<PlayerError>> {
        let game = match game_word(spec.variant) {
            Ok(word) => word,
            Err(why) => return Err(self.fail(Some(seed), None, None, why)),
        };
        self.out.clear();
        if let Err(why) = self.set_values(values) {
            return Err(self.fail(Some(seed), None, None, why));
        }
        self.out.push_str("game ");
        self.out.push_str(game);
        self.out.push('\n');
        let mut turns = Turns {
            limit: self.program.decision_limit(),
            pending: std::mem::take(&mut self.out),
            c: self,
            seed,
            failure: None,
        };
        let mut decide = |board: Board| turns.decide(board);
        let mut placer = RandomPlacer::new(seed, spec.variant.p4());
        let order = spec.turn_order();
        let record = match start {
            None => play_game(order, Board::EMPTY, &mut decide, &mut placer, |_, _| {}),
            Some(start) => play_from(order, start, &mut decide, &mut placer, |_, _| {}),
        };
        let Turns {
            pending, failure, ..
        } = turns;
        self.out = pending;
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(GameResult {
            seed,
            start,
            record,
            stats: SearchStats {
                decisions: u64::from(record.moves),
                ..SearchStats::default()
            },
        })
    }

    /// Adds to the lines to send a `set` line for each of `values` the
    /// program does not hold, and one for each parameter `values` leaves
    /// out that is not at its default; or names a parameter it never declared.
    pub(super) fn set_values(&mut self, values: &BTreeMap<String, f64>) -> Result<(), String> {
        for (name, &value) in values {
            let Some(k) = self.declared.iter().position(|d| &d.name == name) else {
                return Err(format!("it declared no parameter `{name}`"));
            };
            if self.holds[k].to_bits() != value.to_bits() {
                self.out.push_str(&protocol::set_line(name, value));
                self.holds[k] = value;
            }
        }
        // Parameters this player leaves out go back to their defaults.
        for (k, d) in self.declared.iter().enumerate() {
            if !values.contains_key(&d.name) && self.holds[k].to_bits() != d.default.to_bits() {
                self.out.push_str(&protocol::set_line(&d.name, d.default));
                self.holds[k] = d.default;
            }
        }
        Ok(())
    }
}

/// The `game` line's word for `variant`, or why external players cannot play it.
pub(super) fn game_word(variant: Variant) -> Result<&'static str, String> {
    match variant {
        Variant::Classic { p4 } if p4 == Variant::CLASSIC.p4() => Ok("classic"),
        Variant::Twos => Ok("twos"),
        other => Err(format!(
            "external players play `classic` (p4 0.1) or `twos`, not {other:?}"
        )),
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // A program that stopped reading misses its `quit`; it is killed anyway.
        let _ = self.process.send("quit\n", Deadline::after(QUIT_GRACE));
        self.process.stop(QUIT_GRACE);
    }
}

/// The decisions of one game: each board goes out with the lines still
/// pending (the `set` and `game` lines, before the first), and the answer
/// comes back. After a failure the game is played out without the program.
struct Turns<'c> {
    c: &'c mut Connection,
    seed: u64,
    limit: Duration,
    pending: String,
    failure: Option<Box<PlayerError>>,
}

impl Turns<'_> {
    /// The program's move on `board`, or, once it failed, any legal move.
    fn decide(&mut self, board: Board) -> Direction {
        if self.failure.is_none() {
            match self.ask(board) {
                Ok(dir) => return dir,
                Err(e) => self.failure = Some(e),
            }
        }
        // The game is lost to the error: end it quickly, without the program.
        Direction::ALL
            .into_iter()
            .find(|&d| board.make_move(d).is_some())
            .unwrap_or(Direction::Up)
    }

    /// Sends `board` (after the pending lines) and reads a legal move.
    fn ask(&mut self, board: Board) -> Result<Direction, Box<PlayerError>> {
        let (seed, process) = (Some(self.seed), &mut self.c.process);
        if process.has_more() {
            // Output before the question: a stray line, or the program's end.
            let why = match process.receive(Deadline::after(self.limit)) {
                Ok(line) => format!("it wrote `{line}` before it was asked to move"),
                Err(e) => format!("{e} in the middle of a game"),
            };
            return Err(self.c.fail(seed, None, None, why));
        }
        protocol::write_board(&mut self.pending, board);
        let answer = process
            .send(&self.pending, Deadline::after(self.limit))
            .and_then(|()| process.receive(Deadline::after(self.limit)));
        let sent = self.pending.lines().last().unwrap_or("").to_string();
        self.pending.clear();
        let (answer, why) = match answer {
            Ok(line) => match protocol::parse_move(&line) {
                Ok(dir) if board.make_move(dir).is_some() => return Ok(dir),
                Ok(dir) => {
                    let letter = protocol::letter(dir);
                    (
                        Some(line),
                        format!("move {letter} does not change the board"),
                    )
                }
                Err(why) => (Some(line), why),
            },
            Err(e @ ChildError::Ended(_)) => (None, format!("{e} in the middle of a game")),
            Err(e) => (None, e.to_string()),
        };
        Err(self.c.fail(seed, Some(&sent), answer.as_deref(), why))
    }
}
