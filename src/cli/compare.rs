//! `tune2048 compare`: two players on the same seeds, paired.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{load_weights, PlayerOpts};
use super::eval::{describe, write_csv, BatchOpts};
use super::input_error;
use super::workers::Workers;
use crate::stats::Paired;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Weights files of built-in players: `--weights A --weights B` (B is
    /// compared against A). Built-in sides come first, then `--player` ones:
    /// `--weights A --player B` compares a program against the built-in player.
    #[arg(long, num_args = 1)]
    pub weights: Vec<PathBuf>,
    #[command(flatten)]
    pub players: PlayerOpts,
    #[command(flatten)]
    pub batch: BatchOpts,
}

pub fn run(args: Args, workers: &Workers) -> anyhow::Result<ExitCode> {
    let sides = args.weights.len() + args.players.player.len();
    if sides != 2 {
        return Err(input_error(format!(
            "compare takes exactly two players (--weights or --player), got {sides}"
        )));
    }
    let spec = args.batch.check()?;
    let weights = args
        .weights
        .iter()
        .map(|p| Ok((load_weights(Some(p), "")?.0, p.display().to_string())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let players = args
        .players
        .players(&weights, args.batch.game.prob_cutoff)?;
    eprintln!(
        "A: {}  B: {}; variant {}; depth {}; {} paired games from seed {}",
        players[0].1,
        players[1].1,
        spec.variant.name(),
        spec.search.depth,
        args.batch.games,
        args.batch.game.seed
    );
    let players: Vec<_> = players.into_iter().map(|(p, _)| p).collect();
    let mut played = args.batch.play(workers, &spec, &players, "A and B")?;
    let batch_b = played.pop().expect("two weight sets");
    let batch_a = played.pop().expect("two weight sets");
    if let Some(csv) = &args.batch.csv {
        // One file per side: FILE becomes FILE.a.csv and FILE.b.csv.
        write_csv(&csv.with_extension("a.csv"), &batch_a.results)?;
        write_csv(&csv.with_extension("b.csv"), &batch_b.results)?;
    }
    let scores = |batch: &super::eval::Played| {
        batch
            .results
            .iter()
            .map(|r| r.record.score)
            .collect::<Vec<_>>()
    };
    let paired = Paired::compare(&scores(&batch_a), &scores(&batch_b));
    let mut out = std::io::stdout().lock();
    if args.batch.json {
        let mut json = serde_json::to_value(&paired)?;
        json["a"] = serde_json::to_value(&batch_a.summary)?;
        json["b"] = serde_json::to_value(&batch_b.summary)?;
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        write!(out, "{}", describe("A", &batch_a.summary))?;
        write!(out, "{}", describe("B", &batch_b.summary))?;
        writeln!(
            out,
            "B - A: mean {:+.0} (95% CI {:+.0}..{:+.0}), ratio {:.3}, paired t-test p = {:.3e}, B wins/losses/ties {}/{}/{}",
            paired.mean_diff, paired.ci95[0], paired.ci95[1], paired.ratio, paired.p_value, paired.wins, paired.losses, paired.ties
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
