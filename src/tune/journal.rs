//! The append-only journal: one JSON object per line, flushed as written and
//! synced to disk at least at every generation's end.
//! It is the run's source of truth: `resume` replays it, plots read it.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Seek, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::stop::StopReason;

/// One journal line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    /// The base weights, on the validation games of generation 0.
    Baseline {
        fitness: f64,
        mean_score: f64,
        games: u32,
    },
    /// One candidate of a generation, on that generation's ranking games.
    Eval {
        generation: u32,
        /// The candidate's place in its generation (points sorted; see `ask_tell`).
        index: u32,
        /// The point in normalized coordinates (value = init + scale·x).
        x: Vec<f64>,
        params: BTreeMap<String, f64>,
        /// The objective, before the bound penalty.
        fitness: f64,
        /// Penalty for leaving the bounds (what CMA-ES saw is fitness − penalty).
        penalty: f64,
        mean_score: f64,
        games: u32,
        /// The first of its games' indices in the generation's seed stream
        /// (above 0 for a later round of a race).
        #[serde(default, skip_serializing_if = "is_zero")]
        first: u32,
        /// The objective per game, when a race needs them to resume exactly.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        values: Vec<f64>,
    },
    /// The distribution mean after a generation, on fresh games.
    Validation {
        generation: u32,
        #[serde(flatten)]
        scored: Scored,
    },
    /// The end of a generation.
    Generation {
        generation: u32,
        sigma: f64,
        best: f64,
        median: f64,
        mean: f64,
        evaluations: u32,
        /// Games played so far in the run, validation included.
        games: u64,
        elapsed_s: f64,
    },
    /// A contender of the final choice (see `Reselect` in the config), on
    /// the reselection games, which every contender shares.
    Reselect {
        /// "generation 12", or "mean of generations 20..=22".
        label: String,
        /// The generation whose weights are chosen if this contender wins.
        generation: u32,
        #[serde(flatten)]
        scored: Scored,
    },
    /// An IPOP restart begins before `generation` with a larger population.
    Restart {
        generation: u32,
        restart: u32,
        population: u32,
    },
    /// The run stopped: why, after how much, and the base player's fitness
    /// (the level every ratio refers to). Written once the final comparison
    /// is played, before `final.json`; an interrupted run writes one too,
    /// which a resume's later records supersede.
    Stop {
        reason: StopReason,
        generations: u32,
        games: u64,
        base_fitness: f64,
    },
    /// A kind this version does not know (written by a newer one): skipped.
    #[serde(other)]
    Unknown,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A weight vector scored on games of its own, with a confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    /// The point in normalized coordinates (value = init + scale·x).
    pub x: Vec<f64>,
    pub params: BTreeMap<String, f64>,
    pub fitness: f64,
    pub fitness_ci95: [f64; 2],
    pub mean_score: f64,
    pub games: u32,
}

/// A complete journal line that is not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// Its line number, from 1.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// What a journal holds, read by the one policy every reader shares:
///
/// - A last line without its newline is a write cut short (by a crash, a
///   kill or a full disk) or still in progress. Every reader leaves it out;
///   the writer cuts the file back to [`Contents::valid_len`] before it
///   appends again. It is reported in [`Contents::torn`].
/// - A complete line that is not a record (edited by hand, or damaged on
///   disk) is a [`BadLine`]. `tune` and `resume` refuse the folder
///   ([`Contents::into_replayable`]): replaying around a lost record would
///   silently change the run; so does `plot`, whose charts would silently
///   miss it. `report`, whose page is made of any folder at any moment,
///   leaves it out and names it on the page.
/// - Blank lines carry nothing and are skipped; records of a kind this
///   version does not know are kept as [`Record::Unknown`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contents {
    pub records: Vec<Record>,
    /// Bytes up to the end of the last complete line.
    pub valid_len: u64,
    /// The line number of a torn last line.
    pub torn: Option<usize>,
    pub bad: Vec<BadLine>,
}

/// A journal that `tune` or `resume` cannot replay.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{path}: the journal cannot be read")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path}:{}: not a journal record ({}){}; the run cannot be replayed around it: \
         restore the line, or start a new run",
        first.line,
        first.message,
        more_bad(*count)
    )]
    Bad {
        path: String,
        first: BadLine,
        count: usize,
    },
}

