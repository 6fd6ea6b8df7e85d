//! `tune2048 interact`: play against a judge over stdin/stdout.
//!
//! BOJ 28489: the judge prints a cell P in 1..=16 (row-major from the top
//! left) where a 2 appears; we answer UP, DOWN, LEFT or RIGHT and flush; the
//! judge prints -1 when the game is over.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::input_error;
use crate::engine::{Board, Variant};
use crate::heuristic::{Evaluate, Heuristic, Weights};
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

/// Default whole-game time budget in seconds: BOJ 28489 allows 15 s for a
/// whole game, and this leaves 2 s for start-up and I/O.
pub const DEFAULT_GAME_SECS: f64 = 13.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// BOJ 28489: positions in, directions out, -1 ends.
    Boj28489,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, value_enum, default_value = "boj28489")]
    pub protocol: Protocol,
    /// Play with the heuristic and these weights (RON), e.g.
    /// configs/weights/interact.ron, instead of the default network.
    #[arg(long, conflicts_with = "network")]
    pub weights: Option<PathBuf>,
    /// A learned network (`learn --variant twos`) scoring the search's
    /// leaves; default configs/networks/twos.ntp.
    #[arg(long)]
    pub network: Option<PathBuf>,
    /// Search settings (RON), e.g. a run's best-settings.ron: the cutoff,
    /// the `auto` depth rule and the clock (`clock_move_ms`, the most a move
    /// may take, default 1.5; `clock_moves_left`, default 2000: a move may
    /// take at most the time left over this many; `clock_ramp_sum`, default
    /// 0: ramp the first up with the tile sum; `crowded_empty` and
    /// `crowded_boost`: more time on crowded boards; `deepen_gamble`: start
    /// deeper searches that may be abandoned).
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Deepest search (chance layers), or `auto`.
    #[arg(long, default_value = "6")]
    pub depth: Depth,
    /// Per-move time budget in milliseconds (iterative deepening up to
    /// --depth); replaces the settings' `clock_move_ms`.
    #[arg(long)]
    pub move_ms: Option<f64>,
    /// Whole-game time budget in seconds: moves get less time as it runs out.
    #[arg(long, default_value_t = DEFAULT_GAME_SECS)]
    pub game_secs: f64,
    /// Ignore both time budgets and search every move to --depth: the answers
    /// then depend on the input alone, not on the machine's speed (for tests).
    #[arg(long, conflicts_with = "move_nodes")]
    pub untimed: bool,
    /// A per-move budget in moves tried instead of time: the answers depend
    /// on the input alone (the game clock is then not watched).
    #[arg(long)]
    pub move_nodes: Option<u64>,
    /// Write one CSV row per move to this file (move, tile sum and empty
    /// cells of the board it saw, depth searched, time allotted by the clock
    /// and spent, in ms; the allotment is blank when no clock is watched),
    /// to see how the clock is spent. Written whole when the game ends.
    #[arg(long)]
    pub trace: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut settings = match &args.settings {
        Some(path) => Settings::load(path)?,
        None => Settings::default(),
    };
    if let Some(ms) = args.move_ms {
        settings.clock_move_ms = ms;
    }
    if !(settings.clock_move_ms > 0.0 && args.game_secs > 0.0) {
        return Err(input_error("--move-ms and --game-secs must be positive"));
    }
    if args.move_nodes == Some(0) {
        return Err(input_error("--move-nodes must be at least 1"));
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    if let Some(path) = &args.weights {
        let heuristic = Heuristic::new(&Weights::load(path)?);
        return play_judge(stdin.lock(), stdout.lock(), &heuristic, &settings, &args);
    }
    let network = match &args.network {
        Some(path) => {
            let network = Network::load(path).map_err(input_error)?;
            if network.trained.variant != Variant::Twos {
                eprintln!(
                    "warning: {} learned the {} game; BOJ 28489 is the twos game",
                    path.display(),
                    network.trained.variant.name()
                );
            }
            network
        }
        None => default_network()?,
    };
    play_judge(stdin.lock(), stdout.lock(), &network, &settings, &args)
}

/// The default network: the file when it is there (a checkout), else the
/// built-in copy of it.
fn default_network() -> anyhow::Result<Network> {
    let path = std::path::Path::new(DEFAULT_INTERACT_NETWORK);
    if path.exists() {
        return Network::load(path).map_err(input_error);
    }
    Network::from_bytes(BUILTIN_INTERACT_NETWORK)
        .map_err(|e| input_error(format!("{DEFAULT_INTERACT_NETWORK} (built in): {e}")))
}

