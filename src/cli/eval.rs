//! `tune2048 eval`: many seeded games with one player, summarized.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{bank_stage, load_weights, GameOpts, PlayerOpts, DEFAULT_WEIGHTS};
use super::input_error;
use tune2048::bank::pick;
use tune2048::engine::{Start, Variant};
use tune2048::evaluation::chunked::{Files, Run, RunError};
use tune2048::evaluation::game_csv::{partial_path, GameCsvError};
use tune2048::player::Player;
use tune2048::search::SearchStats;
use tune2048::selfplay::{GameResult, GameSpec};
use tune2048::stats::{GameStat, Summary, EXACT_MEDIAN_GAMES};
use tune2048::workers::Workers;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Weights file (RON) of the built-in player; default
    /// configs/weights/default.ron, unless `--player` names a program.
    #[arg(long, conflicts_with_all = ["player", "network"])]
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
    /// Index of the first game: `--first 16 --games 48` plays games 16..64
    /// of `--seed`, so a sample grows (or splits across machines) without
    /// repeating a game. The CSV numbers games by this index.
    #[arg(long, default_value_t = 0)]
    pub first: u32,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write one row per game: game,seed,score,max_tile,moves,outcome. The
    /// rows go to FILE.partial as the games finish, which becomes FILE when
    /// the run ends; a run that stops leaves its games there for `--resume`.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Pick up a stopped run of the same games from its `--csv` FILE.partial:
    /// its games are kept, the rest played, and FILE ends as an unbroken
    /// run's would. The summary covers every game; its rates, the games
    /// played now.
    #[arg(long, requires = "csv")]
    pub resume: bool,
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
    /// Play from a bank whose header records another variant than the
    /// games' (by default an error: its positions come from other games).
    #[arg(long, requires = "bank")]
    pub bank_other_variant: bool,
}

impl BatchOpts {
    pub fn check(&self) -> anyhow::Result<GameSpec> {
        if self.games == 0 {
            return Err(input_error("--games must be at least 1"));
        }
        if self.threads == Some(0) {
            return Err(input_error("--threads must be at least 1"));
        }
        if self.first.checked_add(self.games).is_none() {
            return Err(input_error(format!(
                "--first {} with --games {} runs past game {}",
                self.first,
                self.games,
                u32::MAX
            )));
        }
        self.game.spec()
    }

    /// The games' indices, `--first` and the `--games` after it.
    pub fn indices(&self) -> std::ops::Range<u32> {
        self.first..self.first + self.games
    }

    /// How the games are named in a run's first line: `100 games from seed
    /// 7`, or `48 games (16..64) from seed 7` when `--first` is given.
    pub fn describe_games(&self) -> String {
        let range = if self.first == 0 {
            String::new()
        } else {
            let games = self.indices();
            format!(" ({}..{})", games.start, games.end)
        };
        format!("{} games{range} from seed {}", self.games, self.game.seed)
    }

    /// The positions of `--bank-stage` in `--bank`, if given.
    fn bank_starts(&self, variant: Variant) -> anyhow::Result<Option<Vec<Start>>> {
        let (Some(path), Some(stage)) = (&self.bank, &self.bank_stage) else {
            return Ok(None);
        };
        let starts = bank_stage(
            path,
            stage,
            (!self.bank_other_variant).then_some(variant),
            |e| format!("{e} (--bank-other-variant starts them there all the same)"),
        )?;
        eprintln!(
            "games start from the {} positions of stage {stage} in {}",
            starts.len(),
            path.display()
        );
        Ok(Some(starts))
    }

    /// Plays the batch's games with every player (all on the same seeds),
    /// chunk by chunk ([`CHUNK_GAMES`](tune2048::evaluation::chunked::CHUNK_GAMES)), with a progress bar labelled
    /// `label`. With `--csv`, each player's file ([`BatchOpts::csv_files`])
    /// gets a row per game as the games finish (`--resume`: after those of a
    /// stopped run). `on_resumed` sees what a stopped run's rows say
    /// (`[player][game]`), `on_chunk` every chunk's results in game order.
    /// Returns each player's summary.
    pub fn play(
        &self,
        workers: &Workers,
        spec: &GameSpec,
        players: &[Player],
        label: &str,
        on_resumed: impl FnOnce(&[Vec<GameStat>]),
        on_chunk: impl FnMut(&[Vec<GameResult>]),
    ) -> anyhow::Result<Vec<Summary>> {
        let starts = self.bank_starts(spec.variant)?;
        let start_of = starts.map(|starts| move |seed| pick(&starts, seed));
        let bar =
            tune2048::progress::games_bar(u64::from(self.games) * players.len() as u64, label);
        let evaluator = super::workers::evaluator(workers, self.threads)?;
        let run = Run {
            spec: *spec,
            players,
            seed: self.game.seed,
            games: self.indices(),
            start_of: start_of.as_ref().map(|f| f as &dyn Fn(u64) -> Start),
        };
        let identity = self.identity(spec, players)?;
        let csv = self.csv_files(players.len());
        let files = (!csv.is_empty()).then(|| Files {
            paths: &csv,
            identity: &identity,
            resume: self.resume,
        });
        let on_resumed = |rows: &[Vec<GameStat>]| {
            let kept = rows.first().map_or(0, Vec::len) as u32;
            let from = self.first + kept;
            bar.inc(u64::from(kept) * players.len() as u64);
            bar.suspend(|| {
                eprintln!(
                    "resumed: games {}..{from} kept from {}; playing {from}..{}",
                    self.first,
                    partial_path(&csv[0]).display(),
                    self.indices().end
                )
            });
            on_resumed(rows);
        };
        let summaries = run
            .play(&*evaluator, files, &|| bar.inc(1), on_resumed, on_chunk)
            .map_err(|e| match e {
                // The error itself, so that the exit code sees a player's failure.
                RunError::Evaluation { source, kept } => {
                    if kept > 0 {
                        bar.suspend(|| {
                            eprintln!(
                                "games {}..{} finished before the failure and are kept in {}: \
                                 once its cause is fixed, the same command with --resume plays \
                                 the rest",
                                self.first,
                                self.first + kept,
                                partial_path(&csv[0]).display()
                            )
                        });
                    }
                    anyhow::Error::new(source)
                }
                RunError::Csv(e @ GameCsvError::Refused { .. }) => input_error(e),
                RunError::Csv(e) => anyhow::Error::new(e),
            })?;
        bar.finish_and_clear();
        Ok(summaries)
    }
}

