//! Per-game CSV files of long runs (`eval --csv`, `compare --csv`): a row per
//! game, written in game order as the games finish, to `FILE.partial`, whose
//! columns and rows become `FILE` when the run ends (written through a
//! temporary file, synced and renamed over it). A run that stops (an
//! error, Ctrl-C, `kill -9`, a machine that goes away) leaves its finished
//! games in `FILE.partial`, less at most the last second of them (a run
//! flushes its files every second: [`super::chunked::Run::play`]); the same
//! games run again with `--resume` keep those and play the rest, and `FILE`
//! ends as an unbroken run's would.
//!
//! A partial file's first line names the games it holds (`# tune2048 games:`
//! and the run's identity: players, search, seed, starts), its second is
//! [`CSV_COLUMNS`], and the rows follow. Its writer holds an advisory lock on
//! it ([`File::try_lock`]), so a second run writing the same file is refused,
//! and a run that starts where one stopped is told to resume or start over,
//! never lets the stopped run's games be overwritten.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, BufRead, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::atomic_file::Streamed;
use crate::engine::Outcome;
use crate::selfplay::GameResult;
use crate::stats::GameStat;

/// The columns of a per-game CSV file, its first line.
pub const CSV_COLUMNS: [&str; 6] = ["game", "seed", "score", "max_tile", "moves", "outcome"];

/// How a partial file's first line starts; the run's identity follows.
const IDENTITY_PREFIX: &str = "# tune2048 games: ";

/// Where the rows of a run writing `path` go until it ends: `FILE.partial`.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Why a per-game file could not be written or picked up.
#[derive(Debug, thiserror::Error)]
pub enum GameCsvError {
    /// The file system refused.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// `FILE` itself could not be written (the message names it).
    #[error(transparent)]
    Final(io::Error),
    /// The file is not one this run may write or pick up (`line`: where it
    /// says so, counted from 1).
    #[error("{}{}: {problem}", path.display(), line.map_or_else(String::new, |l| format!(", line {l}")))]
    Refused {
        path: PathBuf,
        line: Option<usize>,
        problem: String,
    },
}

/// A per-game CSV file being written (see the module's documentation).
pub struct GameCsv {
    path: PathBuf,
    partial: PathBuf,
    out: BufWriter<File>,
    /// The game whose row comes next.
    next: u32,
    /// Rows of games that finished before `next`'s, by game.
    waiting: BTreeMap<u32, Vec<u8>>,
    /// Where the column line and then each row picked up by
    /// [`GameCsv::resume`] end, until [`GameCsv::keep`] has been called.
    ends: Vec<u64>,
}

impl GameCsv {
    /// Starts `FILE.partial` for the games of `identity` from game `first`.
    /// Refused if another run is writing it, or one that stopped left games
    /// in it (they are the user's to keep); one that stopped before its
    /// first game's row is taken over.
    pub fn create(path: &Path, identity: &str, first: u32) -> Result<GameCsv, GameCsvError> {
        let partial = partial_path(path);
        let io = |source| GameCsvError::Io {
            path: partial.clone(),
            source,
        };
        let file = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&partial)
        {
            Ok(file) => {
                lock(&file, &partial)?;
                file
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => take_over(&partial)?,
            Err(e) => return Err(io(e)),
        };
        let mut csv = GameCsv {
            path: path.to_path_buf(),
            partial: partial.clone(),
            out: BufWriter::new(file),
            next: first,
            waiting: BTreeMap::new(),
            ends: Vec::new(),
        };
        let head = format!("{IDENTITY_PREFIX}{identity}\n{}\n", CSV_COLUMNS.join(","));
        csv.out.write_all(head.as_bytes()).map_err(io)?;
        csv.out.flush().map_err(io)?;
        Ok(csv)
    }

