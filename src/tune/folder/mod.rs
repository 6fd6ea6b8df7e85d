//! The run folder: every file a tuning run writes, named in one place, and
//! written so that a crash never leaves a half-written file. [`start`]
//! creates a new run's folder with the files it starts from.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::atomic_file;

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
    /// Locked by the process writing the run, which records itself in it.
    pub const LOCK: &str = "lock";
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

/// `t` as a UTC calendar time. Times before 1970 read as 1970-01-01 00:00:00,
/// times past the year 9999 as 9999-12-31 23:59:59.
fn utc(t: SystemTime) -> time::OffsetDateTime {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    i64::try_from(secs)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::PrimitiveDateTime::MAX.assume_utc())
}

/// `YYYYMMDD-HHMMSS` in UTC.
pub fn utc_stamp(t: SystemTime) -> String {
    utc_with(t, ["", "", "-", "", ""], "")
}

/// An RFC 3339 UTC time, for metadata.
pub fn utc_rfc3339(t: SystemTime) -> String {
    utc_with(t, ["-", "-", "T", ":", ":"], "Z")
}

/// Year, month, day, hour, minute and second with `separators` between
/// them and `end` after.
fn utc_with(t: SystemTime, separators: [&str; 5], end: &str) -> String {
    let u = utc(t);
    let [a, b, c, d, e] = separators;
    format!(
        "{:04}{a}{:02}{b}{:02}{c}{:02}{d}{:02}{e}{:02}{end}",
        u.year(),
        u8::from(u.month()),
        u.day(),
        u.hour(),
        u.minute(),
        u.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "19700101-000000");
        // 2026-11-22 02:54:15 UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_795_316_055);
        assert_eq!(utc_stamp(t), "20261122-025415");
        assert_eq!(utc_rfc3339(t), "2026-11-22T02:54:15Z");
        // A leap day.
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(utc_stamp(t), "20000229-000000");
        // The last second of a year, and of a century that is no leap year.
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_799);
        assert_eq!(utc_rfc3339(t), "2099-12-31T23:59:59Z");
        let t = UNIX_EPOCH + Duration::from_secs(4_107_542_400);
        assert_eq!(utc_stamp(t), "21000301-000000");
        // Before the epoch: the epoch.
        assert_eq!(
            utc_stamp(UNIX_EPOCH - Duration::from_secs(1)),
            "19700101-000000"
        );
    }
}
