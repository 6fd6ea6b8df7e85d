//! Long runs of games (`eval`, `compare`): every player on the same seeds,
//! played chunk by chunk ([`CHUNK_GAMES`]) through an [`Evaluator`], folded
//! into running tallies and, if asked, written to a per-game CSV file
//! ([`GameCsv`]) as the games finish. Memory does not grow with the number
//! of games, and neither the summaries nor the files depend on the thread
//! count. A run that stopped is picked up from its files ([`Files::resume`]).

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::game_csv::{GameCsv, GameCsvError};
use super::{time_shares, Batch, EvaluationError, Evaluator};
use crate::engine::Start;
use crate::player::Player;
use crate::seeds::game_seed;
use crate::selfplay::{GameResult, GameSpec};
use crate::stats::{GameStat, Summary, Tally};

pub use super::game_csv::CSV_COLUMNS;

/// Rows written in order reach their files at least this often.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// Games are played in chunks of this many seeds; each chunk's results are
/// folded into the tallies before the next chunk starts. Memory does not
/// grow with the number of games (a chunk's results are about 100 bytes a
/// game and player), and neither the summaries nor the files depend on the
/// thread count. Threads idle only at a chunk's end, while its last games
/// finish.
pub const CHUNK_GAMES: u32 = 4096;

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

/// The per-game CSV files of a run, one per player.
pub struct Files<'a> {
    pub paths: &'a [PathBuf],
    /// What the games are (players, search, seed, starts) in one line: a
    /// stopped run's files are picked up only by a run of the same games.
    pub identity: &'a str,
    /// Pick up the files of a stopped run of these games: their games are
    /// kept and the rest played.
    pub resume: bool,
}

