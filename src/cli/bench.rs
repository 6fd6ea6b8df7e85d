//! `tune2048 bench <suite>`: measure engine and search speed. Every
//! benchmark checks the answers it times; a wrong one exits with an error.

use std::process::ExitCode;

use tune2048::bench::{self, EngineConfig};

/// Which benchmarks to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// Moves per second of the 4×4 board, and perft leaves per second.
    Engine,
    /// Whole games at depths 0–3 on one thread (µs per move played, moves
    /// per game, moves tried per second), and self-play games/s on 1..N threads.
    Search,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite to run.
    #[arg(value_enum)]
    pub suite: Suite,
    /// Boards sampled from random-play games for the move benchmarks.
    #[arg(long, default_value_t = bench::DEFAULT_BOARDS as u64, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub boards: u64,
    /// Repetitions of each search case (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// Seconds spent on each measurement.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1.0)]
    pub secs: f64,
    /// Time the search with a learned network (`learn`) instead of the
    /// reference weights.
    #[arg(long)]
    pub network: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(args.secs.is_finite() && args.secs >= 0.0) {
        return Err(super::input_error(format!(
            "--secs must be a non-negative number of seconds, found {}",
            args.secs
        )));
    }
    match args.suite {
        Suite::Engine => {
            let rows = bench::engine(EngineConfig {
                boards: args.boards as usize,
                secs: args.secs,
            })?;
            print!("{}", bench::table(&rows));
        }
        Suite::Search => {
            let player = match &args.network {
                Some(path) => tune2048::player::Player::Network {
                    network: tune2048::player::NetworkFile::load(path)
                        .map_err(super::input_error)?,
                    settings: tune2048::search::Settings::default(),
                },
                None => bench::search::reference_player(),
            };
            let rows = bench::search::depths(&bench::search::CASES, args.reps, &player)?;
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let counts: Vec<usize> = [1, 2, 4, 8, 16]
                .into_iter()
                .filter(|&t| t <= cores)
                .collect();
            let scaling = bench::search::threads(1, 200, &counts, &player)?;
            let who = match &player {
                tune2048::player::Player::Builtin { .. } => "reference weights".to_string(),
                other => other.describe(),
            };
            print!("{}", bench::search::table(&rows, &scaling, &who));
        }
    }
    Ok(ExitCode::SUCCESS)
}
