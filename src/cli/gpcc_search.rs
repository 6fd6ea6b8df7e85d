//! `tune2048 gpcc-search`: one alpha-beta decision of adversarial 2048, with
//! its cost: nodes visited and evaluations made.

use std::process::ExitCode;
use std::time::Instant;

use tune2048::adversarial::player::Player;
use tune2048::adversarial::search::{AlphaBeta, Limits, MAX_PLIES};
use tune2048::adversarial::{Action, AdversarialPosition, Side};
use tune2048::engine::Board;

use super::matchplay::RulesName;
use super::perft::{parse_board, SideName};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, value_enum)]
    pub rules: RulesName,
    /// `score`, `eval1`, `eval2`, a weights file or a player file (its
    /// evaluation for the side to move is used;
    /// the depth is --plies).
    #[arg(long, default_value = "eval1")]
    pub player: String,
    /// Search depth in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    pub plies: u32,
    /// The position's board, as for `perft --board`. Default: empty.
    #[arg(long)]
    pub board: Option<String>,
    /// The defender's score so far.
    #[arg(long, default_value_t = 0)]
    pub score: u64,
    /// The side to move.
    #[arg(long, value_enum, default_value = "attacker")]
    pub side: SideName,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules();
    let player = Player::load(&args.player).map_err(|e| {
        super::input_error(format!(
            "--player {}: not a built-in player nor a weights or player file: {e}",
            args.player
        ))
    })?;
    let board = match &args.board {
        Some(text) => parse_board(text).map_err(|e| super::input_error(format!("--board: {e}")))?,
        None => Board::EMPTY,
    };
    let pos = AdversarialPosition {
        board,
        score: args.score,
        to_move: match args.side {
            SideName::Attacker => Side::Attacker,
            SideName::Defender => Side::Defender,
        },
    };
    let mut searcher = AlphaBeta::new(rules, player.eval(pos.to_move).clone(), 20);
    let start = Instant::now();
    let Some(d) = searcher.decide(pos, Limits::plies(args.plies)) else {
        return Err(super::input_error(
            "the side to move has no legal action here",
        ));
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let action = match d.action {
        Action::Slide(dir) => dir.name().to_string(),
        Action::Place(s) => format!(
            "place {} on cell {}",
            tune2048::engine::value_of(s.rank),
            s.cell + 1
        ),
    };
    println!(
        "{} {} plies {}: {action}, value {} (for the side to move), {} nodes, {} evaluations, {ms:.0} ms",
        rules.name(),
        pos.to_move.name(),
        d.plies,
        d.value,
        d.nodes,
        d.evals
    );
    Ok(ExitCode::SUCCESS)
}
