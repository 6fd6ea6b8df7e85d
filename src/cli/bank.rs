//! `tune2048 bank`: play games and save their positions at named stages
//! to a bank file (format: [`tune2048::bank`]; writing: [`tune2048::bank::write`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{load_weights, GameOpts, DEFAULT_WEIGHTS};
use super::input_error;
use tune2048::bank::record::Stage;
use tune2048::bank::write::{Maker, Plan, WriteError, Written};
use tune2048::bank::HashText;
use tune2048::evaluation::LocalEvaluator;
use tune2048::fnv;
use tune2048::heuristic::{Evaluate, Heuristic};
use tune2048::network::Network;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Weights file (RON); default configs/weights/default.ron.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// A learned network (`learn`, `pack`) to play instead of weights, for
    /// positions such as its own games reach.
    #[arg(long, conflicts_with = "weights")]
    pub network: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameOpts,
    /// Search settings (RON: prob_cutoff, downgrade_at, …; see the players
    /// guide), as `eval --settings` takes them; the bank's `search` field
    /// records them.
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Where positions are saved: a tile (`8192`: the first board of a game
    /// holding one) or `every:K` (after every K moves). Repeat for more.
    #[arg(long = "stage", required = true)]
    pub stages: Vec<Stage>,
    /// The bank file to write (through a temporary name, renamed when whole).
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default: one per core). The bank does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        return Err(input_error("--games must be at least 1"));
    }
    if args.threads == Some(0) {
        return Err(input_error("--threads must be at least 1"));
    }
    let spec = args
        .game
        .spec_with(args.settings.as_deref(), args.network.as_deref())?;
    let plan = Plan {
        spec,
        games: args.games,
        seed: args.game.seed,
        stages: &args.stages,
    };
    let written = match &args.network {
        Some(path) => {
            let net = Network::load(path).map_err(input_error)?;
            let hash = std::fs::File::open(path)
                .and_then(fnv::hash_reader)
                .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
            let variant = plan.spec.variant;
            if net.trained.variant != variant {
                return Err(input_error(format!(
                    "{}: a network for the {} game, but --variant is {}",
                    path.display(),
                    net.trained.variant.name(),
                    variant.name()
                )));
            }
            let maker = Maker::network(&path.display().to_string(), hash);
            write(&args, &plan, &maker, &net)?
        }
        None => {
            let (weights, source) = load_weights(args.weights.as_deref(), DEFAULT_WEIGHTS)?;
            let maker = Maker::weights(&weights, &source)?;
            write(&args, &plan, &maker, &Heuristic::new(&weights))?
        }
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} positions, hash {}",
        args.out.display(),
        written.counts.iter().sum::<u64>(),
        HashText(written.hash)
    )?;
    for (stage, n) in args.stages.iter().zip(&written.counts) {
        writeln!(out, "stage {stage}: {n} positions")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Says what makes the bank, then writes it with a progress bar.
fn write(
    args: &Args,
    plan: &Plan,
    maker: &Maker,
    evaluation: &impl Evaluate,
) -> anyhow::Result<Written> {
    eprintln!("{}", plan.made_by(maker));
    let bar = tune2048::progress::games_bar(u64::from(args.games), "bank");
    let evaluator = LocalEvaluator::new(args.threads)?;
    let written = plan
        .write(&args.out, maker, evaluation, &evaluator, &|| bar.inc(1))
        .map_err(|e| match e {
            WriteError::Io(e) => anyhow::Error::new(e),
            WriteError::Ron(e) => anyhow::Error::new(e),
        })?;
    bar.finish_and_clear();
    Ok(written)
}
