//! `tune2048 bank`: play games and save their positions at named stages
//! to a bank file (format: [`crate::bank`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::common::{load_weights, GameOpts, DEFAULT_WEIGHTS};
use super::input_error;
use crate::atomic_file::Streamed;
use crate::bank::record::{record, Stage};
use crate::bank::{head_text, HashText, Made};
use crate::evaluation::chunked::CHUNK_GAMES;
use crate::evaluation::LocalEvaluator;
use crate::fnv;
use crate::heuristic::{Heuristic, Weights};
use crate::network::Network;
use crate::seeds::game_seed;

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

/// What plays the bank's games.
enum Player {
    /// Weights and where they came from.
    Weights(Weights, String),
    /// A network, its file's path and the hash of the file's bytes.
    Network(Network, String, u64),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        return Err(input_error("--games must be at least 1"));
    }
    if args.threads == Some(0) {
        return Err(input_error("--threads must be at least 1"));
    }
    let spec = args.game.spec()?;
    let evaluation = match &args.network {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
            let net = Network::from_bytes(&bytes)
                .map_err(|e| input_error(format!("{}: {e}", path.display())))?;
            if net.trained.variant != spec.variant {
                return Err(input_error(format!(
                    "{}: a network for the {} game, but --variant is {}",
                    path.display(),
                    net.trained.variant.name(),
                    spec.variant.name()
                )));
            }
            Player::Network(net, path.display().to_string(), fnv::hash(&bytes))
        }
        None => {
            let (weights, source) = load_weights(args.weights.as_deref(), DEFAULT_WEIGHTS)?;
            Player::Weights(weights, source)
        }
    };
    let stages: Vec<String> = args.stages.iter().map(Stage::to_string).collect();
    let player = match &evaluation {
        Player::Weights(_, source) => format!("weights {source}"),
        Player::Network(_, source, _) => format!("network {source}"),
    };
    let made_by = format!(
        "tune2048 bank: {player}; variant {}; depth {}; {} games from seed {}; stages {}",
        spec.variant.name(),
        spec.search.depth,
        args.games,
        args.game.seed,
        stages.join(" ")
    );
    eprintln!("{made_by}");
    let mut fields = match &evaluation {
        Player::Weights(weights, source) => vec![
            ("weights_file".to_string(), source.clone()),
            ("weights".to_string(), ron::to_string(weights)?),
        ],
        Player::Network(_, source, hash) => vec![
            ("network_file".to_string(), source.clone()),
            ("network_hash".to_string(), HashText(*hash).to_string()),
        ],
    };
    fields.push(("search".to_string(), ron::to_string(&spec.search)?));
    if let Some(limit) = spec.move_limit {
        fields.push(("move_limit".into(), limit.to_string()));
    }
    if let Some(budget) = spec.move_budget {
        fields.push(("move_budget".into(), ron::to_string(&budget)?));
    }
    fields.extend([
        ("games".to_string(), args.games.to_string()),
        ("seed".to_string(), args.game.seed.to_string()),
        ("stages".to_string(), stages.join(" ")),
    ]);
    let made = Made::new(spec.variant, fields);
    let bar = ProgressBar::with_draw_target(
        Some(u64::from(args.games)),
        ProgressDrawTarget::stderr_with_hz(4),
    );
    bar.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} games  ETA {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix("bank");
    let evaluator = LocalEvaluator::new(args.threads)?;
    // Positions go to the file chunk by chunk, in seed order, as they are
    // found: memory does not grow with --games.
    let mut file = Streamed::create(&args.out)?;
    let head = head_text(&made_by, &made);
    file.write_all(head.as_bytes())?;
    let mut hash = fnv::hash(head.as_bytes());
    let mut counts = vec![0u64; stages.len()];
    let mut lines = String::new();
    for first in (0..args.games).step_by(CHUNK_GAMES as usize) {
        let last = first.saturating_add(CHUNK_GAMES).min(args.games);
        let seeds: Vec<u64> = (first..last)
            .map(|i| game_seed(args.game.seed, i.into()))
            .collect();
        let on_game = || bar.inc(1);
        let chunk = match &evaluation {
            Player::Weights(weights, _) => record(
                &evaluator,
                &spec,
                &Heuristic::new(weights),
                &seeds,
                &args.stages,
                &on_game,
            ),
            Player::Network(net, ..) => {
                record(&evaluator, &spec, net, &seeds, &args.stages, &on_game)
            }
        };
        lines.clear();
        for p in &chunk.positions {
            lines.push_str(&p.to_line());
            if let Some(i) = stages.iter().position(|s| *s == p.stage) {
                counts[i] += 1;
            }
        }
        file.write_all(lines.as_bytes())?;
        hash = fnv::extend(hash, lines.as_bytes());
    }
    bar.finish_and_clear();
    file.finish()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} positions, hash {}",
        args.out.display(),
        counts.iter().sum::<u64>(),
        HashText(hash)
    )?;
    for (stage, n) in stages.iter().zip(&counts) {
        writeln!(out, "stage {stage}: {n} positions")?;
    }
    Ok(ExitCode::SUCCESS)
}
