//! Our player's end of BOJ 28489: a whole session read from the judge and
//! answered move by move with expectimax, under a per-move clock that
//! spends less as the game's time runs out (or a node budget, or none), and
//! an optional per-move trace of how the clock was spent.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::protocol::{read_word, JudgeWord};
use crate::engine::{Board, Direction, Variant};
use crate::heuristic::Evaluate;
use crate::network::Network;
use crate::search::{allotment_ms, Budget, Depth, SearchParams, Searcher, Settings};

/// log2 of the transposition table's entries: 2^20 entries of 16 bytes are
/// 16 MiB, far inside BOJ 28489's 1024 MB, and a table smaller than the
/// search would like only costs repeated work.
pub const TT_BITS: u32 = 20;

/// `interact`'s default player: a network learned for the twos game (see
/// docs/src/results/judge.md), read from this file when it is there, else
/// from the copy built into the binary.
pub const DEFAULT_INTERACT_NETWORK: &str = "configs/networks/twos.ntp";
const BUILTIN_INTERACT_NETWORK: &[u8] = include_bytes!("../../configs/networks/twos.ntp");

/// Default whole-game time budget in seconds, counted from the command's
/// start: BOJ 28489 allows 15 s for a whole game, and this leaves 2 s for
/// the moves played once the budget is spent (each still a round trip with
/// the judge) and for the process's own start and end.
pub const DEFAULT_GAME_SECS: f64 = 13.0;

/// The default network: the file when it is there (a checkout), else the
/// built-in copy of it. The error is ready for the user.
pub fn default_network() -> Result<Network, String> {
    let path = Path::new(DEFAULT_INTERACT_NETWORK);
    if path.exists() {
        return Network::load(path).map_err(|e| e.to_string());
    }
    Network::from_bytes(BUILTIN_INTERACT_NETWORK)
        .map_err(|e| format!("{DEFAULT_INTERACT_NETWORK} (built in): {e}"))
}

/// How much each move may search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pace {
    /// Every move to the full depth: the answers depend on the input alone.
    Untimed,
    /// At most this many moves tried per move: the answers depend on the
    /// input alone (the game clock is not watched).
    Nodes(u64),
    /// A clock: each move gets its allotment of what is left of the
    /// whole-game budget `game`, counted from `since`: the moment the
    /// command started, so that reading the network (0.6-2 s) is paid from
    /// the budget as the judge's limit pays for it (see [`allotment_ms`]).
    Clock { game: Duration, since: Instant },
}

/// How our player plays a session.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayOptions {
    /// The deepest search (chance layers), or `auto`.
    pub depth: Depth,
    pub pace: Pace,
    /// Where to write one CSV row per move, whole when the game ends.
    pub trace: Option<PathBuf>,
}

/// Why a session stopped before the judge's `-1` or the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The judge's input was malformed or impossible (bad input).
    #[error("protocol line {line}: {why}")]
    Protocol { line: usize, why: String },
    /// An answer could not be written.
    #[error(transparent)]
    Output(#[from] std::io::Error),
    /// The trace could not be written (the message names the file).
    #[error("{0}")]
    Trace(String),
}

/// Plays one judged game from `input`, answering on `output`.
pub fn play_judge(
    input: impl BufRead,
    mut output: impl Write,
    heuristic: &impl Evaluate,
    settings: &Settings,
    options: &PlayOptions,
) -> Result<(), SessionError> {
    let mut session = Session::new(settings, options);
    for (number, text) in input.lines().enumerate() {
        let line = number + 1;
        let protocol = |why: String| SessionError::Protocol { line, why };
        let text = text.map_err(|e| protocol(e.to_string()))?;
        for word in text.split_whitespace() {
            let cell = match read_word(word).map_err(protocol)? {
                JudgeWord::End => return session.finish(),
                JudgeWord::Cell(cell) => cell,
            };
            let dir = session.answer(heuristic, cell).map_err(protocol)?;
            writeln!(output, "{dir}")?;
            output.flush()?;
        }
    }
    session.finish()
}

const TRACE_HEADER: &str = "move,tile_sum,empty,depth,allotment_ms,spent_ms\n";

/// One game of a session: the board, the search, the clock and the trace.
struct Session<'a> {
    settings: &'a Settings,
    options: &'a PlayOptions,
    params: SearchParams,
    searcher: Searcher,
    board: Board,
    trace: Option<String>,
    moves: u32,
    start: Instant,
}