/// One word from the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgeWord {
    /// A 2 appears on this cell (0-based, row-major from the top left).
    Cell(usize),
    /// `-1`: the game is over.
    End,
}

/// Reads one word of protocol line `number`: a cell 1..=16 or -1. The
/// error names the line.
pub fn parse_word(word: &str, number: usize) -> Result<JudgeWord, String> {
    let p: i64 = word.parse().map_err(|_| {
        format!("protocol line {number}: expected a cell 1..=16 or -1, found `{word}`")
    })?;
    match p {
        -1 => Ok(JudgeWord::End),
        1..=16 => Ok(JudgeWord::Cell((p - 1) as usize)),
        _ => Err(format!(
            "protocol line {number}: cell {p} is outside 1..=16"
        )),
    }
}

/// Plays one judged game from `input`, answering on `output`.
pub fn play_judge(
    input: impl BufRead,
    mut output: impl Write,
    heuristic: &impl Evaluate,
    settings: &Settings,
    args: &Args,
) -> anyhow::Result<ExitCode> {
    let mut params = SearchParams::new(args.depth, Variant::Twos);
    settings.apply(&mut params);
    let mut searcher = Searcher::new(TT_BITS);
    let mut board = Board::EMPTY;
    let mut trace = args.trace.as_ref().map(|_| String::from(TRACE_HEADER));
    let mut moves = 0u32;
    let start = Instant::now();
    let game = Duration::from_secs_f64(args.game_secs);
    for (number, line) in input.lines().enumerate() {
        let number = number + 1;
        let line = line.map_err(|e| input_error(format!("protocol line {number}: {e}")))?;
        for word in line.split_whitespace() {
            let cell = match parse_word(word, number).map_err(input_error)? {
                JudgeWord::End => {
                    write_trace(args, trace)?;
                    return Ok(ExitCode::SUCCESS);
                }
                JudgeWord::Cell(cell) => cell,
            };
            board = board.place(cell, 1).map_err(|_| {
                input_error(format!(
                    "protocol line {number}: cell {} is already occupied",
                    cell + 1
                ))
            })?;
            let before = start.elapsed();
            let mut allotted_ms = None;
            let decision = if args.untimed {
                searcher.decide(heuristic, board, &params)
            } else if let Some(nodes) = args.move_nodes {
                searcher.decide_within(heuristic, board, &params, Budget::Nodes(nodes))
            } else {
                // Spend less per move as the game clock runs down.
                let left_ms = game.saturating_sub(start.elapsed()).as_secs_f64() * 1000.0;
                let ms = allotment_ms(left_ms, board, settings);
                allotted_ms = Some(ms);
                let budget = Duration::from_secs_f64(ms / 1000.0);
                searcher.decide_timed(heuristic, board, &params, budget)
            };
            if let (Some(trace), Some(d)) = (trace.as_mut(), decision) {
                let spent_ms = (start.elapsed() - before).as_secs_f64() * 1000.0;
                let sum: u32 = board.values().iter().sum();
                let allotted = allotted_ms.map_or(String::new(), |ms| format!("{ms:.4}"));
                let _ = writeln!(
                    trace,
                    "{},{sum},{},{},{allotted},{spent_ms:.4}",
                    moves + 1,
                    board.count_empty(),
                    d.depth
                );
            }
            let Some(decision) = decision else {
                return Err(input_error(format!("protocol line {number}: no legal move after the 2 at cell {}, but the judge did not end the game", cell + 1)));
            };
            board = board.shift(decision.dir);
            moves += 1;
            writeln!(output, "{}", decision.dir)?;
            output.flush()?;
        }
    }
    write_trace(args, trace)?;
    Ok(ExitCode::SUCCESS)
}

const TRACE_HEADER: &str = "move,tile_sum,empty,depth,allotment_ms,spent_ms\n";

/// Writes the per-move trace, whole or not at all.
fn write_trace(args: &Args, trace: Option<String>) -> anyhow::Result<()> {
    if let (Some(path), Some(text)) = (&args.trace, trace) {
        crate::atomic_file::write(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: cannot write the trace: {e}", path.display()))?;
    }
    Ok(())
}
