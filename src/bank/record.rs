//! Filling a bank: games played with one weight set, each watched move by
//! move, saving the positions that reach the named stages.

use std::fmt;
use std::str::FromStr;

use super::{Bank, Position};
use crate::engine::{rank_of, Board, Direction, Start};
use crate::evaluation::LocalEvaluator;
use crate::heuristic::Evaluate;
use crate::selfplay::{play_one_observed, GameSpec};

/// When a game's position is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The first board of the game holding this tile (a power of two, 4..=32768).
    Tile(u32),
    /// After every this many moves (positive).
    Every(u32),
}

impl fmt::Display for Stage {
    /// The stage's name in bank files and configs: `8192`, `every:50`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Tile(t) => write!(f, "{t}"),
            Stage::Every(k) => write!(f, "every:{k}"),
        }
    }
}

impl FromStr for Stage {
    type Err = String;

    fn from_str(text: &str) -> Result<Stage, String> {
        if let Some(k) = text.strip_prefix("every:") {
            return match k.parse::<u32>() {
                Ok(k) if k > 0 => Ok(Stage::Every(k)),
                _ => Err(format!("`{text}`: every:K needs a positive K")),
            };
        }
        match text.parse::<u32>() {
            Ok(t) if t >= 4 && rank_of(t).is_some() => Ok(Stage::Tile(t)),
            _ => Err(format!(
                "`{text}` is not a stage: a tile (a power of two, 4..=32768) or every:K"
            )),
        }
    }
}

/// Watches one game and keeps the positions that reach `stages`.
struct Recorder<'a> {
    stages: &'a [Stage],
    seed: u64,
    score: u64,
    moves: u32,
    /// Per stage: a tile stage was saved already.
    done: Vec<bool>,
    saved: Vec<Position>,
}

impl<'a> Recorder<'a> {
    fn new(stages: &'a [Stage], seed: u64) -> Recorder<'a> {
        Recorder {
            stages,
            seed,
            score: 0,
            moves: 0,
            done: vec![false; stages.len()],
            saved: Vec::new(),
        }
    }

    /// The player moves `dir` on `board`.
    fn observe(&mut self, board: Board, dir: Direction) {
        let start = Start {
            board,
            score: self.score,
            moves: self.moves,
        };
        for (i, stage) in self.stages.iter().enumerate() {
            let due = match *stage {
                Stage::Tile(t) => !self.done[i] && board.max_rank() >= rank_of(t).unwrap_or(16),
                Stage::Every(k) => self.moves > 0 && self.moves.is_multiple_of(k),
            };
            if due {
                self.done[i] = true;
                self.saved.push(Position {
                    stage: stage.to_string(),
                    start,
                    seed: self.seed,
                });
            }
        }
        let moved = board.make_move(dir).expect("observed moves are legal");
        self.score += u64::from(moved.score);
        self.moves += 1;
    }
}

/// Plays one game per seed with `evaluation` (a heuristic or a network)
/// scoring the search's leaves under `spec`, and saves each game's
/// positions at `stages`: game by game in seed order, and within a game in
/// the order they were reached. The same on any number of threads.
pub fn record(
    evaluator: &LocalEvaluator,
    spec: &GameSpec,
    evaluation: &impl Evaluate,
    seeds: &[u64],
    stages: &[Stage],
    on_game: &(dyn Fn() + Sync),
) -> Bank {
    let games = evaluator.map(seeds, |&seed| {
        let mut recorder = Recorder::new(stages, seed);
        play_one_observed(spec, evaluation, seed, |b, d| recorder.observe(b, d));
        on_game();
        recorder.saved
    });
    Bank {
        positions: games.into_iter().flatten().collect(),
        made: super::Made::default(),
    }
}
