//! `tune2048 perft`: leaf counts of the game tree, to check the rules.
//! Prints one line that ends with the count.

use std::process::ExitCode;
use std::time::Instant;

use crate::adversarial::{perft as adv, Rules, Side};
use crate::engine::{perft as classic, Board};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesName {
    /// The classic game: a move, then a 2 or a 4 on each empty cell (one level = both).
    Classic,
    /// Adversarial 2048, the attacker places a 2.
    Gpcc2015,
    /// Adversarial 2048, the attacker places a 2 or a 4.
    Gpcc2016,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SideName {
    Attacker,
    Defender,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which game tree to count.
    #[arg(long, value_enum)]
    pub rules: RulesName,
    /// Plies to count (attacker and defender plies each count one; classic: moves).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub plies: u32,
    /// The start: 16 hex digits of ranks (`0x…`, cell 0 the lowest digit) or
    /// 16 tile values row-major, separated by commas or spaces. Default: empty.
    #[arg(long)]
    pub board: Option<String>,
    /// Who moves first (adversarial rules).
    #[arg(long, value_enum, default_value = "attacker")]
    pub side: SideName,
}

/// Parses a board given as `0x` and 16 hex digits, or as 16 tile values.
pub fn parse_board(text: &str) -> Result<Board, String> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let hex = hex.replace('_', "");
        if hex.is_empty() || hex.len() > 16 {
            return Err(format!("`{t}`: expected up to 16 hex digits after 0x"));
        }
        return u64::from_str_radix(&hex, 16)
            .map(Board)
            .map_err(|_| format!("`{t}`: not a hex number"));
    }
    let words: Vec<&str> = t
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() != 16 {
        return Err(format!(
            "expected 16 tile values (or 0x and hex ranks), found {} values",
            words.len()
        ));
    }
    let mut values = [0u32; 16];
    for (i, (slot, w)) in values.iter_mut().zip(&words).enumerate() {
        *slot = w
            .parse()
            .map_err(|_| format!("cell {}: `{w}` is not a number", i + 1))?;
    }
    Board::from_values(values)
        .ok_or_else(|| "a tile value is not 0 or a power of two from 2 to 32768".to_string())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let board = match &args.board {
        Some(text) => parse_board(text).map_err(|e| super::input_error(format!("--board: {e}")))?,
        None => Board::EMPTY,
    };
    let side = match args.side {
        SideName::Attacker => Side::Attacker,
        SideName::Defender => Side::Defender,
    };
    let start = Instant::now();
    let (name, leaves) = match args.rules {
        RulesName::Classic => ("classic", classic::perft(board, args.plies)),
        RulesName::Gpcc2015 => (
            "gpcc2015",
            adv::perft(Rules::Gpcc2015, board, side, args.plies),
        ),
        RulesName::Gpcc2016 => (
            "gpcc2016",
            adv::perft(Rules::Gpcc2016, board, side, args.plies),
        ),
    };
    eprintln!("{:.3} s", start.elapsed().as_secs_f64());
    let first = if args.rules == RulesName::Classic {
        String::new()
    } else {
        format!(" first {}", side.name())
    };
    println!(
        "rules {name} board {:#018x}{first} plies {} leaves {leaves}",
        board.0, args.plies
    );
    Ok(ExitCode::SUCCESS)
}
