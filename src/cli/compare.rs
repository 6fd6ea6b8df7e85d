//! `tune2048 compare`: two weight sets on the same seeds, paired.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::common::load_weights;
use super::eval::{describe, write_csv, BatchOpts};
use super::input_error;
use super::workers::Workers;
use crate::stats::Paired;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The two weight files: `--weights A --weights B` (B is compared against A).
    #[arg(long, num_args = 1, required = true)]
    pub weights: Vec<PathBuf>,
    #[command(flatten)]
    pub batch: BatchOpts,
}

pub fn run(args: Args, workers: &Workers) -> anyhow::Result<ExitCode> {
    let [a_path, b_path] = args.weights.as_slice() else {
        return Err(input_error(format!(
            "compare takes exactly two --weights, got {}",
            args.weights.len()
        )));
    };
    let spec = args.batch.check()?;
    let (a, _) = load_weights(Some(a_path), "")?;
    let (b, _) = load_weights(Some(b_path), "")?;
    eprintln!(
        "A: {}  B: {}; variant {}; depth {}; {} paired games from seed {}",
        a_path.display(),
        b_path.display(),
        spec.variant.name(),
        spec.search.depth,
        args.batch.games,
        args.batch.game.seed
    );
    let mut played = args.batch.play(workers, &spec, &[a, b], "A and B")?;
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
