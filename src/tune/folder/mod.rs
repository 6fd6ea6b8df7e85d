//! The run folder: every file a tuning run writes, named in one place, and
//! written so that a crash never leaves a half-written file. [`start`]
//! creates a new run's folder with the files it starts from.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::atomic_file;
use crate::utc::utc_stamp;

pub mod meta;
pub mod start;

/// File names inside a run folder.
pub mod files {
    /// The resolved config (parses back from the folder itself).
    pub const CONFIG: &str = "config.ron";
    /// A copy of the base weights the config names.
    pub const BASE: &str = "base.ron";
    /// A copy of the bank file the config names, if any (its hash is in the
    /// config).
    pub const BANK: &str = "bank.csv";

    /// A copy of the weights of a `Gpcc` job's opponent `i` (only those
    /// that are weights files).
    pub fn opponent(i: usize) -> String {
        format!("opponent-{i}.ron")
    }
    /// Version, seeds, threads, start time.
    pub const META: &str = "meta.json";
    /// Append-only record of every evaluation: the source of truth.
    pub const JOURNAL: &str = "journal.jsonl";
    /// One row per generation.
    pub const GENERATIONS: &str = "generations.csv";
    /// The built-in player's best weights so far, by validation.
    pub const BEST: &str = "best.ron";
    /// The built-in player's best search settings, when the run tunes any.
    pub const BEST_SETTINGS: &str = "best-settings.ron";
    /// The best player's tuned parameters by name, for every player.
    pub const BEST_PARAMS: &str = "best-params.json";
    /// An external player's best values as the protocol's `set` lines.
    pub const BEST_SET: &str = "best.set";
    /// The final paired comparison of best against base.
    pub const FINAL: &str = "final.json";
    /// The final result in words.
    pub const SUMMARY: &str = "summary.txt";
    /// The run as one self-contained web page (rewritten while it runs).
    pub const REPORT: &str = "report.html";
    /// Locked by the process writing the run, which records itself in it
    /// (see [`crate::lock`]).
    pub const LOCK: &str = crate::lock::FILE;
}

/// A run folder on disk.
#[derive(Clone, Debug)]
pub struct RunFolder {
    dir: PathBuf,
}

impl RunFolder {
    /// Creates `parent/<name>-<UTC timestamp>` (with a numeric suffix if taken).
    pub fn create(parent: &Path, name: &str) -> std::io::Result<RunFolder> {
        fs::create_dir_all(parent)?;
        let stamp = utc_stamp(SystemTime::now());
        for n in 0.. {
            let leaf = if n == 0 {
                format!("{name}-{stamp}")
            } else {
                format!("{name}-{stamp}-{n}")
            };
            let dir = parent.join(leaf);
            match fs::create_dir(&dir) {
                Ok(()) => return Ok(RunFolder { dir }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("some suffix is free")
    }

    /// An existing run folder.
    pub fn open(dir: &Path) -> std::io::Result<RunFolder> {
        if !dir.join(files::CONFIG).is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}: not a run folder (no {})", dir.display(), files::CONFIG),
            ));
        }
        Ok(RunFolder {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// Writes a whole file of the folder atomically (see [`atomic_file::write`]).
    pub fn write_atomic(&self, file: &str, contents: &[u8]) -> std::io::Result<()> {
        atomic_file::write(&self.path(file), contents)
    }
}
