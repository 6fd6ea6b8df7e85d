//! `tune2048 gpcc-player`: our adversarial 2048 player on stdin/stdout
//! ([`tune2048::adversarial::protocol_player::serve`]), speaking the line
//! protocol of [`tune2048::adversarial::protocol`] to a referee (ours,
//! `gpcc-referee`, or another one). It answers each turn with
//! one line and flushes; with a ply or node limit the answers depend on the
//! input alone. It plays any number of games in a row and stops at the end
//! of its input; a malformed or impossible line exits with code 2.

use std::process::ExitCode;

use super::input_error;
use super::matchplay::{LimitArgs, DEFAULT_PLIES};
use tune2048::adversarial::player::Player;
use tune2048::adversarial::protocol_player::{serve, ProtocolPlayer, ServeError};
use tune2048::adversarial::search::Limits;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// `score`, `eval1`, `eval2`, a weights file, or a player file
    /// (`Player(defender: "D.ron", attacker: "A.ron")`).
    #[arg(long, default_value = "eval1")]
    pub player: String,
    /// Without --plies, --nodes or --move-ms: 7 plies.
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let player = Player::load(&args.player).map_err(|e| {
        input_error(format!(
            "--player {}: not a built-in player (score, eval1, eval2) nor a weights or player file: {e}",
            args.player
        ))
    })?;
    let limits = args.limits.limits().unwrap_or(Limits::plies(DEFAULT_PLIES));
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let player = ProtocolPlayer::new(player, limits);
    serve(player, stdin.lock(), stdout.lock()).map_err(|e| match e {
        ServeError::Protocol { .. } => input_error(e),
        ServeError::Output(io) => io.into(),
    })?;
    Ok(ExitCode::SUCCESS)
}
