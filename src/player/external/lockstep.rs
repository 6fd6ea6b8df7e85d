//! Protocol version 2's games: a worker keeps two lines of up to
//! [`Program::lockstep`] games each of one player in flight with its
//! program. A line's boards go out in one `boards` line and their moves
//! come back in one `moves` line, in order. The second line is sent before
//! the first is answered, so the program always has a line to work on while
//! the worker plays the moves of the other and writes its next boards: on
//! two cores the worker's share of a decision hides behind the program's. A
//! game that ends leaves its line, and the next game of the same player
//! takes its place, so the lines stay full until the player's games run out.
//! Each game is the game version 1 plays on its seed: the spawns come from
//! its seed alone, and a correct program's move from its board and the
//! player's values alone, whatever games share a line.
//!
//! A line's failure names the game whose answer is wrong (a bad or illegal
//! move, the first board left without a move) or else the line's first
//! game, and the line sent, shortened.
//!
//! [`Program::lockstep`]: super::Program::lockstep

use std::collections::BTreeMap;

use super::connection::{game_word, Connection};
use super::protocol::{self, MAX_BATCH};
use super::{Job, Jobs, PlayerError};
use crate::child::{ChildError, Deadline};
use crate::engine::{Board, Direction, RandomPlacer, Stepper};
use crate::search::SearchStats;
use crate::selfplay::{GameResult, GameSpec};

/// The most of a `boards` line an error message quotes, in bytes.
const QUOTED: usize = 120;

/// A game in flight.
struct InFlight {
    job: Job,
    game: Stepper<RandomPlacer>,
}

/// A line of games in flight: their boards, and the `boards` line that
/// asked for their moves (`boards[i]` is `games[i]`'s).
struct Line {
    games: Vec<InFlight>,
    boards: Vec<Board>,
    /// The `boards` line last sent, kept until it is answered.
    text: String,
}

impl Line {
    fn new(k: usize) -> Line {
        Line {
            games: Vec::with_capacity(k),
            boards: Vec::with_capacity(k),
            text: String::new(),
        }
    }

    /// Lets finished games go (to `jobs.done`) and new ones join, up to
    /// `k`, until every game in flight has its board in `boards`.
    fn refill(&mut self, k: usize, spec: &GameSpec, jobs: &mut Queue<'_>) {
        self.boards.clear();
        let mut i = 0;
        while i < self.games.len() || (!jobs.exhausted && self.games.len() < k) {
            if i == self.games.len() {
                if let Some(job) = jobs.next() {
                    self.games.push(InFlight {
                        job,
                        game: Stepper::new(
                            spec.turn_order(),
                            job.start,
                            RandomPlacer::new(job.seed, spec.variant.p4()),
                        ),
                    });
                }
                continue;
            }
            if let Some(board) = self.games[i].game.board() {
                self.boards.push(board);
                i += 1;
            } else {
                let mut done = self.games.swap_remove(i);
                let record = done.game.record().expect("the game ended");
                jobs.jobs.done(
                    done.job.id,
                    GameResult {
                        seed: done.job.seed,
                        start: done.job.start,
                        record,
                        stats: SearchStats {
                            decisions: u64::from(record.moves),
                            ..SearchStats::default()
                        },
                    },
                );
            }
        }
    }

    /// The seed of game `i`, or of the line's first game.
    fn seed(&self, i: Option<usize>) -> Option<u64> {
        let i = i.unwrap_or(0).min(self.games.len().saturating_sub(1));
        self.games.get(i).map(|g| g.job.seed)
    }
}

/// The player's games still to hand out.
struct Queue<'j> {
    jobs: &'j mut dyn Jobs,
    /// The player has no more games to hand out.
    exhausted: bool,
}

impl Queue<'_> {
    fn next(&mut self) -> Option<Job> {
        let job = if self.exhausted {
            None
        } else {
            self.jobs.next()
        };
        self.exhausted = job.is_none();
        job
    }
}

impl Connection {
    /// Plays `jobs`' games with the program holding `values`, in lock step
    /// (see the module doc).
    pub(super) fn play_lockstep(
        &mut self,
        values: &BTreeMap<String, f64>,
        spec: &GameSpec,
        jobs: &mut dyn Jobs,
    ) -> Result<(), Box<PlayerError>> {
        let k = self.program.lockstep.clamp(1, MAX_BATCH);
        let mut jobs = Queue {
            jobs,
            exhausted: false,
        };
        let mut lines = [Line::new(k), Line::new(k)];
        lines[0].refill(k, spec, &mut jobs);
        if lines[0].games.is_empty() {
            return Ok(());
        }
        let word = game_word(spec.variant);
        let prelude = word.and_then(|word| {
            self.set_values(values)?;
            self.out.push_str("game ");
            self.out.push_str(word);
            self.out.push('\n');
            Ok(())
        });
        if let Err(why) = prelude {
            return Err(self.fail(lines[0].seed(None), None, None, why));
        }
        self.check_silence(&lines[0])?;
        self.send_line(&mut lines[0], 0)?;
        lines[1].refill(k, spec, &mut jobs);
        if !lines[1].games.is_empty() {
            let other = lines[0].games.len();
            self.send_line(&mut lines[1], other)?;
        }
        // Line `turn` is answered next; the other may be waiting too.
        let mut turn = 0;
        loop {
            let other = lines[1 - turn].games.len();
            let line = &mut lines[turn];
            if !line.games.is_empty() {
                let moves = self.receive_line(line, other)?;
                for (game, dir) in line.games.iter_mut().zip(moves) {
                    game.game.play(dir);
                }
                line.refill(k, spec, &mut jobs);
                if !line.games.is_empty() {
                    if other == 0 {
                        self.check_silence(line)?;
                    }
                    self.send_line(line, other)?;
                }
            } else if other == 0 {
                return Ok(());
            }
            turn = 1 - turn;
        }
    }

