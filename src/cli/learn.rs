//! `tune2048 learn`: an n-tuple network learned by temporal differences,
//! in a folder of its own.
//!
//! The folder holds `network.nt` (the network after the last finished
//! block), `progress.csv` (one row per block) and `lock` (one writer at a
//! time). Each block's row is written before the network that includes it,
//! both whole or not at all, so a run killed at any moment leaves a
//! network and the rows up to it; `--resume` drops any row past the
//! network and goes on from there, to the same network an unbroken run
//! would have learned.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;

use super::input_error;
use crate::atomic_file;
use crate::engine::Variant;
use crate::network::learn::{learn, BlockStats, LearnStarts, REACH_TILES};
use crate::network::{named_tuples, parse_stages, parse_tuples, stages_text, Network, TUPLE_NAMES};
use crate::tune::lock::FolderLock;

/// The network's file in a learning folder.
pub const NETWORK_FILE: &str = "network.nt";
/// The per-block progress in a learning folder.
pub const PROGRESS_FILE: &str = "progress.csv";
/// The learning rate of a new network unless `--alpha` says otherwise.
pub const DEFAULT_ALPHA: f32 = 0.1;
const PROGRESS_HEADER: &str =
    "games,alpha,mean_score,max_score,reach_2048,reach_8192,reach_16384,reach_32768,seconds";

#[derive(Debug, Parser)]
pub struct Args {
    /// The learning folder (created if missing).
    pub dir: PathBuf,
    /// Learn until the network has learned from this many games in all.
    #[arg(long)]
    pub games: u64,
    /// The tuples: a name (lines-squares, five, six) or cell lists such as
    /// `0,1,2,3 4,5,6,7` (cells 0..16, row by row from the top left).
    #[arg(long, default_value = "lines-squares", conflicts_with = "resume")]
    pub tuples: String,
    /// The learning rate, each game's step toward its targets: 0.1 for a
    /// new network; with `--resume`, the rate the network last learned at
    /// unless given (a run resumed after a crash goes on as it was).
    #[arg(long)]
    pub alpha: Option<f32>,
    /// The run seed every game's seed derives from.
    #[arg(long, default_value_t = 1, conflicts_with = "resume")]
    pub seed: u64,
    /// Games per block: the network and a progress row are written after each.
    #[arg(long, default_value_t = 1000)]
    pub block: u64,
    /// The game learned: classic (a 4 with probability 0.1) or twos (BOJ
    /// 28489: a 2 before every move).
    #[arg(long, value_enum, default_value = "classic", conflicts_with = "resume")]
    pub variant: super::common::VariantName,
    /// Go on with the folder's network (its tuples, variant and seed).
    #[arg(long)]
    pub resume: bool,
    /// A bank (`tune2048 bank`) some games start from instead of the empty
    /// board, to learn a late stage that whole games reach rarely; with
    /// --bank-stage. A resumed run gets the same games only with the same
    /// bank, stage and share.
    #[arg(long, requires = "bank_stage")]
    pub bank: Option<PathBuf>,
    /// The bank's stage the games start from.
    #[arg(long, requires = "bank")]
    pub bank_stage: Option<String>,
    /// The share of games that start from the bank, in (0, 1].
    #[arg(long, default_value_t = 0.5, requires = "bank")]
    pub bank_share: f64,
    /// Start from this network (a full or packed file) instead of an empty
    /// one: its tuples, variant, seed and games so far, its rate unless
    /// --alpha says otherwise.
    #[arg(long, conflicts_with_all = ["resume", "tuples", "seed", "variant"])]
    pub from: Option<PathBuf>,
    /// Split the network into stages by its largest tile, each with tables
    /// of its own: `16384`, or up to 3 ascending tiles. With --from, every
    /// stage starts as a copy of that network.
    #[arg(long, conflicts_with = "resume")]
    pub stages: Option<String>,
}

/// The starts `--bank`, `--bank-stage` and `--bank-share` name, checked
/// against the network's variant.
fn learn_starts(args: &Args, variant: Variant) -> anyhow::Result<Option<LearnStarts>> {
    let (Some(path), Some(stage)) = (&args.bank, &args.bank_stage) else {
        return Ok(None);
    };
    if !(args.bank_share > 0.0 && args.bank_share <= 1.0) {
        return Err(input_error(format!(
            "--bank-share must be in (0, 1], not {}",
            args.bank_share
        )));
    }
    let positions = super::common::bank_stage(path, stage, Some(variant), |e| e)?;
    eprintln!(
        "{:.0}% of the games start from the {} positions of stage {stage} in {}",
        100.0 * args.bank_share,
        positions.len(),
        path.display()
    );
    Ok(Some(LearnStarts {
        positions,
        share: args.bank_share,
    }))
}

/// The progress rows of `text` up to `games` (a row past the network was
/// written just before a kill).
fn rows_up_to(text: &str, games: u64, path: &Path) -> anyhow::Result<Vec<String>> {
    let mut lines = text.lines();
    if lines.next() != Some(PROGRESS_HEADER) {
        return Err(input_error(format!(
            "{}: line 1: expected the header `{PROGRESS_HEADER}`",
            path.display()
        )));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let field = line.split(',').next().unwrap_or_default();
        let n: u64 = field.parse().map_err(|_| {
            input_error(format!(
                "{}: line {}, field `games`: `{field}` is not a count",
                path.display(),
                i + 2
            ))
        })?;
        if n <= games {
            rows.push(line.to_string());
        }
    }
    Ok(rows)
}

