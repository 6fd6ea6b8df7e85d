//! External players: programs that speak the line protocol ([`protocol`]).
//! The referee (this process) owns the game: its rules, seeds, spawns and
//! scores. Each worker thread starts a program once and reuses it for the
//! games it plays ([`play`]); before each game it sends `set` lines for the
//! values that differ from what the program holds, so a game depends on its
//! seed and its player's values alone, never on which thread played it.
//!
//! Whatever a program does wrong (too slow, crashed, garbage, an illegal
//! move, bad `param` lines, gone mid-game), the game ends with a
//! [`PlayerError`] naming the program, the game's seed, the offending line
//! and the tail of its stderr; the program is killed with its process group.

mod process;
pub mod protocol;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{play_from, play_game, Board, Direction, RandomPlacer, Start, Variant};
use crate::search::SearchStats;
use crate::selfplay::{GameResult, GameSpec};
use process::{Process, ReadError};
use protocol::Handshake;

pub use process::stop_all;

/// The default time a program has to start and finish its handshake.
pub const DEFAULT_HANDSHAKE_SECS: f64 = 30.0;
/// The default limit on one decision, in seconds.
pub const DEFAULT_DECISION_SECS: f64 = 5.0;
/// How long a program may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);
/// How long to wait for the rest of a failed program's stderr.
const TAIL_WAIT: Duration = Duration::from_millis(300);

/// A player program: how to start it and how long it may think.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// The program and its arguments (no shell: write `["sh", "-c", "…"]` for one).
    pub command: Vec<String>,
    /// The most one decision may take, in seconds.
    pub decision_secs: f64,
    /// The most the start and the handshake may take, in seconds.
    pub handshake_secs: f64,
}

impl Program {
    /// `command` with the default time limits.
    pub fn new(command: Vec<String>) -> Program {
        Program {
            command,
            decision_secs: DEFAULT_DECISION_SECS,
            handshake_secs: DEFAULT_HANDSHAKE_SECS,
        }
    }

    /// The command as one would type it, for messages.
    pub fn name(&self) -> String {
        self.command.join(" ")
    }

    fn decision_limit(&self) -> Duration {
        Duration::from_secs_f64(self.decision_secs.clamp(1e-3, 1e9))
    }
}

/// A player program that failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub struct PlayerError {
    /// The program's command.
    pub player: String,
    /// The seed of the game it failed in (`None`: before any game).
    pub seed: Option<u64>,
    /// The last line sent to it, when it matters.
    pub sent: Option<String>,
    /// The line it answered, when that line is the trouble.
    pub answer: Option<String>,
    /// What went wrong.
    pub problem: String,
    /// The last lines it wrote to stderr.
    pub stderr: Vec<String>,
}

impl fmt::Display for PlayerError {
    /// `player `CMD`, game seed S: PROBLEM; the line sent: `…`; its answer:
    /// `…``, then the tail of its stderr, a line each.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player `{}`", self.player)?;
        match self.seed {
            Some(seed) => write!(f, ", game seed {seed}")?,
            None => f.write_str(", handshake")?,
        }
        write!(f, ": {}", self.problem)?;
        if let Some(sent) = &self.sent {
            write!(f, "; the line sent: `{}`", sent.trim_end())?;
        }
        if let Some(answer) = &self.answer {
            write!(f, "; its answer: `{answer}`")?;
        }
        if self.stderr.is_empty() {
            f.write_str(" (its stderr is empty)")
        } else {
            f.write_str("; the end of its stderr:")?;
            for line in &self.stderr {
                write!(f, "\n    | {line}")?;
            }
            Ok(())
        }
    }
}

/// A parameter a program declared, with its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Declared {
    pub name: String,
    pub default: f64,
}

/// A running program after its handshake.
struct Connection {
    program: Program,
    process: Process,
    declared: Vec<Declared>,
    /// The value the program holds for each declared parameter.
    holds: Vec<f64>,
    /// Lines are built here, to send each batch of them in one write.
    out: String,
}

