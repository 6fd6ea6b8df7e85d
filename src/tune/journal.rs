//! The append-only journal: one JSON object per line, flushed as written and
//! synced to disk at least at every generation's end.
//! It is the run's source of truth: `resume` replays it, plots read it.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

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

/// Reads every complete record. A last line cut short by a crash is
/// dropped, and the byte length of the valid prefix is returned so the
/// writer can cut the file back to it.
pub fn read(path: &Path) -> std::io::Result<(Vec<Record>, u64)> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(e),
    };
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut valid = 0u64;
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 {
            break;
        }
        number += 1;
        let complete = line.ends_with('\n');
        match serde_json::from_str::<Record>(line.trim_end()) {
            Ok(r) if complete => {
                records.push(r);
                valid += n as u64;
            }
            // A torn last line: the crash happened while writing it.
            _ if !complete => break,
            Err(e) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}:{number}: bad journal record: {e}", path.display()),
                ))
            }
            Ok(_) => unreachable!(),
        }
    }
    Ok((records, valid))
}

/// The non-blank lines of journal text with their line numbers (from 1),
/// for readers that judge bad lines their own way (charts, the report).
pub fn numbered_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(index, l)| (index + 1, l))
        .collect()
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
        let (records, valid) = read(&path).unwrap();
        assert_eq!(records, vec![a.clone(), b]);
        assert_eq!(valid, full);
        let mut w = Writer::open(&path, valid).unwrap();
        w.append(&a).unwrap();
        assert_eq!(read(&path).unwrap().0.len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
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
