//! `tune2048 judge`: a local BOJ 28489 judge ([`tune2048::interact::judge`])
//! around a player program (by default `tune2048 interact`): the flags, a
//! line per game as it ends, the CSV and the verdict.

use std::path::PathBuf;
use std::process::ExitCode;

use super::input_error;
use tune2048::child::time_limit;
use tune2048::interact::judge::write_csv;
use tune2048::interact::{judge_games, JudgeOptions, JudgeSummary, JudgedGame};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to judge (the real judge plays 16).
    #[arg(long, default_value_t = 16)]
    pub games: u32,
    /// Base seed of the judge's placements.
    #[arg(long, default_value_t = 28489)]
    pub seed: u64,
    /// Time limit per game in seconds (the real judge's is 15).
    #[arg(long, allow_negative_numbers = true, default_value_t = 15.0)]
    pub time_limit: f64,
    /// Write one row per game: game,seed,max_tile,moves,seconds,error (seeds
    /// as `eval --csv` writes them, so two players' files pair by game).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// The player command and its arguments (default: this program's `interact`).
    #[arg(last = true)]
    pub command: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limit = time_limit(args.time_limit).filter(|_| args.games > 0);
    let Some(limit) = limit else {
        return Err(input_error(
            "--games must be positive and --time-limit between 0 and 1e9 seconds",
        ));
    };
    let command = if args.command.is_empty() {
        let exe = std::env::current_exe()?.display().to_string();
        vec![exe, "interact".to_string()]
    } else {
        args.command.clone()
    };
    let options = JudgeOptions {
        command,
        games: args.games,
        seed: args.seed,
        limit,
    };
    let verdicts = judge_games(&options, print_game).map_err(input_error)?;
    if let Some(path) = &args.csv {
        // The message says it all (exit status 1).
        write_csv(path, args.seed, &verdicts).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let summary = JudgeSummary::of(&verdicts);
    println!(
        "average max tile {:.0} over {} games; slowest game {:.2} s; {} failed; verdict: {}",
        summary.mean_max_tile,
        summary.games,
        summary.slowest.as_secs_f64(),
        summary.failed,
        if summary.accepted() {
            "ACCEPTED (average >= 2048)"
        } else {
            "REJECTED"
        }
    );
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A game's line of the report.
fn print_game(game: u32, v: &JudgedGame) {
    println!(
        "game {:>2}: max tile {:>5}  {:>5} moves  {:>6.2} s{}",
        game + 1,
        v.max_tile,
        v.moves,
        v.elapsed.as_secs_f64(),
        v.error
            .as_ref()
            .map_or(String::new(), |e| format!("  FAILED: {e}"))
    );
}
