//! `tune2048 perft`: leaf counts of the game tree, to check the rules.
//! Prints one line that ends with the count.

use std::process::ExitCode;
use std::time::Instant;

use clap::builder::PossibleValue;
use clap::ValueEnum;

use super::matchplay::RulesName;
use tune2048::adversarial::{perft as adv, Side};
use tune2048::engine::{perft as classic, Board};

/// The game tree to count: the classic game's, or adversarial 2048's under
/// the rules that `match` and the other adversarial commands take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tree {
    Classic,
    Adversarial(RulesName),
}

impl ValueEnum for Tree {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            Tree::Classic,
            Tree::Adversarial(RulesName::Gpcc2015),
            Tree::Adversarial(RulesName::Gpcc2016),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self {
            Tree::Classic => Some(PossibleValue::new("classic").help(
                "The classic game: a move, then a 2 or a 4 on each empty cell (one level = both)",
            )),
            // `gpcc2015: Adversarial 2048, the attacker places a 2`.
            Tree::Adversarial(rules) => {
                let value = rules.to_possible_value()?;
                let help = value.get_help().map(|h| h.to_string()).unwrap_or_default();
                let mut chars = help.chars();
                let first = chars.next().map(|c| c.to_lowercase().collect::<String>());
                let help = format!(
                    "Adversarial 2048, {}{}",
                    first.unwrap_or_default(),
                    chars.as_str()
                );
                Some(value.help(help))
            }
        }
    }
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
    pub rules: Tree,
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
        Tree::Classic => ("classic", classic::perft(board, args.plies)),
        Tree::Adversarial(name) => {
            let rules = name.rules();
            (rules.name(), adv::perft(rules, board, side, args.plies))
        }
    };
    eprintln!("{:.3} s", start.elapsed().as_secs_f64());
    let first = if args.rules == Tree::Classic {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_adversarial_rule_is_a_tree() {
        for &name in RulesName::value_variants() {
            assert!(Tree::value_variants().contains(&Tree::Adversarial(name)));
        }
        let names: Vec<String> = Tree::value_variants()
            .iter()
            .filter_map(|t| t.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        assert_eq!(names, ["classic", "gpcc2015", "gpcc2016"]);
    }
}
