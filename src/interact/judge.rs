//! A local BOJ 28489 judge: it runs a player program (a [`Child`]) for each
//! game, places 2s on uniformly random empty cells drawn from the game's
//! seed, reads the answers, rejects illegal or malformed ones, and gives each
//! game's largest tile, moves and time. A player that is silent past the
//! game's time limit loses the game at the limit and is killed; so does one
//! that dies or writes garbage. The verdicts' CSV is written here too.

use std::path::Path;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::protocol::legal_answer;
use crate::atomic_file;
use crate::child::{Child, ChildError, Deadline, Stderr};
use crate::engine::spawn::random_empty_cell;
use crate::engine::{value_of, Board};
use crate::seeds::game_seed;

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

/// What to judge: a player command, how many games, from which seed, and
/// the time limit of a whole game.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeOptions {
    /// The program and its arguments.
    pub command: Vec<String>,
    pub games: u32,
    /// Game i's placements come from `game_seed(seed, i)`.
    pub seed: u64,
    pub limit: Duration,
}

/// Why judging stopped.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The player program could not be started (bad input).
    #[error("cannot start `{program}`: {source}")]
    Start {
        program: String,
        source: std::io::Error,
    },
    /// The CSV could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Csv {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// Judges `options.games` games, each against a fresh copy of the player,
/// calling `each` with every game's number and verdict as it ends.
pub fn judge_games(
    options: &JudgeOptions,
    mut each: impl FnMut(u32, &JudgedGame),
) -> Result<Vec<JudgedGame>, JudgeError> {
    let mut verdicts = Vec::new();
    for game in 0..options.games {
        let mut child = Child::spawn(&options.command, Stderr::Inherit).map_err(|source| {
            JudgeError::Start {
                program: options.command.first().cloned().unwrap_or_default(),
                source,
            }
        })?;
        let deadline = Deadline::after(options.limit);
        let v = judge_game(game_seed(options.seed, game.into()), &mut child, deadline);
        // A game the judge ended lets the program exit by itself; one it
        // failed stops it at once.
        child.stop(if v.error.is_none() {
            EXIT_GRACE
        } else {
            Duration::ZERO
        });
        each(game, &v);
        verdicts.push(v);
    }
    Ok(verdicts)
}

/// The verdicts taken together.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeSummary {
    pub games: usize,
    pub failed: usize,
    pub mean_max_tile: f64,
    pub slowest: Duration,
}

impl JudgeSummary {
    pub fn of(verdicts: &[JudgedGame]) -> JudgeSummary {
        let mean = verdicts.iter().map(|v| f64::from(v.max_tile)).sum::<f64>();
        JudgeSummary {
            games: verdicts.len(),
            failed: verdicts.iter().filter(|v| v.error.is_some()).count(),
            mean_max_tile: mean / verdicts.len() as f64,
            slowest: verdicts.iter().map(|v| v.elapsed).max().unwrap_or_default(),
        }
    }

    /// BOJ 28489 accepts a player with no failed game and an average
    /// largest tile of at least 2048.
    pub fn accepted(&self) -> bool {
        self.failed == 0 && self.mean_max_tile >= 2048.0
    }
}

/// The CSV's columns.
const CSV_HEADER: [&str; 6] = ["game", "seed", "max_tile", "moves", "seconds", "error"];

/// The verdicts as CSV, one row per game (game i played seed
/// `game_seed(base, i)`, as `eval --csv` writes seeds, so two players' files
/// pair by game). Commas, quotes and line ends in an error become spaces, so
/// no field is ever quoted.
pub fn csv_text(base: u64, verdicts: &[JudgedGame]) -> Vec<u8> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    let written = csv.write_record(CSV_HEADER).and_then(|()| {
        verdicts.iter().enumerate().try_for_each(|(game, v)| {
            let error = v.error.as_deref().unwrap_or("");
            csv.write_record([
                game.to_string(),
                game_seed(base, game as u64).to_string(),
                v.max_tile.to_string(),
                v.moves.to_string(),
                format!("{:.3}", v.elapsed.as_secs_f64()),
                error.replace([',', '\n', '\r', '"'], " "),
            ])
        })
    });
    written
        .map_err(std::io::Error::from)
        .and_then(|()| csv.into_inner().map_err(|e| e.into_error()))
        .expect("writing to memory cannot fail")
}

/// Writes [`csv_text`] whole through a temporary name.
pub fn write_csv(path: &Path, base: u64, verdicts: &[JudgedGame]) -> Result<(), JudgeError> {
    atomic_file::write(path, &csv_text(base, verdicts)).map_err(|source| JudgeError::Csv {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_is_the_one_written_by_hand_before() {
        let game = |max_tile, moves, ms, error: Option<&str>| JudgedGame {
            max_tile,
            moves,
            elapsed: Duration::from_millis(ms),
            error: error.map(String::from),
        };
        let verdicts = [
            game(16384, 16385, 10_861, None),
            game(2048, 900, 15_000, Some("answer 3: `a,\"b\"\nc` is not UP")),
        ];
        let mut want = String::from("game,seed,max_tile,moves,seconds,error\n");
        for (i, v) in verdicts.iter().enumerate() {
            let seed = game_seed(3, i as u64);
            let error = v
                .error
                .as_deref()
                .unwrap_or("")
                .replace([',', '\n', '"'], " ");
            let secs = v.elapsed.as_secs_f64();
            want += &format!("{i},{seed},{},{},{secs:.3},{error}\n", v.max_tile, v.moves);
        }
        let text = String::from_utf8(csv_text(3, &verdicts)).unwrap();
        assert_eq!(text, want);
        assert!(text.ends_with(",answer 3: `a  b  c` is not UP\n"), "{text}");
    }

    /// Every judge CSV shipped under runs/curated/ reads back into verdicts
    /// that write the same bytes.
    #[test]
    fn the_curated_judge_csvs_write_back_byte_for_byte() {
        let mut files = Vec::new();
        let mut folders = vec![std::path::PathBuf::from("runs/curated")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                if path.is_dir() {
                    folders.push(path);
                } else if name.starts_with("judge") && name.ends_with(".csv") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() >= 5, "{files:?}");
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut base = None;
            let verdicts: Vec<JudgedGame> = text
                .lines()
                .skip(1)
                .map(|line| {
                    let f: Vec<&str> = line.split(',').collect();
                    assert_eq!(f.len(), 6, "{}: {line}", path.display());
                    let seed: u64 = f[1].parse().unwrap();
                    if f[0] == "0" {
                        // Seeds are hashed from the base: find it among the
                        // shipped bases by the first game's seed.
                        base = (0..100_000u64).find(|&b| game_seed(b, 0) == seed);
                    }
                    JudgedGame {
                        max_tile: f[2].parse().unwrap(),
                        moves: f[3].parse().unwrap(),
                        elapsed: Duration::from_secs_f64(f[4].parse().unwrap()),
                        error: (!f[5].is_empty()).then(|| f[5].to_string()),
                    }
                })
                .collect();
            let base = base.unwrap_or_else(|| panic!("{}: no base seed found", path.display()));
            let written = String::from_utf8(csv_text(base, &verdicts)).unwrap();
            assert_eq!(written, text, "{}", path.display());
        }
    }
}
