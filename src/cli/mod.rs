//! The command line: one module per subcommand, each with its `Args` and `run`.
//!
//! Results go to stdout, progress and diagnostics to stderr. Bad input (a
//! malformed file, config, protocol line or flag value) exits with code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod bank;
pub mod bench;
pub mod blend;
pub mod common;
pub mod compare;
pub mod eval;
pub mod export;
pub mod gpcc_player;
pub mod gpcc_referee;
pub mod gpcc_search;
pub mod interact;
pub mod judge;
pub mod learn;
pub mod matchplay;
pub mod maxtile;
pub mod pack;
pub mod perft;
pub mod place;
pub mod play;
pub mod player;
pub mod plot;
pub mod report;
pub mod tune;
pub mod workers;

/// Tune 2048 heuristics with CMA-ES over parallel self-play.
#[derive(Debug, Parser)]
#[command(name = "tune2048", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a tuning job described by a RON config; writes a run folder.
    Tune(tune::Args),
    /// Continue a stopped tuning run from its folder.
    Resume(tune::ResumeArgs),
    /// Start a player program and list the parameters it declares.
    Player(player::Args),
    /// Learn an n-tuple network by temporal differences, in a folder of its own.
    Learn(learn::Args),
    /// Pack a learned network to ship: its weights rounded to a grid, zeros left out.
    Pack(pack::Args),
    /// The mean of learned networks, weight by weight: one network as fast as each.
    Blend(blend::Args),
    /// Play many seeded games with one weight set and summarize them.
    Eval(eval::Args),
    /// Play games and save their positions at named stages to a bank file.
    Bank(bank::Args),
    /// Play two weight sets on the same seeds and compare them, paired.
    Compare(compare::Args),
    /// Play one game and print its record.
    Play(play::Args),
    /// Play the BOJ 28489 judge protocol on stdin/stdout.
    Interact(interact::Args),
    /// Judge a BOJ 28489 player locally (default: our `interact`), game by game.
    Judge(judge::Args),
    /// BOJ 12100: the largest tile reachable in K moves (input on stdin).
    Maxtile(maxtile::Args),
    /// Play matches of adversarial 2048 (GPCC) between two players.
    Match(matchplay::Args),
    /// Play adversarial 2048 (GPCC) over the line protocol on stdin/stdout.
    GpccPlayer(gpcc_player::Args),
    /// Referee matches of adversarial 2048 between two programs over the line protocol.
    GpccReferee(gpcc_referee::Args),
    /// One alpha-beta decision of adversarial 2048, with its node and evaluation counts.
    GpccSearch(gpcc_search::Args),
    /// Count the leaves of a game tree (classic or adversarial) to check the rules.
    Perft(perft::Args),
    /// The place-a-2 puzzle: find a game that reaches a tile, or check one.
    Place(place::Args),
    /// Measure engine and search speed.
    Bench(bench::Args),
    /// Write weights in a format other solvers read.
    Export(export::Args),
    /// Draw charts of run folders or of an `eval --csv` file.
    Plot(plot::Args),
    /// Write a run's story as one self-contained HTML page (several runs: overlaid).
    Report(report::Args),
}

/// Runs a parsed command line. The commands that play batches of games run
/// on every process of an MPI job when an MPI launcher started this one
/// (feature `mpi`; see [`workers`]).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    use workers::with_workers;
    match cli.command {
        Command::Tune(args) => with_workers(args.threads, |w| tune::run(args, w)),
        Command::Resume(args) => with_workers(args.threads, |w| tune::resume(args, w)),
        Command::Learn(args) => learn::run(args),
        Command::Pack(args) => pack::run(args),
        Command::Blend(args) => blend::run(args),
        Command::Eval(args) => with_workers(args.batch.threads, |w| eval::run(args, w)),
        Command::Compare(args) => with_workers(args.batch.threads, |w| compare::run(args, w)),
        Command::Bank(args) => bank::run(args),
        Command::Play(args) => play::run(args),
        Command::Player(args) => player::run(args),
        Command::Interact(args) => interact::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Maxtile(args) => maxtile::run(args),
        Command::Match(args) => matchplay::run(args),
        Command::GpccPlayer(args) => gpcc_player::run(args),
        Command::GpccReferee(args) => gpcc_referee::run(args),
        Command::GpccSearch(args) => gpcc_search::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Place(args) => place::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Export(args) => export::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Report(args) => report::run(args),
    }
}

/// An error caused by the user's input (exit code 2), as opposed to a
/// failure of the program or the machine (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// A message about bad input, as an [`InputError`]. Errors with sources of
/// their own (config and weights files) are passed on as they are, so their
/// whole chain reaches the user; [`exit_code`] knows them.
pub fn input_error(err: impl std::fmt::Display) -> anyhow::Error {
    anyhow::Error::new(InputError(err.to_string()))
}

/// Whether `e` is an external player's failure inside an evaluation or a
/// tuning run (those wrap it transparently, so it is not in the chain).
fn is_player_failure(e: &(dyn std::error::Error + 'static)) -> bool {
    use tune2048::evaluation::EvaluationError;
    let player = |e: &EvaluationError| matches!(e, EvaluationError::Player(_));
    e.downcast_ref::<EvaluationError>().is_some_and(player)
        || e.downcast_ref::<tune2048::tune::TuneError>()
            .is_some_and(|t| matches!(t, tune2048::tune::TuneError::Evaluation(ev) if player(ev)))
}

/// The exit code for an error: 2 when any cause is bad input (a file, a
/// flag, a protocol line, a player program that failed), else 1.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    let bad_input = err.chain().any(|e| {
        e.is::<InputError>()
            || e.is::<tune2048::loader::LoadError>()
            || e.is::<tune2048::tune::config::ConfigError>()
            || e.is::<tune2048::bank::BankError>()
            || e.is::<tune2048::player::PlayerError>()
            || e.is::<Box<tune2048::player::PlayerError>>()
            || is_player_failure(e)
            || e.downcast_ref::<tune2048::lock::LockError>()
                .is_some_and(|l| matches!(l, tune2048::lock::LockError::Held { .. }))
            || e.downcast_ref::<tune2048::network::NetworkError>()
                .is_some_and(|n| !matches!(n, tune2048::network::NetworkError::Read { .. }))
            || e.downcast_ref::<tune2048::network::FolderError>()
                .is_some_and(tune2048::network::FolderError::is_bad_input)
            || e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::InvalidData)
    });
    if bad_input {
        2
    } else {
        1
    }
}
