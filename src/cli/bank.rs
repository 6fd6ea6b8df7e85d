//! `tune2048 bank`: play games and save their positions at named stages
//! to a bank file (format: [`crate::bank`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::common::{load_weights, GameOpts, DEFAULT_WEIGHTS};
use super::input_error;
use crate::bank::record::{record, Stage};
use crate::bank::{content_hash, HashText};
use crate::evaluation::LocalEvaluator;
use crate::seeds::game_seed;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Weights file (RON); default configs/weights/default.ron.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameOpts,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Where positions are saved: a tile (`8192`: the first board of a game
    /// holding one) or `every:K` (after every K moves). Repeat for more.
    #[arg(long = "stage", required = true)]
    pub stages: Vec<Stage>,
    /// The bank file to write (written whole, through a temporary name).
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
    let spec = args.game.spec()?;
    let (weights, source) = load_weights(args.weights.as_deref(), DEFAULT_WEIGHTS)?;
    let stages: Vec<String> = args.stages.iter().map(Stage::to_string).collect();
    let made_by = format!(
        "tune2048 bank: weights {source}; variant {}; depth {}; {} games from seed {}; stages {}",
        spec.variant.name(),
        spec.search.depth,
        args.games,
        args.game.seed,
        stages.join(" ")
    );
    eprintln!("{made_by}");
    let seeds: Vec<u64> = (0..args.games)
        .map(|i| game_seed(args.game.seed, i.into()))
        .collect();
    let bar = ProgressBar::with_draw_target(
        Some(seeds.len() as u64),
        ProgressDrawTarget::stderr_with_hz(4),
    );
    bar.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} games  ETA {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix("bank");
    let evaluator = LocalEvaluator::new(args.threads)?;
    let bank = record(&evaluator, &spec, &weights, &seeds, &args.stages, &|| {
        bar.inc(1)
    });
    bar.finish_and_clear();
    let text = bank.to_text(&made_by);
    crate::atomic_file::write(&args.out, text.as_bytes())?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} positions, hash {}",
        args.out.display(),
        bank.positions.len(),
        HashText(content_hash(text.as_bytes()))
    )?;
    for stage in &stages {
        let n = bank.stage(stage).len();
        writeln!(out, "stage {stage}: {n} positions")?;
    }
    Ok(ExitCode::SUCCESS)
}
