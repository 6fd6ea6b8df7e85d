//! The learning folder: where `learn` keeps a network as it learns, and
//! the rule by which a run goes on after a kill.
//!
//! The folder holds `network.nt` (the network as last saved: after a block,
//! every few minutes and at the end), `progress.csv` (one row per block),
//! `lock` (one writer at a time) and, for a method with temporal coherence,
//! `coherence-G.tc` (the accumulated errors after game G). Each block's row
//! and a save's sums are written before the network that includes them,
//! each whole or not at all, and the sums of the save before are removed
//! only once the network is written, so a run killed at any moment leaves
//! a network, the rows up to it and its sums; a resumed run drops any row
//! past the network and goes on from there, to the same network an
//! unbroken run would have learned.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use csv::StringRecord;

use super::coherence::Coherence;
use super::learn::{learn, BlockStats, Lesson};
use super::value::{Network, NetworkError};
use crate::lock::{FolderLock, LockError};

/// The network's file in a learning folder.
pub const NETWORK_FILE: &str = "network.nt";
/// The per-block progress in a learning folder.
pub const PROGRESS_FILE: &str = "progress.csv";
/// The columns of the progress file, in order.
pub const PROGRESS_COLUMNS: [&str; 9] = [
    "games",
    "alpha",
    "mean_score",
    "max_score",
    "reach_2048",
    "reach_8192",
    "reach_16384",
    "reach_32768",
    "seconds",
];

/// Why a learning folder could not be opened, resumed or written.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("{}: cannot create the folder: {cause}", dir.display())]
    Create { dir: PathBuf, cause: std::io::Error },
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The folder's network, or the one a run starts from, is missing or
    /// damaged.
    #[error("{0}")]
    Network(NetworkError),
    #[error(
        "{} already holds a network: pass --resume to go on with it, or name another folder",
        dir.display()
    )]
    Occupied { dir: PathBuf },
    #[error("{}: cannot read: {cause}", path.display())]
    Read {
        path: PathBuf,
        cause: std::io::Error,
    },
    /// The progress file is not one `learn` wrote.
    #[error("{}: {problem}", path.display())]
    Progress { path: PathBuf, problem: String },
    /// The network learned with temporal coherence, but its sums are not
    /// in the folder (or not readable).
    #[error("{}: {problem}", path.display())]
    Coherence { path: PathBuf, problem: String },
    /// A block's progress row or network could not be written.
    #[error(transparent)]
    Write(std::io::Error),
}

impl FolderError {
    /// Whether the fault is in what the user gave (a folder held by another
    /// run, one that holds a network already, a damaged file) rather than
    /// in the machine.
    pub fn is_bad_input(&self) -> bool {
        match self {
            FolderError::Lock(l) => matches!(l, LockError::Held { .. }),
            FolderError::Network(_)
            | FolderError::Occupied { .. }
            | FolderError::Progress { .. }
            | FolderError::Coherence { .. } => true,
            FolderError::Write(e) => e.kind() == std::io::ErrorKind::InvalidData,
            FolderError::Create { .. } | FolderError::Read { .. } => false,
        }
    }
}

/// The coherence sums of `net`, loaded from `file`: those its learning
/// folder holds for its games (`coherence-G.tc` beside it), or `None` where
/// there are none (a packed or copied file). A sums file that is there but
/// damaged, or for other games, is an error.
pub fn sums_beside(file: &Path, net: &Network) -> Result<Option<Coherence>, FolderError> {
    let name = format!("coherence-{}.tc", net.trained.games);
    let path = file.parent().unwrap_or(Path::new(".")).join(name);
    if !path.exists() {
        return Ok(None);
    }
    read_sums(&path, net).map(Some)
}

/// Reads the coherence sums at `path` for `net` as it stands.
fn read_sums(path: &Path, net: &Network) -> Result<Coherence, FolderError> {
    let bad = |problem: String| FolderError::Coherence {
        path: path.to_path_buf(),
        problem,
    };
    let file = std::fs::File::open(path).map_err(|e| {
        bad(format!(
            "cannot read the coherence sums of the network's {} games: {e}",
            net.trained.games
        ))
    })?;
    let (games, coh) = Coherence::read(std::io::BufReader::new(file), net).map_err(bad)?;
    if games != net.trained.games {
        return Err(bad(format!(
            "the sums are for {games} games, the network has learned from {}",
            net.trained.games
        )));
    }
    Ok(coh)
}

