//! Protocol version 2's games: a worker keeps up to [`Program::lockstep`] games
//! of one player in flight with its program, sends the boards of all of them
//! in one `boards` line and reads their moves from one `moves` line, in
//! order. A game that ends leaves, and the next game of the same player
//! takes its place, so the line stays full until the player's games run
//! out. Each game is the game version 1 plays on its seed: the spawns come
//! from its seed alone, and a correct program's move from its board and
//! the player's values alone, whatever games share the line.
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

/// The games in flight and the boards of the line under way (`boards[i]` is
/// `games[i]`'s).
struct Line {
    games: Vec<InFlight>,
    boards: Vec<Board>,
    /// The player has no more games to hand out.
    exhausted: bool,
}

impl Line {
    /// Lets finished games go (to `jobs.done`) and new ones join, up to
    /// `k`, until every game in flight has its board in `boards`.
    fn refill(&mut self, k: usize, spec: &GameSpec, jobs: &mut dyn Jobs) {
        self.boards.clear();
        let mut i = 0;
        while i < self.games.len() || (!self.exhausted && self.games.len() < k) {
            if i == self.games.len() {
                match jobs.next() {
                    Some(job) => self.games.push(InFlight {
                        job,
                        game: Stepper::new(
                            spec.turn_order(),
                            job.start,
                            RandomPlacer::new(job.seed, spec.variant.p4()),
                        ),
                    }),
                    None => self.exhausted = true,
                }
                continue;
            }
            if let Some(board) = self.games[i].game.board() {
                self.boards.push(board);
                i += 1;
            } else {
                let mut done = self.games.swap_remove(i);
                let record = done.game.record().expect("the game ended");
                jobs.done(
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
        let mut line = Line {
            games: Vec::with_capacity(k),
            boards: Vec::with_capacity(k),
            exhausted: false,
        };
        line.refill(k, spec, jobs);
        if line.games.is_empty() {
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
            return Err(self.fail(line.seed(None), None, None, why));
        }
        while !line.games.is_empty() {
            let moves = self.round_trip(&line)?;
            for (game, dir) in line.games.iter_mut().zip(moves) {
                game.game.play(dir);
            }
            line.refill(k, spec, jobs);
        }
        Ok(())
    }

    /// Sends the line's boards (after any pending lines) and reads their
    /// moves, each legal on its board.
    fn round_trip(&mut self, line: &Line) -> Result<Vec<Direction>, Box<PlayerError>> {
        let n = line.boards.len();
        let limit = self.program.decision_limit() * u32::try_from(n).unwrap_or(u32::MAX);
        if self.process.has_more() {
            // Output before the question: a stray line, or the program's end.
            let why = match self.process.receive(Deadline::after(limit)) {
                Ok(extra) => format!("it wrote `{extra}` before it was asked to move"),
                Err(e) => format!("{e} {}", in_flight(n)),
            };
            return Err(self.fail(line.seed(None), None, None, why));
        }
        let from = self.out.len();
        protocol::write_boards(&mut self.out, line.boards.iter().copied());
        let answer = self
            .process
            .send(&self.out, Deadline::after(limit))
            .and_then(|()| self.process.receive(Deadline::after(limit)));
        let sent = quote(&self.out[from..]);
        self.out.clear();
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => {
                let why = match e {
                    ChildError::Ended(_) => format!("{e} {}", in_flight(n)),
                    ChildError::TimedOut(_) | ChildError::WriteTimedOut(_) if n > 1 => {
                        format!(
                            "{e} ({} s a board, {n} boards)",
                            limit.as_secs_f64() / n as f64
                        )
                    }
                    _ => e.to_string(),
                };
                return Err(self.fail(line.seed(None), Some(&sent), None, why));
            }
        };
        let moves = match protocol::parse_moves(&answer, n) {
            Ok(moves) => moves,
            Err((at, why)) => {
                return Err(self.fail(line.seed(at), Some(&sent), Some(&answer), why));
            }
        };
        if let Some(i) = (0..n).find(|&i| line.boards[i].make_move(moves[i]).is_none()) {
            let why = format!(
                "move {} of {n}, {}, does not change the board `{}`",
                i + 1,
                protocol::letter(moves[i]),
                cells(line.boards[i]),
            );
            return Err(self.fail(line.seed(Some(i)), Some(&sent), Some(&answer), why));
        }
        Ok(moves)
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
