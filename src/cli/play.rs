//! `tune2048 play`: one game, optionally drawn move by move.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::common::{load_weights, GameOpts, DEFAULT_WEIGHTS};
use super::input_error;
use tune2048::engine::value_of;
use tune2048::heuristic::Heuristic;
use tune2048::network::Network;
use tune2048::selfplay::play_one_observed;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Weights file (RON); default configs/weights/default.ron.
    #[arg(long, conflicts_with = "network")]
    pub weights: Option<PathBuf>,
    /// A learned network (`learn`) scoring the search's leaves in place of
    /// the heuristic.
    #[arg(long)]
    pub network: Option<PathBuf>,
    /// Search settings (RON: prob_cutoff, downgrade_at, …; see the players
    /// guide), as `eval --settings` takes them.
    #[arg(long)]
    pub settings: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameOpts,
    /// Draw the board after every move (on stderr).
    #[arg(long)]
    pub show: bool,
}

/// What scores the search's leaves.
#[allow(clippy::large_enum_variant)] // one per process
enum Evaluation {
    Heuristic(Heuristic),
    Network(Network),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let spec = args
        .game
        .spec_with(args.settings.as_deref(), args.network.as_deref())?;
    let mut n = 0u32;
    let observe = |board, dir| {
        n += 1;
        if args.show {
            eprintln!("move {n}: {dir}\n{board}");
        }
    };
    let (evaluation, source) = match &args.network {
        Some(path) => (
            Evaluation::Network(Network::load(path).map_err(input_error)?),
            format!("network {}", path.display()),
        ),
        None => {
            let (weights, source) = load_weights(args.weights.as_deref(), DEFAULT_WEIGHTS)?;
            (
                Evaluation::Heuristic(Heuristic::new(&weights)),
                format!("weights: {source}"),
            )
        }
    };
    eprintln!(
        "{source}; variant {}; depth {}",
        spec.variant.name(),
        spec.search.depth
    );
    let start = Instant::now();
    let result = match &evaluation {
        Evaluation::Heuristic(h) => play_one_observed(&spec, h, args.game.seed, observe),
        Evaluation::Network(net) => play_one_observed(&spec, net, args.game.seed, observe),
    };
    let secs = start.elapsed().as_secs_f64();
    let r = result.record;
    if args.show {
        eprintln!("final:\n{}", r.board);
    }
    let st = result.stats;
    eprintln!(
        "search: {} decisions, {:.0} moves and {:.0} evaluations and {:.1} transposition-table hits per decision, {:.1}% of evaluations read back from the leaf cache",
        st.decisions,
        st.moves as f64 / st.decisions.max(1) as f64,
        st.evals as f64 / st.decisions.max(1) as f64,
        st.tt_hits as f64 / st.decisions.max(1) as f64,
        100.0 * st.leaf_hits as f64 / st.evals.max(1) as f64,
    );
    println!(
        "seed {} score {} max_tile {} moves {} outcome {} time {:.2}s ({:.0} moves/s, max rank {})",
        result.seed,
        r.score,
        r.max_tile,
        r.moves,
        r.outcome.name(),
        secs,
        f64::from(r.moves) / secs.max(1e-9),
        value_of(r.board.max_rank()),
    );
    Ok(ExitCode::SUCCESS)
}
