//! External players: programs that speak the line protocol ([`protocol`]).
//! The referee (this process) owns the game: its rules, seeds, spawns and
//! scores. Each worker thread starts a program once and reuses it for the
//! games it plays ([`play`], [`play_many`]); before a player's games it sends
//! `set` lines for the values that differ from what the program holds, so a
//! game depends on its seed and its player's values alone, never on which
//! thread played it, nor on which games shared its lines. A program that
//! speaks version 2 plays games of one player in lock step, in two lines of up
//! to [`Program::lockstep`] boards each, one line answered while the other waits.
//!
//! Whatever a program does wrong (too slow, crashed, garbage, an illegal
//! move, bad `param` lines, gone mid-game), the game ends with a
//! [`PlayerError`] naming the program, the game's seed, the offending line
//! and the tail of its stderr; the program is killed with its process group.

//!
//! - this file: a [`Program`], its [`PlayerError`], and the thread's program
//!   kept between games;
//! - [`protocol`]: the lines of the protocol, read and written;
//! - `connection`: one running program, its handshake and its games, one
//!   decision a line (version 1);
//! - `lockstep`: version 2's games in lock step, a line of boards a round
//!   trip, two lines in flight;
//! - the program itself runs as a [`crate::child::Child`].

mod connection;
mod lockstep;
pub mod protocol;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::Start;
use crate::selfplay::{GameResult, GameSpec};
use connection::Connection;
pub use protocol::MAX_BATCH;

/// The default time a program has to start and finish its handshake.
pub const DEFAULT_HANDSHAKE_SECS: f64 = 30.0;
/// The default limit on one decision, in seconds.
pub const DEFAULT_DECISION_SECS: f64 = 5.0;
/// The default number of games a worker plays in lock step with its program
/// (protocol version 2): see docs/src/guide/players.md for the measurement.
pub const DEFAULT_LOCKSTEP: usize = 64;

fn default_lockstep() -> usize {
    DEFAULT_LOCKSTEP
}

/// A player program: how to start it and how long it may think.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// The program and its arguments (no shell: write `["sh", "-c", "…"]` for one).
    pub command: Vec<String>,
    /// The most one decision may take, in seconds.
    pub decision_secs: f64,
    /// The most the start and the handshake may take, in seconds.
    pub handshake_secs: f64,
    /// Boards in a line to the program (1 ..= [`MAX_BATCH`]; a worker keeps
    /// two lines of games in flight): above 1 it offers protocol version 2;
    /// 1, or a program that speaks version 1 only, plays a game at a time.
    #[serde(default = "default_lockstep")]
    pub lockstep: usize,
}

impl Program {
    /// `command` with the default time limits.
    pub fn new(command: Vec<String>) -> Program {
        Program {
            command,
            decision_secs: DEFAULT_DECISION_SECS,
            handshake_secs: DEFAULT_HANDSHAKE_SECS,
            lockstep: DEFAULT_LOCKSTEP,
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

thread_local! {
    /// This thread's program, kept between games.
    static CONNECTION: RefCell<Option<Connection>> = const { RefCell::new(None) };
}

/// One game for [`play_many`]: its seed, where it starts (`None`: the
/// variant's empty board), and an id given back with its result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    pub id: usize,
    pub seed: u64,
    pub start: Option<Start>,
}

/// Where a worker's games come from and where their results go.
pub trait Jobs {
    /// The next game to play, or `None` when there is none left for this
    /// player (the games in flight are then played to their end).
    fn next(&mut self) -> Option<Job>;
    /// A finished game.
    fn done(&mut self, id: usize, result: GameResult);
}

/// Plays the games `jobs` hands out, each with `program` holding `values`,
/// on this thread's program: two lines of up to [`Program::lockstep`] in lock step
/// when it speaks version 2, else one after the other. Each game is the
/// game [`play`] plays on its seed. After an error the program is killed
/// and the games in flight are lost.
pub fn play_many(
    program: &Program,
    values: &BTreeMap<String, f64>,
    spec: &GameSpec,
    jobs: &mut dyn Jobs,
) -> Result<(), Box<PlayerError>> {
    with_connection(program, |c| {
        if c.version >= 2 {
            return c.play_lockstep(values, spec, jobs);
        }
        while let Some(job) = jobs.next() {
            let result = c.play(values, spec, job.seed, job.start)?;
            jobs.done(job.id, result);
        }
        Ok(())
    })
}

/// Runs `f` on this thread's program for `program`, started on first use;
/// after an error it is killed, and the next use starts a new one.
fn with_connection<T>(
    program: &Program,
    f: impl FnOnce(&mut Connection) -> Result<T, Box<PlayerError>>,
) -> Result<T, Box<PlayerError>> {
    CONNECTION.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_some_and(|c| c.program != *program) {
            *slot = None;
        }
        if slot.is_none() {
            *slot = Some(Connection::start(program)?);
        }
        let result = f(slot.as_mut().expect("started above"));
        if result.is_err() {
            *slot = None;
        }
        result
    })
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
    with_connection(program, |c| {
        if c.version >= 2 {
            let mut one = One {
                job: Some(Job { id: 0, seed, start }),
                result: None,
            };
            c.play_lockstep(values, spec, &mut one)?;
            Ok(one.result.expect("the game was played"))
        } else {
            c.play(values, spec, seed, start)
        }
    })
}

/// One game as [`Jobs`].
struct One {
    job: Option<Job>,
    result: Option<GameResult>,
}

impl Jobs for One {
    fn next(&mut self) -> Option<Job> {
        self.job.take()
    }
    fn done(&mut self, _: usize, result: GameResult) {
        self.result = Some(result);
    }
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
