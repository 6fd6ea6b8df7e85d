//! `tune2048 place`: the place-a-2 puzzle. Finds a game that reaches a
//! target tile and writes its transcript, or checks a transcript (`--verify`).
//!
//! Exit codes: 0 when the target is reached (or the transcript is good); 1
//! when time runs out or the target is out of reach (the transcript of the
//! best tile is still written), or when a transcript breaks the rules; 2 for
//! bad input, such as a file that is not a transcript.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;

use tune2048::engine::Direction;
use tune2048::place::exact::{Exact, MAX_EXACT_SIDE};
use tune2048::place::planner::{plan, PlanParams};
use tune2048::place::rules::{rank_bound, value, MAX_SIDE, MIN_SIDE};
use tune2048::place::transcript::{parse, replay, write};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tile to reach (a power of two). Optional in exact mode, where it
    /// defaults to the largest reachable tile.
    #[arg(long)]
    pub target: Option<u64>,
    /// Side length of the board.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(MIN_SIDE as i64..=MAX_SIDE as i64))]
    pub size: u8,
    /// Breaks ties between equally scored boards in the planner.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds the search may take.
    #[arg(long, allow_negative_numbers = true, default_value_t = 60.0)]
    pub time_limit: f64,
    /// Write the transcript here instead of to stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Check this transcript instead of searching.
    #[arg(long, conflicts_with_all = ["out", "exact", "seed", "time_limit", "width"])]
    pub verify: Option<PathBuf>,
    /// Search every reachable state (the default for sizes up to 3).
    #[arg(long)]
    pub exact: bool,
    /// The planner's beam width (widened for a while where the beam dies out).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub width: u32,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.size as usize;
    let target = args.target.map(|t| target_rank(t, n)).transpose()?;
    if let Some(file) = &args.verify {
        let target = target.ok_or_else(|| super::input_error("--verify needs --target"))?;
        return verify(file, n, target);
    }
    if !(args.time_limit > 0.0 && args.time_limit <= 1e7) {
        return Err(super::input_error(format!(
            "--time-limit must be a positive number of seconds, not {}",
            args.time_limit
        )));
    }
    let deadline = Instant::now() + Duration::from_secs_f64(args.time_limit);
    if n <= 3 || args.exact {
        if n > MAX_EXACT_SIDE {
            return Err(super::input_error(format!(
                "--exact takes sizes up to {MAX_EXACT_SIDE}, not {n}"
            )));
        }
        exact(&args, n, target, deadline)
    } else {
        let target =
            target.ok_or_else(|| super::input_error("--target is needed for sizes above 3"))?;
        planned(&args, n, target, deadline)
    }
}

/// The rank of a target tile, checked against the board's bound.
fn target_rank(t: u64, n: usize) -> anyhow::Result<u8> {
    if t < 2 || !t.is_power_of_two() {
        return Err(super::input_error(format!(
            "--target must be a power of two from 2, not {t}"
        )));
    }
    let rank = t.trailing_zeros() as u8;
    if rank > rank_bound(n) {
        return Err(super::input_error(format!(
            "--target {t} is out of reach: no {n}×{n} game can pass 2^{} = {}",
            rank_bound(n),
            value(rank_bound(n))
        )));
    }
    Ok(rank)
}

fn verify(file: &PathBuf, n: usize, target: u8) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("reading the transcript {}", file.display()))?;
    let transcript = parse(&text).map_err(super::input_error)?;
    let r = replay(&transcript, n, value(target))?;
    println!(
        "ok: {} turns, legal, largest tile {} (target {})",
        transcript.turns.len(),
        r.best,
        value(target)
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the transcript of `turns`, after replaying it as a check.
fn emit(args: &Args, n: usize, turns: &[(usize, Direction)], rank: u8) -> anyhow::Result<()> {
    let text = write(n, turns, value(rank));
    let check = parse(&text).context("the planner wrote a bad transcript")?;
    replay(&check, n, value(rank)).context("the planner's transcript does not replay")?;
    match &args.out {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("writing the transcript {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}

fn exact(args: &Args, n: usize, target: Option<u8>, deadline: Instant) -> anyhow::Result<ExitCode> {
    let e = Exact::search(n, Some(deadline))?;
    let best = e.best_rank();
    let how = if e.complete {
        "the largest reachable tile"
    } else {
        "time ran out; the largest tile found"
    };
    eprintln!(
        "exact {n}×{n}: {} states in {} layers, {:.2} s: {how} is {}, first after {} turns",
        e.states,
        e.longest(),
        e.seconds,
        value(best),
        e.turns_to(best).unwrap_or(0),
    );
    if best == 0 {
        eprintln!("no turn was searched before the time limit");
        return Ok(ExitCode::FAILURE);
    }
    let goal = target.unwrap_or(best).min(best);
    let turns = e
        .transcript(goal)
        .context("the exact search lost the path to its best state")?;
    emit(args, n, &turns, goal)?;
    match target {
        Some(t) if t > best => {
            let why = if e.complete {
                "out of reach (proved)"
            } else {
                "not reached before the time limit"
            };
            eprintln!(
                "target {} {why}; the transcript reaches {}",
                value(t),
                value(best)
            );
            Ok(ExitCode::FAILURE)
        }
        None if !e.complete => Ok(ExitCode::FAILURE),
        _ => Ok(ExitCode::SUCCESS),
    }
}

fn planned(args: &Args, n: usize, target: u8, deadline: Instant) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let p = plan(
        n,
        PlanParams {
            target,
            width: args.width as usize,
            deadline: Some(deadline),
            seed: args.seed,
        },
    );
    eprintln!(
        "planner {n}×{n}: best tile {} in {} turns, {:.2} s, {} boards expanded, \
         {} backtracks, widest beam {}",
        value(p.best_rank),
        p.turns.len(),
        start.elapsed().as_secs_f64(),
        p.expanded,
        p.backtracks,
        p.max_width
    );
    if p.best_rank > 0 {
        emit(args, n, &p.turns, p.best_rank)?;
    }
    if p.reached {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "target {} not reached: the best tile reached is {}",
            value(target),
            value(p.best_rank)
        );
        Ok(ExitCode::FAILURE)
    }
}