fn more_bad(count: usize) -> String {
    match count {
        0 | 1 => String::new(),
        n => format!(", and {} more bad lines", n - 1),
    }
}

/// Parses journal bytes by the policy of [`Contents`].
pub fn parse(bytes: &[u8]) -> Contents {
    let mut contents = Contents::default();
    let mut start = 0;
    let mut number = 0;
    while start < bytes.len() {
        number += 1;
        let Some(len) = bytes[start..].iter().position(|&b| b == b'\n') else {
            contents.torn = Some(number);
            break;
        };
        let line = &bytes[start..start + len];
        start += len + 1;
        contents.valid_len = start as u64;
        let text = match std::str::from_utf8(line) {
            Ok(text) => text,
            Err(e) => {
                contents.bad.push(BadLine {
                    line: number,
                    message: format!("not UTF-8 text: {e}"),
                });
                continue;
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Record>(text) {
            Ok(record) => contents.records.push(record),
            Err(e) => contents.bad.push(BadLine {
                line: number,
                message: e.to_string(),
            }),
        }
    }
    contents
}

/// Reads the journal at `path` (a missing file holds nothing).
pub fn read(path: &Path) -> std::io::Result<Contents> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(parse(&bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Contents::default()),
        Err(e) => Err(e),
    }
}

/// Reads the journal that `tune` or `resume` continues: its records and
/// the length to cut the file back to, or an error naming the first bad line.
pub fn read_for_replay(path: &Path) -> Result<(Vec<Record>, u64), JournalError> {
    let name = path.display().to_string();
    match read(path) {
        Ok(contents) => contents.into_replayable(&name),
        Err(source) => Err(JournalError::Read { path: name, source }),
    }
}

impl Contents {
    /// The records and the valid length, unless a complete line is bad
    /// (`path` names the journal in the error).
    pub fn into_replayable(self, path: &str) -> Result<(Vec<Record>, u64), JournalError> {
        match self.bad.first() {
            Some(first) => Err(JournalError::Bad {
                path: path.to_string(),
                first: first.clone(),
                count: self.bad.len(),
            }),
            None => Ok((self.records, self.valid_len)),
        }
    }
}

/// How the run ended, if it did: the last [`Record::Stop`], unless a
/// candidate or a generation was recorded after it (the run was resumed).
pub fn stop_record(records: &[Record]) -> Option<&Record> {
    records
        .iter()
        .rev()
        .take_while(|r| !matches!(r, Record::Eval { .. } | Record::Generation { .. }))
        .find(|r| matches!(r, Record::Stop { .. }))
}

/// Where journal lines go: a file, or (in tests) anything that can fail.
pub trait Sink: Write + Send {
    /// Makes everything written so far durable (`fsync` for a file).
    fn sync(&mut self) -> std::io::Result<()>;
}

impl Sink for File {
    fn sync(&mut self) -> std::io::Result<()> {
        self.sync_data()
    }
}

/// Appends records, one flushed line each; [`Writer::sync`] makes them durable.
pub struct Writer {
    sink: Box<dyn Sink>,
}

impl Writer {
    /// Opens the journal for appending, first cutting it back to `valid_len`
    /// bytes (dropping a torn last line).
    pub fn open(path: &Path, valid_len: u64) -> std::io::Result<Writer> {
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)?;
        file.set_len(valid_len)?;
        file.seek(std::io::SeekFrom::End(0))?;
        Ok(Writer::to_sink(Box::new(file)))
    }

    /// A writer into any sink.
    pub fn to_sink(sink: Box<dyn Sink>) -> Writer {
        Writer { sink }
    }

    pub fn append(&mut self, record: &Record) -> std::io::Result<()> {
        let mut line = serde_json::to_string(record).map_err(std::io::Error::other)?;
        line.push('\n');
        // One write per line: a crash tears at most the last line.
        self.sink.write_all(line.as_bytes())?;
        self.sink.flush()
    }

    /// Durable against power loss once this returns.
    pub fn sync(&mut self) -> std::io::Result<()> {
        self.sink.sync()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_last_lines_are_dropped_and_cut() {
        let dir = std::env::temp_dir().join(format!("t2048-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let _ = std::fs::remove_file(&path);
        let a = Record::Baseline {
            fitness: 1.5,
            mean_score: 2.0,
            games: 3,
        };
        let b = Record::Restart {
            generation: 4,
            restart: 1,
            population: 20,
        };
        {
            let mut w = Writer::open(&path, 0).unwrap();
            w.append(&a).unwrap();
            w.append(&b).unwrap();
        }
        let mut text = std::fs::read_to_string(&path).unwrap();
        let full = text.len() as u64;
        text.push_str("{\"kind\":\"eval\",\"gener");
        std::fs::write(&path, &text).unwrap();
        let contents = read(&path).unwrap();
        assert_eq!(contents.records, vec![a.clone(), b]);
        assert_eq!(contents.valid_len, full);
        assert_eq!(contents.torn, Some(3));
        let (_, valid) = read_for_replay(&path).unwrap();
        let mut w = Writer::open(&path, valid).unwrap();
        w.append(&a).unwrap();
        let contents = read(&path).unwrap();
        assert_eq!((contents.records.len(), contents.torn), (3, None));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn line(record: &Record) -> String {
        serde_json::to_string(record).unwrap() + "\n"
    }

    #[test]
    fn bad_complete_lines_are_named_and_stop_a_replay() {
        let a = Record::Baseline {
            fitness: 1.0,
            mean_score: 1.0,
            games: 1,
        };
        let text = format!(
            "{}\n{{\"kind\":\"eval\"}}\nnot json\n{}",
            line(&a),
            line(&a)
        );
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"\xff\xfe\n{\"kind\":\"base");
        let contents = parse(&bytes);
        // Blank line 2 skipped; lines 3, 4 and 6 are bad; line 7 is torn.
        assert_eq!(contents.records, vec![a.clone(), a]);
        assert_eq!(
            contents.bad.iter().map(|b| b.line).collect::<Vec<_>>(),
            vec![3, 4, 6]
        );
        assert!(contents.bad[2].message.contains("UTF-8"));
        assert_eq!(contents.torn, Some(7));
        assert_eq!(contents.valid_len, bytes.len() as u64 - 13);
        let error = contents.into_replayable("j.jsonl").unwrap_err().to_string();
        assert!(
            error.starts_with("j.jsonl:3: not a journal record ("),
            "{error}"
        );
        assert!(error.contains("and 2 more bad lines"), "{error}");
    }

    #[test]
    fn the_stop_record_counts_until_the_run_goes_on() {
        let stop = Record::Stop {
            reason: StopReason::Interrupted,
            generations: 3,
            games: 30,
            base_fitness: 2.0,
        };
        let generation = Record::Generation {
            generation: 3,
            sigma: 0.5,
            best: 1.0,
            median: 1.0,
            mean: 1.0,
            evaluations: 4,
            games: 40,
            elapsed_s: 1.0,
        };
        let restart = Record::Restart {
            generation: 4,
            restart: 1,
            population: 8,
        };
        assert_eq!(stop_record(&[]), None);
        assert_eq!(stop_record(std::slice::from_ref(&stop)), Some(&stop));
        assert_eq!(stop_record(&[stop.clone(), generation.clone()]), None);
        assert_eq!(
            stop_record(&[stop.clone(), generation, stop.clone(), restart]),
            Some(&stop)
        );
        let text = line(&stop);
        assert!(
            text.starts_with(r#"{"kind":"stop","reason":"interrupted","#),
            "{text}"
        );
    }

    #[test]
    fn floats_round_trip_exactly() {
        let x = vec![0.1 + 0.2, -1.0 / 3.0, 1e-300, 123_456_789.123_456_78];
        let r = Record::Validation {
            generation: 1,
            scored: Scored {
                x: x.clone(),
                params: BTreeMap::new(),
                fitness: std::f64::consts::PI,
                fitness_ci95: [1.0, 2.0],
                mean_score: 0.0,
                games: 1,
            },
        };
        let text = serde_json::to_string(&r).unwrap();
        // Flat on disk, as journals have always been written.
        assert!(
            text.starts_with(r#"{"kind":"validation","generation":1,"x":["#),
            "{text}"
        );
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        let unknown: Record = serde_json::from_str(r#"{"kind":"later","a":1}"#).unwrap();
        assert_eq!(unknown, Record::Unknown);
    }
}