/// Each player's summary of all its games (`all`), with the rates of the
/// games played in the `elapsed_s` seconds just past (`now`: all, less a
/// resumed run's games).
fn summaries(all: &[Tally], now: &[Tally], elapsed_s: f64) -> Vec<Summary> {
    let moves: Vec<f64> = now.iter().map(|t| t.moves() as f64).collect();
    let shares = time_shares(elapsed_s, &moves);
    (all.iter().zip(now.iter().zip(shares)))
        .map(|(all, (now, elapsed))| {
            let rates = now.summary(elapsed);
            Summary {
                moves_per_s: rates.moves_per_s,
                games_per_s: rates.games_per_s,
                ..all.summary(elapsed)
            }
        })
        .collect()
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A game could not be played; `kept` games from the run's first have
    /// their rows in every CSV file's partial file, for `--resume`.
    #[error("{source}")]
    Evaluation {
        #[source]
        source: EvaluationError,
        kept: u32,
    },
    /// A CSV file could not be written or picked up.
    #[error(transparent)]
    Csv(#[from] GameCsvError),
}

impl Run<'_> {
    /// Plays the run's games chunk by chunk on `evaluator`, writing a row
    /// per game to `files` (if any) as the games finish. `on_game` is called
    /// once per finished game, from any thread; `on_resumed` sees what the
    /// rows of a resumed run's games say (`[player][game]`), once, before
    /// any game is played; `on_chunk` sees every chunk's results
    /// (`[player][game]`) in game order. Returns each player's summary over
    /// all the run's games, its rates over the games played now.
    pub fn play(
        &self,
        evaluator: &dyn Evaluator,
        files: Option<Files>,
        on_game: &(dyn Fn() + Sync),
        on_resumed: impl FnOnce(&[Vec<GameStat>]),
        mut on_chunk: impl FnMut(&[Vec<GameResult>]),
    ) -> Result<Vec<Summary>, RunError> {
        let (files, resumed) = match files {
            Some(files) => self.open(&files)?,
            None => (Vec::new(), Vec::new()),
        };
        let mut tallies: Vec<Tally> = self.players.iter().map(|_| Tally::default()).collect();
        let mut now: Vec<Tally> = tallies.clone();
        let kept = resumed.first().map_or(0, Vec::len) as u32;
        if kept > 0 {
            for (tally, stats) in tallies.iter_mut().zip(&resumed) {
                stats.iter().for_each(|s| tally.add(s));
            }
            on_resumed(&resumed);
        }
        let files = Mutex::new(files);
        let failed: Mutex<Option<GameCsvError>> = Mutex::new(None);
        let start = Instant::now();
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // Rows in order reach the files within a second, however long
            // the next game takes.
            let flusher = scope.spawn(|| {
                while !done.load(Ordering::Acquire) {
                    std::thread::park_timeout(FLUSH_EVERY);
                    for file in files.lock().expect("no thread panicked").iter_mut() {
                        if let Err(e) = file.flush() {
                            failed.lock().expect("no thread panicked").get_or_insert(e);
                        }
                    }
                }
            });
            let played = self.play_chunks(
                evaluator,
                kept,
                &files,
                &failed,
                on_game,
                &mut |games: &[Vec<GameResult>]| {
                    for (w, games) in games.iter().enumerate() {
                        for r in games {
                            let stat = GameStat {
                                score: r.record.score,
                                max_tile: r.record.max_tile,
                                moves: r.record.moves,
                            };
                            tallies[w].add(&stat);
                            now[w].add(&stat);
                        }
                    }
                    on_chunk(games);
                },
            );
            done.store(true, Ordering::Release);
            flusher.thread().unpark();
            played
        })?;
        for file in files.into_inner().expect("no thread panicked") {
            file.finish()?;
        }
        Ok(summaries(&tallies, &now, start.elapsed().as_secs_f64()))
    }

    /// Plays the games from `kept` games past the run's first, chunk by
    /// chunk, each finished game's row pushed to its player's file. A write
    /// that failed (`failed`) stops the run at its chunk's end.
    fn play_chunks(
        &self,
        evaluator: &dyn Evaluator,
        kept: u32,
        files: &Mutex<Vec<GameCsv>>,
        failed: &Mutex<Option<GameCsvError>>,
        on_game: &(dyn Fn() + Sync),
        on_chunk: &mut dyn FnMut(&[Vec<GameResult>]),
    ) -> Result<(), RunError> {
        for first in (self.games.start + kept..self.games.end).step_by(CHUNK_GAMES as usize) {
            let last = first.saturating_add(CHUNK_GAMES).min(self.games.end);
            let per_player = (last - first) as usize;
            let results = evaluator.evaluate(&self.chunk(first..last), &|job, result| {
                on_game();
                let mut files = files.lock().expect("no thread panicked");
                if let Some(file) = files.get_mut(job / per_player) {
                    let game = first + (job % per_player) as u32;
                    if let Err(e) = file.push(game, result) {
                        failed.lock().expect("no thread panicked").get_or_insert(e);
                    }
                }
            });
            let mut files = files.lock().expect("no thread panicked");
            let results = match results {
                Ok(results) => results,
                Err(source) => {
                    // Best effort: the error that matters is the game's.
                    let flushed = files.iter_mut().all(|f| f.flush().is_ok());
                    let kept = (files.iter().map(GameCsv::next_game).min())
                        .filter(|_| flushed)
                        .map_or(0, |next| next - self.games.start);
                    return Err(RunError::Evaluation { source, kept });
                }
            };
            if let Some(e) = failed.lock().expect("no thread panicked").take() {
                return Err(e.into());
            }
            for file in files.iter_mut() {
                file.flush()?;
            }
            drop(files);
            on_chunk(&results.games);
        }
        Ok(())
    }

    /// Starts the run's files, or picks up those of a stopped run: every
    /// file goes on from the first game some file lacks. Returns them and
    /// what their rows say.
    fn open(&self, files: &Files) -> Result<(Vec<GameCsv>, Vec<Vec<GameStat>>), RunError> {
        assert_eq!(files.paths.len(), self.players.len());
        let first = self.games.start;
        if !files.resume {
            let created = (files.paths.iter())
                .map(|path| GameCsv::create(path, files.identity, first))
                .collect::<Result<_, _>>()?;
            return Ok((created, Vec::new()));
        }
        let seed_of = |game: u32| game_seed(self.seed, game.into());
        let (mut csvs, mut stats): (Vec<GameCsv>, Vec<Vec<GameStat>>) = (files.paths.iter())
            .map(|path| GameCsv::resume(path, files.identity, first, seed_of))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .unzip();
        let kept = stats.iter().map(Vec::len).min().unwrap_or(0);
        let wanted = self.games.len();
        if kept > wanted {
            return Err(GameCsvError::Refused {
                path: super::game_csv::partial_path(&files.paths[0]),
                line: None,
                problem: format!(
                    "holds {kept} games from game {first}, more than the {wanted} asked for \
                     (--games): ask for {kept} or more to go on with them"
                ),
            }
            .into());
        }
        for (csv, stats) in csvs.iter_mut().zip(&mut stats) {
            csv.keep(kept)?;
            stats.truncate(kept);
        }
        Ok((csvs, stats))
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