impl Connection {
    /// Starts `program` and reads its declarations.
    fn start(program: &Program) -> Result<Connection, Box<PlayerError>> {
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
            return Err(fail("the command is empty".into()));
        }
        let process =
            Process::spawn(&program.command).map_err(|e| fail(format!("cannot start it: {e}")))?;
        let mut c = Connection {
            program: program.clone(),
            process,
            declared: Vec::new(),
            holds: Vec::new(),
            out: String::with_capacity(128),
        };
        let hello = format!("hello {}\n", protocol::VERSION);
        c.process.send(&hello);
        let limit = Duration::from_secs_f64(program.handshake_secs.clamp(1e-3, 1e9));
        loop {
            let line = match c.process.receive(limit) {
                Ok(line) => line,
                Err(e) => return Err(c.fail(None, Some(&hello), None, e.to_string())),
            };
            match protocol::parse_handshake(&line) {
                Ok(Handshake::Ready) => break,
                Ok(Handshake::Param { name, default }) => {
                    if c.declared.iter().any(|d| d.name == name) {
                        let why = format!("parameter `{name}` is declared twice");
                        return Err(c.fail(None, Some(&hello), Some(&line), why));
                    }
                    c.declared.push(Declared { name, default });
                }
                Err(why) => return Err(c.fail(None, Some(&hello), Some(&line), why)),
            }
        }
        c.holds = c.declared.iter().map(|d| d.default).collect();
        Ok(c)
    }

    /// An error about this program, with its stderr's tail; the program is
    /// killed first, so that the tail is complete.
    fn fail(
        &mut self,
        seed: Option<u64>,
        sent: Option<&str>,
        answer: Option<&str>,
        problem: String,
    ) -> Box<PlayerError> {
        self.process.stop(None, Duration::ZERO);
        Box::new(PlayerError {
            player: self.program.name(),
            seed,
            sent: sent.map(str::to_string),
            answer: answer.map(str::to_string),
            problem,
            stderr: self.process.stderr_tail(TAIL_WAIT),
        })
    }

    /// Plays one game (see [`play`]).
    fn play(
        &mut self,
        values: &BTreeMap<String, f64>,
        spec: &GameSpec,
        seed: u64,
        start: Option<Start>,
    ) -> Result<GameResult, Box<PlayerError>> {
        let game = match spec.variant {
            Variant::Classic { p4 } if p4 == Variant::CLASSIC.p4() => "classic",
            Variant::Twos => "twos",
            other => {
                let why =
                    format!("external players play `classic` (p4 0.1) or `twos`, not {other:?}");
                return Err(self.fail(Some(seed), None, None, why));
            }
        };
        self.out.clear();
        for (name, &value) in values {
            let Some(k) = self.declared.iter().position(|d| &d.name == name) else {
                let why = format!("it declared no parameter `{name}`");
                return Err(self.fail(Some(seed), None, None, why));
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
        self.out.push_str("game ");
        self.out.push_str(game);
        self.out.push('\n');
        let mut pending = std::mem::take(&mut self.out);
        let limit = self.program.decision_limit();
        let mut failure: Option<Box<PlayerError>> = None;
        let mut decide = |board: Board| -> Direction {
            if failure.is_none() && self.process.has_more() {
                // Output before the question: a stray line, or the program's end.
                let why = match self.process.receive(limit) {
                    Ok(line) => format!("it wrote `{line}` before it was asked to move"),
                    Err(e) => format!("{e} in the middle of a game"),
                };
                failure = Some(self.fail(Some(seed), None, None, why));
            }
            if failure.is_none() {
                protocol::write_board(&mut pending, board);
                self.process.send(&pending);
                let answer = self.process.receive(limit);
                let sent = pending.lines().last().unwrap_or("").to_string();
                pending.clear();
                let problem = match answer {
                    Ok(line) => match protocol::parse_move(&line) {
                        Ok(dir) if board.make_move(dir).is_some() => return dir,
                        Ok(dir) => Some((
                            Some(line),
                            format!("move {} does not change the board", protocol::letter(dir)),
                        )),
                        Err(why) => Some((Some(line), why)),
                    },
                    Err(e @ ReadError::Ended(_)) => {
                        Some((None, format!("{e} in the middle of a game")))
                    }
                    Err(e) => Some((None, e.to_string())),
                };
                if let Some((answer, why)) = problem {
                    failure = Some(self.fail(Some(seed), Some(&sent), answer.as_deref(), why));
                }
            }
            // The game is lost to the error: end it quickly, without the program.
            Direction::ALL
                .into_iter()
                .find(|&d| board.make_move(d).is_some())
                .unwrap_or(Direction::Up)
        };
        let mut placer = RandomPlacer::new(seed, spec.variant.p4());
        let order = spec.turn_order();
        let record = match start {
            None => play_game(order, Board::EMPTY, &mut decide, &mut placer, |_, _| {}),
            Some(start) => play_from(order, start, &mut decide, &mut placer, |_, _| {}),
        };
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
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.process.stop(Some("quit\n"), QUIT_GRACE);
    }
}

thread_local! {
    /// This thread's program, kept between games.
    static CONNECTION: RefCell<Option<Connection>> = const { RefCell::new(None) };
}

/// Plays one game with `program` holding `values` (its other parameters at
/// their defaults), from `start` (`None`: the variant's empty board) with
/// spawns drawn from `seed`: the same spawns a built-in player meets on that
/// seed. The program is this thread's, started on first use; after an
/// error it is killed, and the next game starts a new one.
pub fn play(
    program: &Program,
    values: &BTreeMap<String, f64>,
    spec: &GameSpec,
    seed: u64,
    start: Option<Start>,
) -> Result<GameResult, Box<PlayerError>> {
    CONNECTION.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_some_and(|c| c.program != *program) {
            *slot = None;
        }
        if slot.is_none() {
            *slot = Some(Connection::start(program)?);
        }
        let result = slot
            .as_mut()
            .expect("started above")
            .play(values, spec, seed, start);
        if result.is_err() {
            *slot = None;
        }
        result
    })
}

/// Stops this thread's program, if it has one.
pub fn stop_this_thread() {
    CONNECTION.with(|cell| *cell.borrow_mut() = None);
}

/// Starts `program`, reads what it declares and asks it to quit.
pub fn describe(program: &Program) -> Result<Vec<Declared>, Box<PlayerError>> {
    let c = Connection::start(program)?;
    Ok(c.declared.clone())
}