impl BatchOpts {
    /// The `--csv` file of each of `players` players: FILE for one, FILE.a.csv
    /// and FILE.b.csv for two (and so on); none without `--csv`.
    pub fn csv_files(&self, players: usize) -> Vec<PathBuf> {
        let Some(csv) = &self.csv else {
            return Vec::new();
        };
        if players == 1 {
            return vec![csv.clone()];
        }
        (b'a'..)
            .take(players)
            .map(|side| csv.with_extension(format!("{}.csv", side as char)))
            .collect()
    }

    /// What the games are, as a JSON line: a stopped run's CSV files are
    /// picked up only by a run whose players, search, seed and starts are
    /// these (`--games` may grow; `--first` is checked row by row).
    fn identity(&self, spec: &GameSpec, players: &[Player]) -> anyhow::Result<String> {
        let network_hashes: Vec<Option<String>> = (players.iter())
            .map(|p| match p {
                Player::Network { network, .. } => Some(format!("{:016x}", network.hash())),
                _ => None,
            })
            .collect();
        Ok(serde_json::to_string(&serde_json::json!({
            "players": players,
            "network_hashes": network_hashes,
            "spec": spec,
            "seed": self.game.seed,
            "bank": self.bank,
            "bank_stage": self.bank_stage,
        }))?)
    }
}

/// The summary as text, one fact a line.
pub fn describe(label: &str, s: &Summary) -> String {
    let median = match s.median_rel_error {
        None => format!("median {:.0}", s.median_score),
        Some(e) => format!(
            "median {:.0} (within {}%: past {EXACT_MEDIAN_GAMES} games it is read from a histogram of the scores)",
            s.median_score,
            100.0 * e
        ),
    };
    // One game has no spread: its interval would be a point.
    let spread = if s.games < 2 {
        "one game: no interval".to_string()
    } else {
        format!(
            "95% CI {:.0}..{:.0}, sd {:.0}",
            s.ci95[0], s.ci95[1], s.sd_score
        )
    };
    let mut out = format!(
        "{label}: {} games, mean score {:.0} ({spread}), {median}, {:.0} moves/game\n",
        s.games, s.mean_score, s.mean_moves
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

/// The share of moves chosen at each search depth (`0 12.5%, 1 87.5%`), for
/// games under a budget; `None` when no move was searched here (a program's
/// games).
pub fn depth_mix(stats: &SearchStats) -> Option<String> {
    let total: u64 = stats.depths.iter().sum();
    if total == 0 {
        return None;
    }
    let deepest = stats.depths.len() - 1;
    let parts: Vec<String> = (stats.depths.iter().enumerate())
        .filter(|&(_, &n)| n > 0)
        .map(|(depth, &n)| {
            let more = if depth == deepest { "+" } else { "" };
            format!("{depth}{more} {:.1}%", 100.0 * n as f64 / total as f64)
        })
        .collect();
    Some(parts.join(", "))
}

/// Whether moves are searched to a depth that varies: under a budget of time
/// or moves tried, or a clock.
pub fn budgeted(spec: &GameSpec) -> bool {
    spec.move_budget.is_some() || spec.clock.is_some()
}

/// A summary as JSON, with the moves chosen at each search depth
/// (`moves_by_depth`: index = depth, the last slot that depth or deeper)
/// when `budgeted`.
pub fn summary_json(
    summary: &Summary,
    searched: &SearchStats,
    budgeted: bool,
) -> anyhow::Result<serde_json::Value> {
    let mut json = serde_json::to_value(summary)?;
    if budgeted {
        json["moves_by_depth"] = serde_json::to_value(searched.depths)?;
    }
    Ok(json)
}

pub fn run(args: Args, workers: &Workers) -> anyhow::Result<ExitCode> {
    tune2048::workers::one_malloc_arena();
    let spec = args.batch.check()?;
    let weights = if args.players.player.is_empty() && args.players.network.is_empty() {
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
        "player: {source}; variant {}; depth {}; {}",
        spec.variant.name(),
        spec.search.depth,
        args.batch.describe_games(),
    );
    let mut searched = SearchStats::default();
    let summary = args
        .batch
        .play(
            workers,
            &spec,
            &[player],
            "eval",
            |_| {},
            |chunk| chunk[0].iter().for_each(|game| searched.add(&game.stats)),
        )?
        .swap_remove(0);
    let budgeted = budgeted(&spec);
    let mut out = std::io::stdout().lock();
    if args.batch.json {
        let json = summary_json(&summary, &searched, budgeted)?;
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        write!(out, "{}", describe("eval", &summary))?;
        if let Some(mix) = depth_mix(&searched).filter(|_| budgeted) {
            writeln!(out, "eval: moves searched to depth {mix}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
