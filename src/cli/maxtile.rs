//! `tune2048 maxtile`: BOJ 12100, the largest tile reachable in K moves.
//! Reads the problem's input on stdin and prints the answer.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;

use tune2048::maxtile::{max_tile, parse_input};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Most moves allowed (the problem's K).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub moves: u32,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("reading the board from stdin")?;
    let grid = parse_input(&text).map_err(super::input_error)?;
    println!("{}", max_tile(&grid, args.moves));
    Ok(ExitCode::SUCCESS)
}
