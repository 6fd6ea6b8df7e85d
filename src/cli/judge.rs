//! `tune2048 judge`: a local BOJ 28489 judge. It runs a player program (by
//! default `tune2048 interact`) as a subprocess for each game, places 2s on
//! uniformly random empty cells, reads the answers over a pipe, rejects
//! illegal or malformed ones, and reports each game's largest tile and time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::input_error;
use crate::engine::spawn::random_empty_cell;
use crate::engine::{value_of, Board, Direction};
use crate::seeds::game_seed;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to judge (the real judge plays 16).
    #[arg(long, default_value_t = 16)]
    pub games: u32,
    /// Base seed of the judge's placements.
    #[arg(long, default_value_t = 28489)]
    pub seed: u64,
    /// Time limit per game in seconds (the real judge's is 15).
    #[arg(long, default_value_t = 15.0)]
    pub time_limit: f64,
    /// The player command and its arguments (default: this program's `interact`).
    #[arg(last = true)]
    pub command: Vec<String>,
}

/// How one judged game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub max_tile: u32,
    pub moves: u32,
    pub elapsed: Duration,
    /// `None` when the game ended normally (no legal move left).
    pub error: Option<String>,
}

/// Judges one game against a running player.
pub fn judge_game(
    seed: u64,
    mut to_player: impl Write,
    from_player: impl BufRead,
    limit: Duration,
) -> Verdict {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut board = Board::EMPTY;
    let mut lines = from_player.lines();
    let start = Instant::now();
    let mut moves = 0;
    let verdict = |board: Board, moves, error: Option<String>| Verdict {
        max_tile: value_of(board.max_rank()),
        moves,
        elapsed: start.elapsed(),
        error,
    };
    loop {
        let Some(cell) = random_empty_cell(board, &mut rng) else {
            return verdict(
                board,
                moves,
                Some("no empty cell after a legal move (judge bug)".into()),
            );
        };
        board = board.place(cell, 1).expect("the cell is empty");
        if !board.has_move() {
            let _ = writeln!(to_player, "-1").and_then(|_| to_player.flush());
            return verdict(board, moves, None);
        }
        if writeln!(to_player, "{}", cell + 1)
            .and_then(|_| to_player.flush())
            .is_err()
        {
            return verdict(board, moves, Some("the player closed its input".into()));
        }
        let answer = match lines.next() {
            Some(Ok(line)) => line,
            _ => {
                return verdict(
                    board,
                    moves,
                    Some("the player ended without answering".into()),
                )
            }
        };
        if start.elapsed() > limit {
            return verdict(
                board,
                moves,
                Some(format!("time limit exceeded after {moves} moves")),
            );
        }
        let Some(dir) = Direction::parse(answer.trim()).filter(|_| answer.trim().len() > 1) else {
            return verdict(
                board,
                moves,
                Some(format!(
                    "answer {}: `{answer}` is not UP, DOWN, LEFT or RIGHT",
                    moves + 1
                )),
            );
        };
        match board.make_move(dir) {
            Some(m) => board = m.board,
            None => {
                return verdict(
                    board,
                    moves,
                    Some(format!("answer {}: {dir} is illegal here", moves + 1)),
                )
            }
        }
        moves += 1;
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 || args.time_limit.is_nan() || args.time_limit <= 0.0 {
        return Err(input_error("--games and --time-limit must be positive"));
    }
    let (program, rest) = match args.command.split_first() {
        Some((p, rest)) => (p.clone(), rest.to_vec()),
        None => (
            std::env::current_exe()?.display().to_string(),
            vec!["interact".to_string()],
        ),
    };
    let limit = Duration::from_secs_f64(args.time_limit);
    let mut verdicts = Vec::new();
    for game in 0..args.games {
        let mut child = Command::new(&program)
            .args(&rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| input_error(format!("cannot start `{program}`: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let v = judge_game(game_seed(args.seed, game.into()), stdin, stdout, limit);
        let _ = child.kill();
        let _ = child.wait();
        println!(
            "game {:>2}: max tile {:>5}  {:>5} moves  {:>6.2} s{}",
            game + 1,
            v.max_tile,
            v.moves,
            v.elapsed.as_secs_f64(),
            v.error
                .as_ref()
                .map_or(String::new(), |e| format!("  FAILED: {e}"))
        );
        verdicts.push(v);
    }
    let failed = verdicts.iter().filter(|v| v.error.is_some()).count();
    let mean = verdicts.iter().map(|v| f64::from(v.max_tile)).sum::<f64>() / verdicts.len() as f64;
    let slowest = verdicts.iter().map(|v| v.elapsed).max().unwrap_or_default();
    println!(
        "average max tile {mean:.0} over {} games; slowest game {:.2} s; {failed} failed; verdict: {}",
        verdicts.len(),
        slowest.as_secs_f64(),
        if failed == 0 && mean >= 2048.0 { "ACCEPTED (average >= 2048)" } else { "REJECTED" }
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