impl<'a> Session<'a> {
    fn new(settings: &'a Settings, options: &'a PlayOptions) -> Session<'a> {
        let mut params = SearchParams::new(options.depth, Variant::Twos);
        settings.apply(&mut params);
        Session {
            settings,
            options,
            params,
            searcher: Searcher::new(TT_BITS),
            board: Board::EMPTY,
            trace: options.trace.as_ref().map(|_| String::from(TRACE_HEADER)),
            moves: 0,
            start: match options.pace {
                Pace::Clock { since, .. } => since,
                Pace::Untimed | Pace::Nodes(_) => Instant::now(),
            },
        }
    }

    /// Places the judge's 2 on `cell` and returns our move, or why the
    /// judge's word is impossible here.
    fn answer(&mut self, heuristic: &impl Evaluate, cell: usize) -> Result<Direction, String> {
        self.board = self
            .board
            .place(cell, 1)
            .map_err(|_| format!("cell {} is already occupied", cell + 1))?;
        let (board, params) = (self.board, &self.params);
        let before = self.start.elapsed();
        let mut allotted_ms = None;
        let decision = match self.options.pace {
            Pace::Untimed => self.searcher.decide(heuristic, board, params),
            Pace::Nodes(nodes) => {
                self.searcher
                    .decide_within(heuristic, board, params, Budget::Nodes(nodes))
            }
            Pace::Clock { game, .. } => {
                // Spend less per move as the game clock runs down.
                let left_ms = game.saturating_sub(self.start.elapsed()).as_secs_f64() * 1000.0;
                let ms = allotment_ms(left_ms, board, self.settings);
                allotted_ms = Some(ms);
                let budget = Duration::from_secs_f64(ms / 1000.0);
                self.searcher.decide_timed(heuristic, board, params, budget)
            }
        };
        if let (Some(trace), Some(d)) = (self.trace.as_mut(), decision) {
            let spent_ms = (self.start.elapsed() - before).as_secs_f64() * 1000.0;
            let sum: u32 = board.values().iter().sum();
            let allotted = allotted_ms.map_or(String::new(), |ms| format!("{ms:.4}"));
            let _ = writeln!(
                trace,
                "{},{sum},{},{},{allotted},{spent_ms:.4}",
                self.moves + 1,
                board.count_empty(),
                d.depth
            );
        }
        let Some(decision) = decision else {
            return Err(format!(
                "no legal move after the 2 at cell {}, but the judge did not end the game",
                cell + 1
            ));
        };
        self.board = board.shift(decision.dir);
        self.moves += 1;
        Ok(decision.dir)
    }

    /// Writes the per-move trace, whole or not at all.
    fn finish(self) -> Result<(), SessionError> {
        if let (Some(path), Some(text)) = (&self.options.trace, self.trace) {
            crate::atomic_file::write(path, text.as_bytes()).map_err(|e| {
                SessionError::Trace(format!("{}: cannot write the trace: {e}", path.display()))
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Heuristic, Weights};

    /// The allotments a clocked game of two judge words gives, read from
    /// its trace.
    fn allotments(game: Duration, since: Instant) -> Vec<f64> {
        let dir = std::env::temp_dir().join(format!("tune2048-clock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let trace = dir.join(format!("{}.csv", game.as_millis()));
        let options = PlayOptions {
            depth: Depth::Fixed(1),
            pace: Pace::Clock { game, since },
            trace: Some(trace.clone()),
        };
        let heuristic = Heuristic::new(&Weights::nneonneo());
        let mut answers = Vec::new();
        play_judge(
            &b"1\n2\n-1\n"[..],
            &mut answers,
            &heuristic,
            &Settings::default(),
            &options,
        )
        .unwrap();
        let text = std::fs::read_to_string(&trace).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        text.lines()
            .skip(1)
            .map(|row| row.split(',').nth(4).unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn the_game_clock_counts_from_the_moment_it_is_given() {
        // Started an hour ago with a minute's budget: nothing is left, so
        // every move is allotted nothing, however fast the moves are.
        let an_hour_ago = Instant::now() - Duration::from_secs(3600);
        assert_eq!(
            allotments(Duration::from_secs(60), an_hour_ago),
            vec![0.0, 0.0]
        );
        // Started now with an hour: each move gets the settings' cap.
        let cap = Settings::default().clock_move_ms;
        assert_eq!(
            allotments(Duration::from_secs(3600), Instant::now()),
            vec![cap, cap]
        );
    }
}
