//! The run folder: every file a tuning run writes, named in one place, and
//! written so that a crash never leaves a half-written file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// File names inside a run folder.
pub mod files {
    /// The resolved config (parses back from the folder itself).
    pub const CONFIG: &str = "config.ron";
    /// A copy of the base weights the config names.
    pub const BASE: &str = "base.ron";
    /// Version, seeds, threads, start time.
    pub const META: &str = "meta.json";
    /// Append-only record of every evaluation: the source of truth.
    pub const JOURNAL: &str = "journal.jsonl";
    /// One row per generation.
    pub const GENERATIONS: &str = "generations.csv";
    /// The best weights so far, by validation.
    pub const BEST: &str = "best.ron";
    /// The final paired comparison of best against base.
    pub const FINAL: &str = "final.json";
    /// The final result in words.
    pub const SUMMARY: &str = "summary.txt";
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
        let stamp = utc_stamp(std::time::SystemTime::now());
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

    /// Writes a whole file through a temporary name and a rename.
    pub fn write_atomic(&self, file: &str, contents: &[u8]) -> std::io::Result<()> {
        write_atomic(&self.path(file), contents)
    }
}

/// Writes `path` through `path.tmp` and a rename, so readers see the old or
/// the new contents, never a mixture.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_data()?;
    }
    fs::rename(&tmp, path)
}

/// `YYYYMMDD-HHMMSS` in UTC.
pub fn utc_stamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// An RFC 3339 UTC time, for metadata.
pub fn utc_rfc3339(t: std::time::SystemTime) -> String {
    let stamp = utc_stamp(t);
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        &stamp[0..4],
        &stamp[4..6],
        &stamp[6..8],
        &stamp[9..11],
        &stamp[11..13],
        &stamp[13..15]
    )
}

/// Days since 1970-01-01 to a (year, month, day) of the proleptic Gregorian calendar.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

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
    }
}
