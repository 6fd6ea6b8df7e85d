//! One writer per folder. `tune` and `resume` (on an MPI job, rank 0) lock
//! their run folder, and `learn` its learning folder: each holds an exclusive
//! advisory lock ([`File::try_lock`], `flock(2)` on Linux) on the folder's
//! [`FILE`] for as long as it runs, and writes who it is into it: a second
//! writer is refused at once with a message naming the holder. The kernel
//! releases the lock when its process ends however it ends (`kill -9`
//! included), so a lock left by a dead process is simply taken over; the
//! file's old text is then only a record of the last writer. Readers
//! (`report`, `plot`) never take it; they may ask [`FolderLock::is_held`].
//!
//! On a network file system the lock is as good as the file system's: Linux
//! NFS clients turn `flock` into POSIX byte-range locks that the server
//! arbitrates (NFSv4, or v3 with a lock manager), and a mount with `nolock`
//! makes every lock local to one machine, so two machines could both write.
//!
//! [`host_name`], this machine's name, lives here too: the lock file records
//! it, and the ranks of an MPI job introduce themselves with it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::utc::utc_rfc3339;

/// The lock file's name inside a locked folder.
pub const FILE: &str = "lock";

/// A held lock on a folder; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Why a folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{dir}: the run folder is in use by another tune2048 ({holder}); wait for it to end, \
         or stop it, then resume"
    )]
    Held { dir: PathBuf, holder: String },
    #[error("{path}: cannot lock the run folder")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl FolderLock {
    /// Takes the lock of folder `dir` (a run folder or a learning folder)
    /// without waiting, and records this process in its lock file.
    pub fn acquire(dir: &Path) -> Result<FolderLock, LockError> {
        let path = dir.join(FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::Error(err)) => return Err(io(err)),
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                let holder = match text.trim() {
                    "" => "it has not written who it is yet".to_string(),
                    who => who.to_string(),
                };
                return Err(LockError::Held {
                    dir: dir.to_path_buf(),
                    holder,
                });
            }
        }
        let who = format!(
            "pid {} on host {}, since {}\n",
            std::process::id(),
            host_name(),
            utc_rfc3339(std::time::SystemTime::now())
        );
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(who.as_bytes()))
            .and_then(|()| file.sync_data())
            .map_err(io)?;
        Ok(FolderLock { _file: file })
    }

    /// Whether a live process holds `folder`'s lock (for readers: is the run
    /// going on, or did its writer die?). `None` when the folder has no lock
    /// file (a run of an older version, or one never started). A shared lock
    /// taken to find out is released when the file closes on return.
    pub fn is_held(folder: &Path) -> Option<bool> {
        let file = File::open(folder.join(FILE)).ok()?;
        Some(file.try_lock_shared().is_err())
    }
}

/// This machine's host name, or `unknown` when the system cannot say or
/// says nothing (`unknown` rather than an empty or one-character name, so a
/// lock file's "pid 12 on host unknown" and the host list of an MPI job
/// still read as sentences).
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: `buf` is valid for writes of `buf.len()` bytes, and
    // gethostname(2) writes at most that many.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    if ok && end > 0 {
        String::from_utf8_lossy(&buf[..end]).into_owned()
    } else {
        "unknown".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_first_and_a_released_one_is_taken() {
        let parent = std::env::temp_dir().join(format!("t2048-lock-{}", std::process::id()));
        let folder = parent.join("l");
        std::fs::create_dir_all(&folder).unwrap();
        assert_eq!(FolderLock::is_held(&folder), None);
        let first = FolderLock::acquire(&folder).unwrap();
        assert_eq!(FolderLock::is_held(&folder), Some(true));
        let err = FolderLock::acquire(&folder).unwrap_err().to_string();
        assert!(
            err.contains(&format!("pid {} on host ", std::process::id())),
            "{err}"
        );
        drop(first);
        assert_eq!(FolderLock::is_held(&folder), Some(false));
        let again = FolderLock::acquire(&folder).unwrap();
        drop(again);
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn the_host_name_is_never_empty() {
        assert!(!host_name().is_empty());
    }
}