    /// Picks up `FILE.partial`, left by a run of the games of `identity` from
    /// game `first` that stopped, to write on after its rows. Game `i`'s row
    /// must name the seed `seed_of(i)`. A last row cut short (the run
    /// stopped while writing it) is dropped. Returns the file and what its
    /// rows say, in game order.
    pub fn resume(
        path: &Path,
        identity: &str,
        first: u32,
        seed_of: impl Fn(u32) -> u64,
    ) -> Result<(GameCsv, Vec<GameStat>), GameCsvError> {
        let partial = partial_path(path);
        let io = |source| GameCsvError::Io {
            path: partial.clone(),
            source,
        };
        let mut file = match OpenOptions::new().read(true).write(true).open(&partial) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let problem = format!(
                    "--resume: there is no such file, so no stopped run of these games to pick up \
                     (a run that ends writes {} and removes it)",
                    path.display()
                );
                return Err(refused(&partial, None, &problem));
            }
            Err(e) => return Err(io(e)),
        };
        lock(&file, &partial)?;
        let mut text = Vec::new();
        file.read_to_end(&mut text).map_err(io)?;
        let (stats, ends) = read_partial(&partial, &text, identity, first, seed_of)?;
        let end = *ends.last().expect("the column line's end comes first");
        file.set_len(end).map_err(io)?;
        file.seek(SeekFrom::Start(end)).map_err(io)?;
        let csv = GameCsv {
            path: path.to_path_buf(),
            partial,
            out: BufWriter::new(file),
            next: first + stats.len() as u32,
            waiting: BTreeMap::new(),
            ends,
        };
        Ok((csv, stats))
    }

    /// Keeps the first `rows` rows [`GameCsv::resume`] picked up and drops
    /// the rest (their games are played again, to the same results), so
    /// that every player's file goes on from the same game.
    pub fn keep(&mut self, rows: usize) -> Result<(), GameCsvError> {
        let held = self.ends.len().saturating_sub(1);
        if rows < held {
            let end = self.ends[rows];
            let file = self.out.get_mut();
            file.set_len(end)
                .and_then(|()| file.seek(SeekFrom::Start(end)).map(|_| ()))
                .map_err(|source| GameCsvError::Io {
                    path: self.partial.clone(),
                    source,
                })?;
            self.next -= (held - rows) as u32;
        }
        self.ends = Vec::new();
        Ok(())
    }

    /// The game whose row comes next.
    pub fn next_game(&self) -> u32 {
        self.next
    }

    /// Takes game `game`'s result, in any order, and writes the rows that
    /// are now in order; they reach the file at the next [`GameCsv::flush`]
    /// (or sooner, when its buffer fills).
    pub fn push(&mut self, game: u32, result: &GameResult) -> Result<(), GameCsvError> {
        debug_assert!(game >= self.next && !self.waiting.contains_key(&game));
        self.waiting.insert(game, row(game, result));
        while let Some(row) = self.waiting.remove(&self.next) {
            self.out.write_all(&row).map_err(|e| self.io(e))?;
            self.next += 1;
        }
        Ok(())
    }

    /// Hands every row written so far to the file.
    pub fn flush(&mut self) -> Result<(), GameCsvError> {
        self.out.flush().map_err(|e| self.io(e))
    }

    /// Writes `FILE` (through a temporary file, synced and renamed over it)
    /// with the partial file's columns and rows, then removes the partial
    /// file. Every game pushed must have been written (none is waiting for
    /// an earlier one).
    pub fn finish(self) -> Result<(), GameCsvError> {
        assert!(
            self.waiting.is_empty(),
            "a game's row waits for one never played"
        );
        let io = |source| GameCsvError::Io {
            path: self.partial.clone(),
            source,
        };
        let mut rows = self.out.into_inner().map_err(|e| io(e.into_error()))?;
        rows.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut rows = io::BufReader::new(rows);
        let mut identity = Vec::new();
        rows.read_until(b'\n', &mut identity).map_err(io)?;
        let mut out = Streamed::create(&self.path).map_err(GameCsvError::Final)?;
        let mut chunk = vec![0; 1 << 16];
        loop {
            let n = rows.read(&mut chunk).map_err(io)?;
            if n == 0 {
                break;
            }
            out.write_all(&chunk[..n]).map_err(GameCsvError::Final)?;
        }
        out.finish().map_err(GameCsvError::Final)?;
        fs::remove_file(&self.partial).map_err(io)
    }

    fn io(&self, source: io::Error) -> GameCsvError {
        GameCsvError::Io {
            path: self.partial.clone(),
            source,
        }
    }
}

