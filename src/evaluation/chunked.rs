//! Long runs of games (`eval`, `compare`): every player on the same seeds,
//! played chunk by chunk ([`CHUNK_GAMES`]) through an [`Evaluator`], folded
//! into running tallies and, if asked, written to a per-game CSV file
//! ([`GameCsv`]) as each chunk ends. Memory does not grow with the number
//! of games, and neither the summaries nor the files depend on the thread
//! count.

use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

use super::{time_shares, Batch, EvaluationError, Evaluator};
use crate::atomic_file::Streamed;
use crate::engine::Start;
use crate::player::Player;
use crate::seeds::game_seed;
use crate::selfplay::{GameResult, GameSpec};
use crate::stats::{GameStat, Summary, Tally};

/// Games are played in chunks of this many seeds; each chunk's results are
/// folded into the tallies and written to the CSV files, in game order,
/// before the next chunk starts. Memory does not grow with the number of
/// games (a chunk's results are about 100 bytes a game and player), and
/// neither the summaries nor the files depend on the thread count. Threads
/// idle only at a chunk's end, while its last games finish.
pub const CHUNK_GAMES: u32 = 4096;

/// The columns of a per-game CSV file, its first line.
pub const CSV_COLUMNS: [&str; 6] = ["game", "seed", "score", "max_tile", "moves", "outcome"];

/// A run of games: every player plays the same games.
#[derive(Clone)]
pub struct Run<'a> {
    pub spec: GameSpec,
    pub players: &'a [Player],
    /// The run's seed: game `i` plays seed [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// The games' indices (a sample grows, or splits across machines,
    /// without repeating a game).
    pub games: Range<u32>,
    /// The position a game starts from, given its seed (a bank's position
    /// drawn by the seed, as `bank::pick` draws them); `None`: the
    /// variant's empty board.
    pub start_of: Option<&'a dyn Fn(u64) -> Start>,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Evaluation(#[from] EvaluationError),
    /// A CSV file could not be written.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

impl Run<'_> {
    /// Plays the run's games chunk by chunk on `evaluator`. `csv` is empty
    /// or names one file per player, which gets a row per game as the games
    /// finish. `on_game` is called once per finished game, from any thread;
    /// `on_chunk` sees every chunk's results (`[player][game]`) in game
    /// order. Returns each player's summary.
    pub fn play(
        &self,
        evaluator: &dyn Evaluator,
        csv: &[PathBuf],
        on_game: &(dyn Fn() + Sync),
        mut on_chunk: impl FnMut(&[Vec<GameResult>]),
    ) -> Result<Vec<Summary>, RunError> {
        assert!(csv.is_empty() || csv.len() == self.players.len());
        let mut files = csv
            .iter()
            .map(|path| GameCsv::create(path))
            .collect::<std::io::Result<Vec<_>>>()?;
        let mut tallies: Vec<Tally> = self.players.iter().map(|_| Tally::default()).collect();
        let start = Instant::now();
        for first in self.games.clone().step_by(CHUNK_GAMES as usize) {
            let last = first.saturating_add(CHUNK_GAMES).min(self.games.end);
            let results = evaluator.evaluate(&self.chunk(first..last), &|_| on_game())?;
            for (w, games) in results.games.iter().enumerate() {
                for r in games {
                    tallies[w].add(&GameStat {
                        score: r.record.score,
                        max_tile: r.record.max_tile,
                        moves: r.record.moves,
                    });
                }
                if let Some(file) = files.get_mut(w) {
                    file.append(first, games)?;
                }
            }
            on_chunk(&results.games);
        }
        let moves: Vec<f64> = tallies.iter().map(|t| t.moves() as f64).collect();
        let shares = time_shares(start.elapsed().as_secs_f64(), &moves);
        for file in files {
            file.finish()?;
        }
        Ok(tallies
            .iter()
            .zip(shares)
            .map(|(tally, elapsed)| tally.summary(elapsed))
            .collect())
    }

    /// The batch of games `games`, from their starts if the run has any.
    fn chunk(&self, games: Range<u32>) -> Batch {
        let mut batch = Batch::new(
            self.spec,
            self.players.to_vec(),
            games.map(|i| game_seed(self.seed, i.into())).collect(),
        );
        if let Some(start_of) = self.start_of {
            batch.starts = batch.seeds.iter().map(|&s| start_of(s)).collect();
        }
        batch
    }
}

/// A per-game CSV file being written: [`CSV_COLUMNS`], then one row per
/// game, numbered by its index in the run. Written through a temporary
/// name ([`Streamed`]): a run that stops leaves no half-written file.
pub struct GameCsv {
    file: Streamed,
}

impl GameCsv {
    /// Starts the file at `path` with its column line.
    pub fn create(path: &std::path::Path) -> std::io::Result<GameCsv> {
        let mut file = Streamed::create(path)?;
        file.write_all(&csv_bytes(|w| w.write_record(CSV_COLUMNS)))?;
        Ok(GameCsv { file })
    }

    /// Appends one row per game of `results`, numbered from `first`.
    pub fn append(&mut self, first: u32, results: &[GameResult]) -> std::io::Result<()> {
        let rows = csv_bytes(|w| {
            for (i, r) in (u64::from(first)..).zip(results) {
                let rec = &r.record;
                w.serialize((
                    i,
                    r.seed,
                    rec.score,
                    rec.max_tile,
                    rec.moves,
                    rec.outcome.name(),
                ))?;
            }
            Ok(())
        });
        self.file.write_all(&rows)
    }

    /// Syncs the file and renames it to its path.
    pub fn finish(self) -> std::io::Result<()> {
        self.file.finish()
    }
}

/// The CSV text `write` writes (with no header line of its own).
fn csv_bytes(write: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    write(&mut writer).expect("numbers and names write to memory");
    writer.into_inner().expect("memory takes every byte")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Board, GameRecord, Outcome};
    use crate::search::SearchStats;

    fn result(seed: u64, score: u64, outcome: Outcome) -> GameResult {
        GameResult {
            seed,
            start: None,
            record: GameRecord {
                moves: 1000,
                score,
                max_tile: 2048,
                fours: 0,
                outcome,
                board: Board::default(),
            },
            stats: SearchStats::default(),
        }
    }

    #[test]
    fn csv_rows_are_numbered_from_the_first_game() {
        let dir = std::env::temp_dir().join(format!("tune2048-gamecsv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.csv");
        let mut csv = GameCsv::create(&path).unwrap();
        csv.append(16, &[result(7, 20000, Outcome::GameOver)])
            .unwrap();
        csv.append(17, &[result(9, 31000, Outcome::MoveLimit)])
            .unwrap();
        csv.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "game,seed,score,max_tile,moves,outcome\n\
             16,7,20000,2048,1000,game_over\n\
             17,9,31000,2048,1000,move_limit\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