    /// With no line waiting for its answer, the program has nothing to
    /// say: output now is a stray line, or the program's end.
    fn check_silence(&mut self, line: &Line) -> Result<(), Box<PlayerError>> {
        if !self.process.has_more() {
            return Ok(());
        }
        let n = line.boards.len();
        let limit = self.program.decision_limit();
        let why = match self.process.receive(Deadline::after(limit)) {
            Ok(extra) => format!("it wrote `{extra}` before it was asked to move"),
            Err(e) => format!("{e} {}", in_flight(n)),
        };
        Err(self.fail(line.seed(None), None, None, why))
    }

    /// The time the program has to answer `n` boards.
    fn line_limit(&self, n: usize) -> std::time::Duration {
        self.program.decision_limit() * u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// Sends the line's boards after any pending lines; `other` games are
    /// in flight on the other line.
    fn send_line(&mut self, line: &mut Line, other: usize) -> Result<(), Box<PlayerError>> {
        let n = line.boards.len();
        line.text.clear();
        protocol::write_boards(&mut line.text, line.boards.iter().copied());
        let limit = self.line_limit(n + other);
        let sent = if self.out.is_empty() {
            self.process.send(&line.text, Deadline::after(limit))
        } else {
            self.out.push_str(&line.text);
            let sent = self.process.send(&self.out, Deadline::after(limit));
            self.out.clear();
            sent
        };
        sent.map_err(|e| self.line_failed(line, e, other))
    }

    /// Reads the moves of the line sent last on `line`, each legal on its
    /// board; `other` games are in flight on the other line.
    fn receive_line(
        &mut self,
        line: &Line,
        other: usize,
    ) -> Result<Vec<Direction>, Box<PlayerError>> {
        let n = line.boards.len();
        let deadline = Deadline::after(self.line_limit(n));
        // With the other line sent, the program has its next work queued.
        let answer = if other > 0 {
            self.process.receive_queued(deadline)
        } else {
            self.process.receive(deadline)
        };
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => return Err(self.line_failed(line, e, other)),
        };
        let sent = || quote(&line.text);
        let moves = match protocol::parse_moves(&answer, n) {
            Ok(moves) => moves,
            Err((at, why)) => {
                return Err(self.fail(line.seed(at), Some(&sent()), Some(&answer), why));
            }
        };
        if let Some(i) = (0..n).find(|&i| line.boards[i].make_move(moves[i]).is_none()) {
            let why = format!(
                "move {} of {n}, {}, does not change the board `{}`",
                i + 1,
                protocol::letter(moves[i]),
                cells(line.boards[i]),
            );
            return Err(self.fail(line.seed(Some(i)), Some(&sent()), Some(&answer), why));
        }
        Ok(moves)
    }

    /// The error of a line whose write or read failed.
    fn line_failed(&mut self, line: &Line, e: ChildError, other: usize) -> Box<PlayerError> {
        let n = line.boards.len();
        let why = match e {
            ChildError::Ended(_) => format!("{e} {}", in_flight(n + other)),
            ChildError::TimedOut(_) | ChildError::WriteTimedOut(_) if n > 1 => {
                let limit = self.line_limit(n);
                format!(
                    "{e} ({} s a board, {n} boards)",
                    limit.as_secs_f64() / n as f64
                )
            }
            _ => e.to_string(),
        };
        self.fail(line.seed(None), Some(&quote(&line.text)), None, why)
    }
}

/// "in the middle of a game", and how many games were in flight.
fn in_flight(n: usize) -> String {
    match n {
        1 => "in the middle of a game".into(),
        n => format!("in the middle of a game, with {n} games in flight"),
    }
}

/// A line as an error message quotes it: whole when short, else its start.
fn quote(sent: &str) -> String {
    let sent = sent.trim_end();
    if sent.len() <= QUOTED {
        return sent.to_string();
    }
    let mut end = QUOTED;
    while !sent.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} … ({} bytes)", &sent[..end], sent.len())
}

/// A board's 16 tile values, as a `board` line writes them.
fn cells(board: Board) -> String {
    let mut out = String::new();
    protocol::write_board(&mut out, board);
    out.trim_start_matches("board ").trim_end().to_string()
}
