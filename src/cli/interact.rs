//! `tune2048 interact`: play against a judge over stdin/stdout (BOJ 28489,
//! see [`tune2048::interact`]): the flags, the player they choose, and the
//! session's errors sorted into bad input (exit 2) and the rest.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::input_error;
use tune2048::engine::Variant;
use tune2048::heuristic::{Heuristic, Weights};
use tune2048::interact::player::{default_network, DEFAULT_GAME_SECS};
use tune2048::interact::{play_judge, Pace, PlayOptions, SessionError};
use tune2048::network::Network;
use tune2048::search::{Depth, Settings};

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
    #[arg(long, allow_negative_numbers = true)]
    pub move_ms: Option<f64>,
    /// Whole-game time budget in seconds, counted from the command's start
    /// (reading the network included): moves get less time as it runs out.
    #[arg(long, allow_negative_numbers = true, default_value_t = DEFAULT_GAME_SECS)]
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
    // The game clock runs from here: the judge's limit counts reading the
    // network too.
    let started = Instant::now();
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
    let options = PlayOptions {
        depth: args.depth,
        pace: match (args.untimed, args.move_nodes) {
            (true, _) => Pace::Untimed,
            (false, Some(nodes)) => Pace::Nodes(nodes),
            (false, None) => Pace::Clock {
                game: Duration::from_secs_f64(args.game_secs),
                since: started,
            },
        },
        trace: args.trace.clone(),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let played = if let Some(path) = &args.weights {
        let heuristic = Heuristic::new(&Weights::load(path)?);
        play_judge(stdin.lock(), stdout.lock(), &heuristic, &settings, &options)
    } else {
        let network = network(args.network.as_deref())?;
        play_judge(stdin.lock(), stdout.lock(), &network, &settings, &options)
    };
    played.map_err(|e| match e {
        SessionError::Protocol { .. } => input_error(e),
        SessionError::Output(io) => io.into(),
        SessionError::Trace(message) => anyhow::anyhow!(message),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The network of `--network`, or the default one.
fn network(path: Option<&Path>) -> anyhow::Result<Network> {
    let Some(path) = path else {
        return default_network().map_err(input_error);
    };
    let network = Network::load(path).map_err(input_error)?;
    if network.trained.variant != Variant::Twos {
        eprintln!(
            "warning: {} learned the {} game; BOJ 28489 is the twos game",
            path.display(),
            network.trained.variant.name()
        );
    }
    Ok(network)
}