/// A learning folder, held by this process while the value lives.
pub struct LearningFolder {
    dir: PathBuf,
    _lock: FolderLock,
    /// The progress rows so far, as read or written.
    rows: Vec<StringRecord>,
}

impl LearningFolder {
    /// Opens `dir`, created if missing, and takes its lock.
    pub fn open(dir: &Path) -> Result<LearningFolder, FolderError> {
        std::fs::create_dir_all(dir).map_err(|cause| FolderError::Create {
            dir: dir.to_path_buf(),
            cause,
        })?;
        Ok(LearningFolder {
            _lock: FolderLock::acquire(dir)?,
            dir: dir.to_path_buf(),
            rows: Vec::new(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder's network file.
    pub fn network_path(&self) -> PathBuf {
        self.dir.join(NETWORK_FILE)
    }

    /// The folder's progress file.
    pub fn progress_path(&self) -> PathBuf {
        self.dir.join(PROGRESS_FILE)
    }

    /// The resume rule: the folder's network, and its progress rows up to
    /// the games the network has learned from (a row past it was written
    /// just before a kill). A missing progress file has no rows.
    pub fn resume(&mut self) -> Result<Network, FolderError> {
        let net = Network::load(&self.network_path()).map_err(FolderError::Network)?;
        let path = self.progress_path();
        self.rows = match std::fs::read_to_string(&path) {
            Ok(text) => rows_up_to(&text, net.trained.games, &path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(cause) => return Err(FolderError::Read { path, cause }),
        };
        Ok(net)
    }

    /// Refuses a folder that holds a network already: a new run does not
    /// overwrite one.
    pub fn check_empty(&self) -> Result<(), FolderError> {
        if self.network_path().exists() {
            return Err(FolderError::Occupied {
                dir: self.dir.clone(),
            });
        }
        Ok(())
    }

    /// The coherence sums file for the network after `games` games.
    pub fn coherence_path(&self, games: u64) -> PathBuf {
        self.dir.join(format!("coherence-{games}.tc"))
    }

    /// The coherence sums `lesson` needs to go on with `net`: none where
    /// its method has no coherence; the folder's for `net`'s games where
    /// `net` learned with coherence (refused if missing or damaged); new
    /// sums (every rate 1) where coherence starts now.
    pub fn coherence(
        &self,
        net: &Network,
        lesson: &Lesson,
    ) -> Result<Option<Coherence>, FolderError> {
        if !lesson.method.coherence {
            return Ok(None);
        }
        if !net.trained.method.coherence || net.trained.games == 0 {
            return Ok(Some(Coherence::new(net)));
        }
        read_sums(&self.coherence_path(net.trained.games), net).map(Some)
    }

    /// Learns `net` on to `to` games as `lesson` says ([`learn`]), writing
    /// each block's progress row and, once `save_every` has passed since
    /// the last save (and after the last block), its coherence sums where
    /// there are any, then the network. A zero `save_every` saves every
    /// block. `on_block` gets each block's statistics, its seconds and
    /// whether the network was saved, once all are written. A failed write
    /// stops the run.
    ///
    /// Rows past the saved network are what a kill costs: a resumed run
    /// drops them and learns their games again, to the same network.
    pub fn learn(
        &mut self,
        net: &mut Network,
        mut coherence: Option<Coherence>,
        lesson: &Lesson,
        to: u64,
        save_every: Duration,
        mut on_block: impl FnMut(&BlockStats, f64, bool),
    ) -> Result<(), FolderError> {
        let mut started = Instant::now();
        let mut saved = Instant::now();
        let mut failure = None;
        learn(net, coherence.as_mut(), lesson, to, |net, coh, stats| {
            // A block's seconds include the writes after the block before.
            let seconds = started.elapsed().as_secs_f64();
            started = Instant::now();
            let save = saved.elapsed() >= save_every || net.trained.games >= to;
            if let Err(e) = self.record(net, coh, stats, lesson.alpha, seconds, save) {
                failure = Some(e);
                return false;
            }
            if save {
                saved = Instant::now();
            }
            on_block(stats, seconds, save);
            true
        });
        failure.map_or(Ok(()), |e| Err(FolderError::Write(e)))
    }

    /// Writes a block's progress row and, when `save`, its coherence sums,
    /// then the network that includes them, then removes the sums of the
    /// save before.
    fn record(
        &mut self,
        net: &Network,
        coherence: Option<&Coherence>,
        stats: &BlockStats,
        alpha: f32,
        seconds: f64,
        save: bool,
    ) -> std::io::Result<()> {
        self.rows.push(progress_row(stats, alpha, seconds));
        crate::atomic_file::write(&self.progress_path(), &progress_bytes(&self.rows))?;
        if !save {
            return Ok(());
        }
        let games = net.trained.games;
        if let Some(coh) = coherence {
            coh.save(games, &self.coherence_path(games))?;
        }
        net.save(&self.network_path())?;
        self.remove_stale_coherence(games)
    }

    /// Removes every coherence file but the one for `games`.
    fn remove_stale_coherence(&self, games: u64) -> std::io::Result<()> {
        let keep = self.coherence_path(games);
        for entry in std::fs::read_dir(&self.dir)? {
            let path = entry?.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if name.starts_with("coherence-") && name.ends_with(".tc") && path != keep {
                std::fs::remove_file(&path)?;
            }
        }
        Ok(())
    }

    /// The hash the folder's network file ends with.
    pub fn network_hash(&self) -> Result<u64, FolderError> {
        let path = self.network_path();
        Network::file_hash(&path).map_err(|cause| FolderError::Read { path, cause })
    }
}

/// A block's progress row: its statistics as `learn` has always written
/// them (shares to 4 places, the mean score and seconds to 1).
fn progress_row(s: &BlockStats, alpha: f32, seconds: f64) -> StringRecord {
    let share = |n: u64| format!("{:.4}", n as f64 / s.block as f64);
    StringRecord::from(vec![
        s.games.to_string(),
        alpha.to_string(),
        format!("{:.1}", s.mean_score),
        s.max_score.to_string(),
        share(s.reached[0]),
        share(s.reached[1]),
        share(s.reached[2]),
        share(s.reached[3]),
        format!("{seconds:.1}"),
    ])
}

/// The progress file's bytes: the header, then `rows`.
pub(super) fn progress_bytes(rows: &[StringRecord]) -> Vec<u8> {
    // Flexible: a row read back as it was is written back as it was.
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    std::iter::once(&StringRecord::from(&PROGRESS_COLUMNS[..]))
        .chain(rows)
        .try_for_each(|row| writer.write_record(row))
        .expect("writing to memory");
    writer.into_inner().expect("writing to memory")
}

/// The progress rows of `text` up to `games`; `path` names the file in
/// errors.
pub(super) fn rows_up_to(
    text: &str,
    games: u64,
    path: &Path,
) -> Result<Vec<StringRecord>, FolderError> {
    let bad = |problem: String| FolderError::Progress {
        path: path.to_path_buf(),
        problem,
    };
    let mut records = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .into_records();
    if !matches!(records.next(), Some(Ok(header)) if header.iter().eq(PROGRESS_COLUMNS)) {
        return Err(bad(format!(
            "line 1: expected the header `{}`",
            PROGRESS_COLUMNS.join(",")
        )));
    }
    let mut rows = Vec::new();
    for record in records {
        let record = record.map_err(|e| bad(e.to_string()))?;
        let line = record.position().map_or(0, |p| p.line());
        let field = record.get(0).unwrap_or_default();
        let n: u64 = field.parse().map_err(|_| {
            bad(format!(
                "line {line}, field `games`: `{field}` is not a count"
            ))
        })?;
        if n <= games {
            rows.push(record);
        }
    }
    Ok(rows)
}
