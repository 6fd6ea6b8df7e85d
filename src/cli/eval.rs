//! `tune2048 eval`: many seeded games with one player, summarized.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::common::{load_weights, GameOpts, PlayerOpts, DEFAULT_WEIGHTS};
use super::input_error;
use super::workers::Workers;
use crate::bank::{pick, Bank};
use crate::engine::Start;
use crate::evaluation::Batch;
use crate::player::Player;
use crate::seeds::game_seed;
use crate::selfplay::{summarize, GameResult, GameSpec};
use crate::stats::Summary;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Weights file (RON) of the built-in player; default
    /// configs/weights/default.ron, unless `--player` names a program.
    #[arg(long, conflicts_with = "player")]
    pub weights: Option<PathBuf>,
    #[command(flatten)]
    pub players: PlayerOpts,
    #[command(flatten)]
    pub batch: BatchOpts,
}

/// Options of a batch of games.
#[derive(Debug, Clone, clap::Args)]
pub struct BatchOpts {
    #[command(flatten)]
    pub game: GameOpts,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write one row per game: game,seed,score,max_tile,moves,outcome.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Start every game from a position of this bank file (`tune2048 bank`
    /// writes one), drawn by the game's seed, as a tuning run draws them.
    #[arg(long, requires = "bank_stage")]
    pub bank: Option<PathBuf>,
    /// The bank's stage the games start from (`8192`, `every:50`).
    #[arg(long, requires = "bank")]
    pub bank_stage: Option<String>,
}

/// One weight set's games: per-game results and their summary.
pub struct Played {
    pub results: Vec<GameResult>,
    pub summary: Summary,
}

impl BatchOpts {
    pub fn check(&self) -> anyhow::Result<GameSpec> {
        if self.games == 0 {
            return Err(input_error("--games must be at least 1"));
        }
        if self.threads == Some(0) {
            return Err(input_error("--threads must be at least 1"));
        }
        self.game.spec()
    }

    /// The positions of `--bank-stage` in `--bank`, if given.
    fn bank_starts(&self) -> anyhow::Result<Option<Vec<Start>>> {
        let (Some(path), Some(stage)) = (&self.bank, &self.bank_stage) else {
            return Ok(None);
        };
        let (bank, _) = Bank::load(path)?;
        let starts = bank.stage(stage);
        if starts.is_empty() {
            return Err(input_error(format!(
                "{} has no position of stage `{stage}`",
                path.display()
            )));
        }
        eprintln!(
            "games start from the {} positions of stage {stage} in {}",
            starts.len(),
            path.display()
        );
        Ok(Some(starts))
    }

    /// Plays the batch's games with every player (all on the same seeds,
    /// in one batch), with a progress bar labelled `label`.
    pub fn play(
        &self,
        workers: &Workers,
        spec: &GameSpec,
        players: &[Player],
        label: &str,
    ) -> anyhow::Result<Vec<Played>> {
        let mut batch = Batch::new(
            *spec,
            players.to_vec(),
            (0..self.games)
                .map(|i| game_seed(self.game.seed, i.into()))
                .collect(),
        );
        if let Some(starts) = self.bank_starts()? {
            batch.starts = batch.seeds.iter().map(|&s| pick(&starts, s)).collect();
        }
        let bar = ProgressBar::with_draw_target(
            Some(batch.games()),
            ProgressDrawTarget::stderr_with_hz(4),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>10} [{bar:30}] {pos}/{len} games  {per_sec}  ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
        let evaluator = workers.evaluator(self.threads)?;
        let start = Instant::now();
        let results = evaluator.evaluate(&batch, &|_| bar.inc(1))?;
        let shares = results.time_shares(start.elapsed().as_secs_f64());
        bar.finish_and_clear();
        Ok(results
            .games
            .into_iter()
            .zip(shares)
            .map(|(results, elapsed)| Played {
                summary: summarize(&results, elapsed),
                results,
            })
            .collect())
    }
}

/// Writes the per-game CSV (through a temporary name).
pub fn write_csv(path: &Path, results: &[GameResult]) -> anyhow::Result<()> {
    let mut text = String::from("game,seed,score,max_tile,moves,outcome\n");
    for (i, r) in results.iter().enumerate() {
        let rec = &r.record;
        text.push_str(&format!(
            "{i},{},{},{},{},{}\n",
            r.seed,
            rec.score,
            rec.max_tile,
            rec.moves,
            rec.outcome.name()
        ));
    }
    Ok(crate::atomic_file::write(path, text.as_bytes())?)
}

/// The summary as text, one fact a line.
pub fn describe(label: &str, s: &Summary) -> String {
    let mut out = format!(
        "{label}: {} games, mean score {:.0} (95% CI {:.0}..{:.0}, sd {:.0}), median {:.0}, {:.0} moves/game\n",
        s.games, s.mean_score, s.ci95[0], s.ci95[1], s.sd_score, s.median_score, s.mean_moves
    );
    let mut reach: Vec<(u32, f64)> = s
        .reach
        .iter()
        .filter_map(|(tile, &share)| Some((tile.parse::<u32>().ok()?, share)))
        .filter(|&(tile, _)| tile >= 2048)
        .collect();
    reach.sort_by_key(|&(tile, _)| tile);
    let reach: Vec<String> = reach
        .iter()
        .map(|(tile, share)| format!("{tile} {:.1}%", 100.0 * share))
        .collect();
    out.push_str(&format!("{label}: reached {}\n", reach.join(", ")));
    out.push_str(&format!(
        "{label}: {:.0} moves/s, {:.2} games/s\n",
        s.moves_per_s, s.games_per_s
    ));
    out
}

pub fn run(args: Args, workers: &Workers) -> anyhow::Result<ExitCode> {
    let spec = args.batch.check()?;
    let weights = if args.players.player.is_empty() {
        vec![load_weights(args.weights.as_deref(), DEFAULT_WEIGHTS)?]
    } else {
        Vec::new()
    };
    let mut players = args
        .players
        .players(&weights, args.batch.game.prob_cutoff)?;
    if players.len() != 1 {
        return Err(input_error(format!(
            "eval plays one player, not {}",
            players.len()
        )));
    }
    let (player, source) = players.swap_remove(0);
    eprintln!(
        "player: {source}; variant {}; depth {}; {} games from seed {}",
        spec.variant.name(),
        spec.search.depth,
        args.batch.games,
        args.batch.game.seed
    );
    let batch = args
        .batch
        .play(workers, &spec, &[player], "eval")?
        .swap_remove(0);
    if let Some(csv) = &args.batch.csv {
        write_csv(csv, &batch.results)?;
    }
    let mut out = std::io::stdout().lock();
    if args.batch.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&batch.summary)?)?;
    } else {
        write!(out, "{}", describe("eval", &batch.summary))?;
    }
    Ok(ExitCode::SUCCESS)
}