fn refused(path: &Path, line: Option<usize>, problem: &str) -> GameCsvError {
    GameCsvError::Refused {
        path: path.to_path_buf(),
        line,
        problem: problem.to_string(),
    }
}

/// The partial file `partial` of a run that stopped before it wrote a row
/// (nothing in it is lost), emptied and locked; refused if another run is
/// writing it or it holds a game.
fn take_over(partial: &Path) -> Result<File, GameCsvError> {
    let io = |source| GameCsvError::Io {
        path: partial.to_path_buf(),
        source,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(partial)
        .map_err(io)?;
    lock(&file, partial)?;
    let mut text = Vec::new();
    file.read_to_end(&mut text).map_err(io)?;
    if text.iter().filter(|&&b| b == b'\n').count() > 2 {
        return Err(refused(
            partial,
            None,
            "holds the games of a run that stopped: run the same games with --resume \
             to keep them and play the rest, or delete the file to start over",
        ));
    }
    file.set_len(0).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    Ok(file)
}

/// Takes `file`'s advisory lock, or says another run holds it.
fn lock(file: &File, path: &Path) -> Result<(), GameCsvError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(refused(path, None, "another run is writing it")),
        Err(TryLockError::Error(source)) => Err(GameCsvError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Game `game`'s row.
fn row(game: u32, r: &GameResult) -> Vec<u8> {
    let rec = &r.record;
    format!(
        "{game},{},{},{},{},{}\n",
        r.seed,
        rec.score,
        rec.max_tile,
        rec.moves,
        rec.outcome.name()
    )
    .into_bytes()
}

/// The rows of a partial file's bytes `text` (see [`GameCsv::resume`]), and
/// the offsets at which its column line and then each row end.
fn read_partial(
    path: &Path,
    text: &[u8],
    identity: &str,
    first: u32,
    seed_of: impl Fn(u32) -> u64,
) -> Result<(Vec<GameStat>, Vec<u64>), GameCsvError> {
    let bad = |line: usize, problem: String| refused(path, Some(line), &problem);
    // Only lines that end: a run stopped while writing one leaves it cut.
    let mut lines = Vec::new();
    let mut start = 0;
    while let Some(len) = text[start..].iter().position(|&b| b == b'\n') {
        let line = std::str::from_utf8(&text[start..start + len])
            .map_err(|_| bad(lines.len() + 1, "is not UTF-8 text".into()))?;
        lines.push((line, (start + len + 1) as u64));
        start += len + 1;
    }
    let Some(&(head, _)) = lines.first() else {
        return Err(bad(
            1,
            "is not there: the file is empty or cut in its first line".into(),
        ));
    };
    let theirs = head.strip_prefix(IDENTITY_PREFIX).ok_or_else(|| {
        bad(
            1,
            format!("does not start with {:?}", IDENTITY_PREFIX.trim()),
        )
    })?;
    if theirs != identity {
        return Err(bad(
            1,
            format!(
                "its games are not these: {}",
                identity_difference(theirs, identity)
            ),
        ));
    }
    let mut ends = match lines.get(1) {
        Some(&(columns, end)) if columns == CSV_COLUMNS.join(",") => vec![end],
        _ => {
            return Err(bad(
                2,
                format!("is not the columns {}", CSV_COLUMNS.join(",")),
            ))
        }
    };
    let mut stats = Vec::new();
    for (k, &(text, end)) in lines.iter().enumerate().skip(2) {
        let game = u32::try_from(u64::from(first) + stats.len() as u64)
            .map_err(|_| bad(k + 1, format!("is a game past game {}", u32::MAX)))?;
        stats.push(read_row(text, game, seed_of(game)).map_err(|problem| bad(k + 1, problem))?);
        ends.push(end);
    }
    Ok((stats, ends))
}

/// What the row `text` of game `game`, which plays `seed`, says; or what is
/// wrong with it.
fn read_row(text: &str, game: u32, seed: u64) -> Result<GameStat, String> {
    let fields: Vec<&str> = text.split(',').collect();
    if fields.len() != CSV_COLUMNS.len() {
        return Err(format!(
            "has {} fields, not {}",
            fields.len(),
            CSV_COLUMNS.len()
        ));
    }
    let number = |i: usize| {
        fields[i]
            .parse::<u64>()
            .map_err(|_| format!("{} {:?} is not a whole number", CSV_COLUMNS[i], fields[i]))
    };
    if number(0)? != u64::from(game) {
        return Err(format!("game {} where game {game} comes next", fields[0]));
    }
    if number(1)? != seed {
        return Err(format!(
            "seed {} is not game {game}'s seed, {seed}",
            fields[1]
        ));
    }
    let small = |i: usize| {
        u32::try_from(number(i)?)
            .map_err(|_| format!("{} {} is too large", CSV_COLUMNS[i], fields[i]))
    };
    let stat = GameStat {
        score: number(2)?,
        max_tile: small(3)?,
        moves: small(4)?,
    };
    if Outcome::from_name(fields[5]).is_none() {
        return Err(format!(
            "outcome {:?} is not one a game ends with",
            fields[5]
        ));
    }
    Ok(stat)
}

/// What differs between two identities (JSON objects): the names of the
/// fields that differ, or both lines whole if either is not such an object.
fn identity_difference(theirs: &str, ours: &str) -> String {
    use serde_json::{Map, Value};
    let object = |s: &str| match serde_json::from_str::<Value>(s) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    };
    let (Some(a), Some(b)): (Option<Map<_, _>>, Option<Map<_, _>>) = (object(theirs), object(ours))
    else {
        return format!("it holds games of {theirs}, and this run plays {ours}");
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let differ: Vec<&str> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(String::as_str)
        .collect();
    format!(
        "they differ in {} (it holds games of {theirs})",
        differ.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Board, GameRecord};
    use crate::search::SearchStats;

    const ID: &str = r#"{"players":["a"],"seed":7}"#;

    fn seed_of(game: u32) -> u64 {
        1000 + u64::from(game)
    }

    fn result(game: u32) -> GameResult {
        GameResult {
            seed: seed_of(game),
            start: None,
            record: GameRecord {
                moves: 900 + game,
                score: 20000 + u64::from(game),
                max_tile: 2048,
                fours: 0,
                outcome: if game.is_multiple_of(2) {
                    Outcome::GameOver
                } else {
                    Outcome::MoveLimit
                },
                board: Board::default(),
            },
            stats: SearchStats::default(),
        }
    }

    /// A fresh folder for one test.
    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tune2048-gamecsv-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// What an unbroken run of games `16..20` writes.
    const UNBROKEN: &str = "game,seed,score,max_tile,moves,outcome\n\
        16,1016,20016,2048,916,game_over\n\
        17,1017,20017,2048,917,move_limit\n\
        18,1018,20018,2048,918,game_over\n\
        19,1019,20019,2048,919,move_limit\n";

    #[test]
    fn rows_finished_out_of_order_are_written_in_game_order() {
        let dir = folder("order");
        let path = dir.join("games.csv");
        let mut csv = GameCsv::create(&path, ID, 16).unwrap();
        for game in [18, 16, 19, 17] {
            csv.push(game, &result(game)).unwrap();
        }
        csv.finish().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), UNBROKEN);
        assert!(!partial_path(&path).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stopped_run_resumed_ends_as_an_unbroken_one() {
        let dir = folder("resume");
        let path = dir.join("games.csv");
        let mut csv = GameCsv::create(&path, ID, 16).unwrap();
        // Game 18 finished, but waits for 17, which never finished.
        for game in [16, 18] {
            csv.push(game, &result(game)).unwrap();
        }
        csv.flush().unwrap();
        drop(csv);
        // The run stopped while writing game 17's row.
        let partial = partial_path(&path);
        let mut file = OpenOptions::new().append(true).open(&partial).unwrap();
        file.write_all(b"17,1017,200").unwrap();
        drop(file);

        let (mut csv, stats) = GameCsv::resume(&path, ID, 16, seed_of).unwrap();
        assert_eq!(
            stats,
            [GameStat {
                score: 20016,
                max_tile: 2048,
                moves: 916
            }]
        );
        assert_eq!(csv.next_game(), 17);
        for game in [19, 17, 18] {
            csv.push(game, &result(game)).unwrap();
        }
        csv.finish().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), UNBROKEN);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn keep_drops_the_rows_past_those_every_file_holds() {
        let dir = folder("keep");
        let path = dir.join("games.csv");
        let mut csv = GameCsv::create(&path, ID, 16).unwrap();
        for game in 16..19 {
            csv.push(game, &result(game)).unwrap();
        }
        drop(csv);
        for kept in [2, 0] {
            let (mut csv, stats) = GameCsv::resume(&path, ID, 16, seed_of).unwrap();
            assert_eq!(stats.len(), if kept == 2 { 3 } else { 2 });
            csv.keep(kept).unwrap();
            assert_eq!(csv.next_game(), 16 + kept as u32);
        }
        let (mut csv, stats) = GameCsv::resume(&path, ID, 16, seed_of).unwrap();
        assert!(stats.is_empty());
        for game in 16..20 {
            csv.push(game, &result(game)).unwrap();
        }
        csv.finish().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), UNBROKEN);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The message of `result`'s error.
    fn refusal<T>(result: Result<T, GameCsvError>) -> String {
        match result {
            Ok(_) => panic!("expected a refusal"),
            Err(e @ GameCsvError::Refused { .. }) => e.to_string(),
            Err(e) => panic!("expected a refusal, got {e}"),
        }
    }

    #[test]
    fn files_that_are_not_this_runs_are_refused_with_their_line() {
        let dir = folder("refused");
        let path = dir.join("games.csv");
        let partial = partial_path(&path);
        let name = partial.display().to_string();

        let message = refusal(GameCsv::resume(&path, ID, 16, seed_of));
        assert!(message.contains("no stopped run"), "{message}");

        let writing = GameCsv::create(&path, ID, 16).unwrap();
        let message = refusal(GameCsv::create(&path, ID, 16));
        assert_eq!(message, format!("{name}: another run is writing it"));
        let message = refusal(GameCsv::resume(&path, ID, 16, seed_of));
        assert_eq!(message, format!("{name}: another run is writing it"));
        drop(writing);

        // It stopped before a game's row: nothing is lost by starting over.
        GameCsv::create(&path, ID, 16).unwrap().flush().unwrap();
        let mut stopped = GameCsv::create(&path, ID, 16).unwrap();
        stopped.push(16, &result(16)).unwrap();
        drop(stopped);
        let message = refusal(GameCsv::create(&path, ID, 16));
        assert!(
            message.contains("a run that stopped") && message.contains("--resume"),
            "{message}"
        );

        let other = r#"{"players":["b"],"seed":7}"#;
        let message = refusal(GameCsv::resume(&path, other, 16, seed_of));
        assert!(
            message.starts_with(&format!("{name}, line 1: ")),
            "{message}"
        );
        assert!(message.contains("differ in players ("), "{message}");

        let head = format!("{IDENTITY_PREFIX}{ID}\n{}\n", CSV_COLUMNS.join(","));
        let cases = [
            ("", "line 1: is not there"),
            ("game,seed\n", "line 1: does not start with"),
            (
                &format!("{IDENTITY_PREFIX}{ID}\ngame,seed\n"),
                "line 2: is not the columns",
            ),
            (
                &format!("{head}16,1016,1,2,3\n"),
                "line 3: has 5 fields, not 6",
            ),
            (
                &format!("{head}17,1017,1,2,3,game_over\n"),
                "line 3: game 17 where game 16 comes next",
            ),
            (
                &format!("{head}16,1017,1,2,3,game_over\n"),
                "line 3: seed 1017 is not game 16's seed, 1016",
            ),
            (
                &format!("{head}16,1016,-1,2,3,game_over\n"),
                "line 3: score \"-1\" is not a whole number",
            ),
            (
                &format!("{head}16,1016,1,4294967296,3,game_over\n"),
                "line 3: max_tile 4294967296 is too large",
            ),
            (
                &format!("{head}16,1016,1,2,3,won\n"),
                "line 3: outcome \"won\" is not one a game ends with",
            ),
        ];
        for (text, expected) in cases {
            fs::write(&partial, text).unwrap();
            let message = refusal(GameCsv::resume(&path, ID, 16, seed_of));
            assert!(message.contains(expected), "{message} lacks {expected}");
            // A refused file is left as it was.
            assert_eq!(fs::read_to_string(&partial).unwrap(), text);
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
