//! One writer per run folder. `tune` and `resume` (on an MPI job, rank 0)
//! hold an exclusive advisory lock (`flock(2)`) on the folder's `lock` file
//! for as long as they run, and write who they are into it: a second writer
//! is refused at once with a message naming the holder. The kernel releases
//! the lock when its process ends however it ends (`kill -9` included), so a
//! lock left by a dead process is simply taken over; the file's old text is
//! then only a record of the last writer. Readers (`report`, `plot`) never
//! take it.
//!
//! On a network file system the lock is as good as the file system's: Linux
//! NFS clients turn `flock` into POSIX byte-range locks that the server
//! arbitrates (NFSv4, or v3 with a lock manager), and a mount with `nolock`
//! makes every lock local to one machine, so two machines could both write.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;

use super::folder::{files, utc_rfc3339, RunFolder};

/// A held lock on a run folder; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Why a run folder could not be locked.
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
    /// Takes the folder's lock without waiting and records this process in it.
    pub fn acquire(folder: &RunFolder) -> Result<FolderLock, LockError> {
        FolderLock::acquire_dir(folder.dir())
    }

    /// [`FolderLock::acquire`] for any folder (a learning run's too).
    pub fn acquire_dir(dir: &std::path::Path) -> Result<FolderLock, LockError> {
        let path = dir.join(files::LOCK);
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
        // SAFETY: flock(2) on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(io(err));
            }
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
    /// file (a run of an older version, or one never started).
    pub fn is_held(folder: &std::path::Path) -> Option<bool> {
        let file = File::open(folder.join(files::LOCK)).ok()?;
        // SAFETY: flock(2) on a descriptor this function owns; a shared lock
        // taken here is released when `file` closes below.
        let free = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) } == 0;
        Some(!free)
    }
}

/// This machine's host name, or `unknown`.
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
    if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_first_and_a_released_one_is_taken() {
        let parent = std::env::temp_dir().join(format!("t2048-lock-{}", std::process::id()));
        let folder = RunFolder::create(&parent, "l").unwrap();
        assert_eq!(FolderLock::is_held(folder.dir()), None);
        let first = FolderLock::acquire(&folder).unwrap();
        assert_eq!(FolderLock::is_held(folder.dir()), Some(true));
        let err = FolderLock::acquire(&folder).unwrap_err().to_string();
        assert!(
            err.contains(&format!("pid {} on host ", std::process::id())),
            "{err}"
        );
        drop(first);
        assert_eq!(FolderLock::is_held(folder.dir()), Some(false));
        let again = FolderLock::acquire(&folder).unwrap();
        drop(again);
        std::fs::remove_dir_all(&parent).unwrap();
    }
}
