//! `tune2048 compare`: two players on the same seeds, paired.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{load_weights, PlayerOpts};
use super::eval::{budgeted, depth_mix, describe, summary_json, BatchOpts};
use super::input_error;
use tune2048::search::SearchStats;
use tune2048::stats::{Paired, PairedTally};
use tune2048::workers::Workers;

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
    tune2048::workers::one_malloc_arena();
    let sides = args.weights.len() + args.players.network.len() + args.players.player.len();
    if sides != 2 {
        return Err(input_error(format!(
            "compare takes exactly two players (--weights, --network or --player), got {sides}"
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
        "A: {}  B: {}; variant {}; depth {}; paired: {}",
        players[0].1,
        players[1].1,
        spec.variant.name(),
        spec.search.depth,
        args.batch.describe_games(),
    );
    let players: Vec<_> = players.into_iter().map(|(p, _)| p).collect();
    // Both the resumed rows and the games played now add to it, in game order.
    let tally = std::cell::RefCell::new(PairedTally::default());
    let mut searched = [SearchStats::default(), SearchStats::default()];
    let mut summaries = args.batch.play(
        workers,
        &spec,
        &players,
        "A and B",
        |rows| {
            let mut tally = tally.borrow_mut();
            for (a, b) in rows[0].iter().zip(&rows[1]) {
                tally.add(a.score, b.score);
            }
        },
        |games| {
            let mut tally = tally.borrow_mut();
            for (a, b) in games[0].iter().zip(&games[1]) {
                tally.add(a.record.score, b.record.score);
                searched[0].add(&a.stats);
                searched[1].add(&b.stats);
            }
        },
    )?;
    let paired = tally.into_inner().paired();
    let summary_b = summaries.pop().expect("two players");
    let summary_a = summaries.pop().expect("two players");
    let budgeted = budgeted(&spec);
    let mut out = std::io::stdout().lock();
    if args.batch.json {
        let mut json = serde_json::to_value(&paired)?;
        json["a"] = summary_json(&summary_a, &searched[0], budgeted)?;
        json["b"] = summary_json(&summary_b, &searched[1], budgeted)?;
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for (label, summary, searched) in [
            ("A", &summary_a, &searched[0]),
            ("B", &summary_b, &searched[1]),
        ] {
            write!(out, "{}", describe(label, summary))?;
            if let Some(mix) = depth_mix(searched).filter(|_| budgeted) {
                writeln!(out, "{label}: moves searched to depth {mix}")?;
            }
        }
        writeln!(out, "{}", describe_paired(&paired))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The paired comparison in one line. One pair has no spread: no interval,
/// and nothing to test.
fn describe_paired(paired: &Paired) -> String {
    let (interval, test) = if paired.games < 2 {
        ("one game: no interval".to_string(), String::new())
    } else {
        (
            format!("95% CI {:+.0}..{:+.0}", paired.ci95[0], paired.ci95[1]),
            format!(", paired t-test p = {:.3e}", paired.p_value),
        )
    };
    format!(
        "B - A: mean {:+.0} ({interval}), ratio {:.3}{test}, B wins/losses/ties {}/{}/{}",
        paired.mean_diff, paired.ratio, paired.wins, paired.losses, paired.ties
    )
}