/// The hash a network file ends with (its last 8 bytes): two files with
/// the same hash hold the same network.
fn stored_hash(path: &Path) -> anyhow::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)
        .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
    let mut last = [0u8; 8];
    file.seek(SeekFrom::End(-8))
        .and_then(|_| file.read_exact(&mut last))
        .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
    Ok(u64::from_le_bytes(last))
}

fn row(s: &BlockStats, alpha: f32, seconds: f64) -> String {
    let share = |n: u64| n as f64 / s.block as f64;
    format!(
        "{},{alpha},{:.1},{},{:.4},{:.4},{:.4},{:.4},{seconds:.1}",
        s.games,
        s.mean_score,
        s.max_score,
        share(s.reached[0]),
        share(s.reached[1]),
        share(s.reached[2]),
        share(s.reached[3]),
    )
}

pub fn run(args: Args) -> anyhow::Result<std::process::ExitCode> {
    if let Some(alpha) = args.alpha.filter(|a| !(*a > 0.0 && a.is_finite())) {
        return Err(input_error(format!(
            "--alpha must be a positive number, not {alpha}"
        )));
    }
    if args.block == 0 {
        return Err(input_error("--block must be at least 1"));
    }
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| anyhow::anyhow!("{}: cannot create the folder: {e}", args.dir.display()))?;
    let _lock = FolderLock::acquire_dir(&args.dir)?;
    let net_path = args.dir.join(NETWORK_FILE);
    let progress_path = args.dir.join(PROGRESS_FILE);
    let (mut net, mut rows) = if args.resume {
        let net = Network::load(&net_path).map_err(input_error)?;
        let rows = match std::fs::read_to_string(&progress_path) {
            Ok(text) => rows_up_to(&text, net.trained.games, &progress_path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => {
                return Err(anyhow::anyhow!(
                    "{}: cannot read: {e}",
                    progress_path.display()
                ))
            }
        };
        (net, rows)
    } else {
        if net_path.exists() {
            return Err(input_error(format!(
                "{} already holds a network: pass --resume to go on with it, or name another \
                 folder",
                args.dir.display()
            )));
        }
        let stages = match &args.stages {
            Some(text) => parse_stages(text).map_err(|e| input_error(format!("--stages: {e}")))?,
            None => Vec::new(),
        };
        if let Some(from) = &args.from {
            let net = Network::load(from).map_err(input_error)?;
            let net = if stages.is_empty() {
                net
            } else {
                net.split(stages)
                    .map_err(|e| input_error(format!("{}: {e}", from.display())))?
            };
            (net, Vec::new())
        } else {
            let tuples = match named_tuples(&args.tuples) {
                Some(t) => t,
                None if args.tuples.contains(',')
                    || args.tuples.chars().all(|c| c.is_ascii_digit()) =>
                {
                    parse_tuples(&args.tuples).map_err(|e| input_error(format!("--tuples: {e}")))?
                }
                None => {
                    return Err(input_error(format!(
                        "--tuples: `{}` is neither a name ({}) nor cell lists",
                        args.tuples,
                        TUPLE_NAMES.join(", ")
                    )))
                }
            };
            let variant = match args.variant {
                super::common::VariantName::Classic => Variant::CLASSIC,
                super::common::VariantName::Twos => Variant::Twos,
            };
            let mut net = Network::new(
                tuples,
                variant,
                args.seed,
                args.alpha.unwrap_or(DEFAULT_ALPHA),
            )
            .map_err(|e| input_error(format!("--tuples: {e}")))?;
            net.set_stages(stages);
            (net, Vec::new())
        }
    };
    let alpha = args.alpha.unwrap_or(net.trained.alpha);
    if net.trained.games >= args.games {
        eprintln!(
            "{}: the network has learned from {} games already (--games {})",
            args.dir.display(),
            net.trained.games,
            args.games
        );
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let stages = match net.stages() {
        [] => String::new(),
        s => format!(", stages at {}", stages_text(s)),
    };
    eprintln!(
        "learning {} weights ({} tuples{stages}) in the {} game from game {} to {}, alpha {}, \
         seed {}",
        net.weight_count(),
        net.tuples().len(),
        net.trained.variant.name(),
        net.trained.games,
        args.games,
        alpha,
        net.trained.seed
    );
    let starts = learn_starts(&args, net.trained.variant)?;
    let mut started = Instant::now();
    let mut failure = None;
    learn(
        &mut net,
        args.games,
        args.block,
        alpha,
        starts.as_ref(),
        |net, stats| {
            let seconds = started.elapsed().as_secs_f64();
            started = Instant::now();
            rows.push(row(stats, alpha, seconds));
            let text = std::iter::once(PROGRESS_HEADER)
                .chain(rows.iter().map(String::as_str))
                .fold(String::new(), |acc, l| acc + l + "\n");
            let written = atomic_file::write(&progress_path, text.as_bytes())
                .and_then(|()| net.save(&net_path));
            if let Err(e) = written {
                failure = Some(e);
                return false;
            }
            let reach = REACH_TILES
                .iter()
                .zip(stats.reached)
                .map(|(t, n)| format!("{t}: {:.1}%", 100.0 * n as f64 / stats.block as f64))
                .collect::<Vec<_>>()
                .join(", ");
            eprintln!(
                "games {:>8}  mean {:>9.0}  max {:>7}  {reach}  ({:.1} games/s)",
                stats.games,
                stats.mean_score,
                stats.max_score,
                stats.block as f64 / seconds
            );
            true
        },
    );
    if let Some(e) = failure {
        return Err(anyhow::anyhow!(e));
    }
    println!(
        "{} ({} games, hash {:016x})",
        net_path.display(),
        net.trained.games,
        stored_hash(&net_path)?
    );
    Ok(std::process::ExitCode::SUCCESS)
}
