//! `tune2048 judge`: a local BOJ 28489 judge. It runs a player program (by
//! default `tune2048 interact`) as a subprocess for each game, places 2s on
//! uniformly random empty cells, reads the answers over a pipe, rejects
//! illegal or malformed ones, and reports each game's largest tile and time.
//! A player that is silent past the game's time limit loses the game at the
//! limit and is killed; so does one that dies or writes garbage.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::input_error;
use crate::atomic_file;
use crate::child::{time_limit, Child, ChildError, Deadline, Stderr};
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
    /// Write one row per game: game,seed,max_tile,moves,seconds,error (seeds
    /// as `eval --csv` writes them, so two players' files pair by game).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// The player command and its arguments (default: this program's `interact`).
    #[arg(last = true)]
    pub command: Vec<String>,
}

/// How one judged game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedGame {
    pub max_tile: u32,
    pub moves: u32,
    pub elapsed: Duration,
    /// `None` when the game ended normally (no legal move left).
    pub error: Option<String>,
}

/// How long a program may take to exit after the judge's `-1`.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Judges one game against a running player, who must finish by `deadline`.
pub fn judge_game(seed: u64, player: &mut Child, deadline: Deadline) -> JudgedGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut board = Board::EMPTY;
    let start = Instant::now();
    let mut moves = 0;
    let verdict = |board: Board, moves, error: Option<String>| JudgedGame {
        max_tile: value_of(board.max_rank()),
        moves,
        elapsed: start.elapsed(),
        error,
    };
    loop {
        let Some(cell) = random_empty_cell(board, &mut rng) else {
            let bug = "no empty cell after a legal move (judge bug)";
            return verdict(board, moves, Some(bug.into()));
        };
        board = board.place(cell, 1).expect("the cell is empty");
        if !board.has_move() {
            // The game is over whether or not the program reads this.
            let _ = player.send("-1\n", deadline);
            return verdict(board, moves, None);
        }
        let answer = player
            .send(&format!("{}\n", cell + 1), deadline)
            .and_then(|()| player.receive(deadline))
            .map_err(|e| match e {
                ChildError::TimedOut(_) | ChildError::WriteTimedOut(_) => {
                    format!("time limit exceeded after {moves} moves")
                }
                e => format!("answer {}: {}", moves + 1, e.unanswered()),
            });
        match answer.and_then(|a| legal_answer(board, &a, moves + 1)) {
            Ok(next) => board = next,
            Err(error) => return verdict(board, moves, Some(error)),
        }
        moves += 1;
    }
}

/// The board after the player's answer number `number`, or why it is not
/// a legal one.
pub fn legal_answer(board: Board, answer: &str, number: u32) -> Result<Board, String> {
    let word = answer.trim();
    let Some(dir) = Direction::parse(word).filter(|_| word.len() > 1) else {
        let shown: String = word.chars().take(40).flat_map(char::escape_debug).collect();
        return Err(format!(
            "answer {number}: `{shown}` is not UP, DOWN, LEFT or RIGHT"
        ));
    };
    match board.make_move(dir) {
        Some(m) => Ok(m.board),
        None => Err(format!("answer {number}: {dir} is illegal here")),
    }
}

/// One row per judged game (game i played seed `game_seed(base, i)`),
/// written whole through a temporary name.
fn write_csv(path: &Path, base: u64, verdicts: &[JudgedGame]) -> anyhow::Result<()> {
    let mut text = String::from("game,seed,max_tile,moves,seconds,error\n");
    for (game, v) in verdicts.iter().enumerate() {
        let seed = game_seed(base, game as u64);
        let error = v
            .error
            .as_deref()
            .unwrap_or("")
            .replace([',', '\n', '"'], " ");
        let seconds = v.elapsed.as_secs_f64();
        writeln!(
            text,
            "{game},{seed},{},{},{seconds:.3},{error}",
            v.max_tile, v.moves
        )?;
    }
    atomic_file::write(path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limit = time_limit(args.time_limit).filter(|_| args.games > 0);
    let Some(limit) = limit else {
        return Err(input_error(
            "--games must be positive and --time-limit between 0 and 1e9 seconds",
        ));
    };
    let command = match args.command.is_empty() {
        false => args.command.clone(),
        true => vec![
            std::env::current_exe()?.display().to_string(),
            "interact".to_string(),
        ],
    };
    let mut verdicts = Vec::new();
    for game in 0..args.games {
        let mut child = Child::spawn(&command, Stderr::Inherit)
            .map_err(|e| input_error(format!("cannot start `{}`: {e}", command[0])))?;
        let deadline = Deadline::after(limit);
        let v = judge_game(game_seed(args.seed, game.into()), &mut child, deadline);
        // A game the judge ended lets the program exit by itself; one it
        // failed stops it at once.
        child.stop(if v.error.is_none() {
            EXIT_GRACE
        } else {
            Duration::ZERO
        });
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
    if let Some(path) = &args.csv {
        write_csv(path, args.seed, &verdicts)?;
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
