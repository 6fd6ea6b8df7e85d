//! A run folder's start: [`start`] creates the folder of a new run, locks
//! it and writes what the run starts from (the resolved config, copies of
//! the base weights, the bank and the opponents' weights it names, the
//! metadata).

use std::path::Path;

use super::{files, RunFolder};
use crate::adversarial::duel::Opponent;
use crate::bank::content_hash;
use crate::evaluation::Evaluator;
use crate::lock::{FolderLock, LockError};
use crate::tune::config::{BankStarts, Game, TuneConfig};
use crate::tune::folder::meta::RunMeta;
use crate::utc::utc_rfc3339;

/// Why a run folder could not be started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The bank file the config names cannot be read any more.
    #[error("{}: cannot read the bank file: {error}", path.display())]
    BankUnreadable {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    /// The bank file is no longer the one the config was checked against.
    #[error("{}: the bank file changed while the run started", .0.display())]
    BankChanged(std::path::PathBuf),
}

/// Creates the run folder of `config` (read from `config_path`) in
/// `parent`, locks it, and writes the files the run starts from; the
/// metadata records `evaluator`'s threads and processes. The lock is held
/// as long as the returned [`FolderLock`] lives.
pub fn start(
    config: &TuneConfig,
    config_path: &Path,
    parent: &Path,
    evaluator: &dyn Evaluator,
) -> Result<(RunFolder, FolderLock), StartError> {
    let folder = RunFolder::create(parent, &config.name)?;
    let lock = FolderLock::acquire(folder.dir())?;
    if let Some(weights) = config.base.weights() {
        folder.write_atomic(files::BASE, weights.to_ron().as_bytes())?;
    }
    if let Some(bank) = &config.bank {
        copy_bank(bank, &folder)?;
    }
    if let Game::Gpcc(duel) = &config.variant {
        for (i, o) in duel.opponents.iter().enumerate() {
            if let Opponent::Weights { weights, .. } = o {
                folder.write_atomic(&files::opponent(i), weights.to_ron().as_bytes())?;
            }
        }
    }
    folder.write_atomic(
        files::CONFIG,
        config
            .to_ron_in_folder(
                Path::new(files::BASE),
                Path::new(files::BANK),
                files::opponent,
            )
            .as_bytes(),
    )?;
    let meta = RunMeta {
        name: Some(config.name.clone()),
        version: env!("CARGO_PKG_VERSION").to_string(),
        config: config_path.display().to_string(),
        base_weights: config
            .base_weights_path
            .as_ref()
            .map_or_else(|| config.base.describe(), |p| p.display().to_string()),
        seed: config.seed,
        threads: evaluator.threads(),
        processes: evaluator.processes(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        started: utc_rfc3339(std::time::SystemTime::now()),
        params: config.params.iter().map(|p| p.name.to_string()).collect(),
    };
    meta.write(&folder)?;
    Ok((folder, lock))
}

/// Copies the bank into the run folder, unless it changed since the config
/// was read (the folder's config records the hash the games were drawn from).
fn copy_bank(bank: &BankStarts, folder: &RunFolder) -> Result<(), StartError> {
    let bytes = std::fs::read(&bank.path).map_err(|error| StartError::BankUnreadable {
        path: bank.path.clone(),
        error,
    })?;
    if content_hash(&bytes) != bank.hash {
        return Err(StartError::BankChanged(bank.path.clone()));
    }
    Ok(folder.write_atomic(files::BANK, &bytes)?)
}
