//! Whole-file writes that a reader, or a crash, never sees half done.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` through a temporary file beside it (a name
/// of its own to this process and call: [`temporary_path`]), synced and then
/// renamed over `path`, so readers see the old contents or the new, never a
/// mixture, and two writers of one file never write into each other's
/// temporary file.
///
/// On failure `path` keeps its old contents (or stays absent), the temporary
/// file is removed if this call created it, and the error's message names
/// the file that could not be written (and the temporary file, where the
/// error was met writing that).
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_via(path, &temporary_path(path), contents)
}

/// [`write`] through the temporary file `tmp`.
fn write_via(path: &Path, tmp: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = tmp.to_path_buf();
    let mut file = fs::File::create(&tmp).map_err(|e| through(path, &tmp, e))?;
    let written = file
        .write_all(contents)
        .and_then(|()| file.sync_data())
        .map_err(|e| through(path, &tmp, e))
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp, path).map_err(|e| naming(path, e))
        });
    if written.is_err() {
        // Best effort: the error that matters is the one being returned.
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A temporary name for `path` in its folder, unique to this process and
/// call: `.<file name>.<pid>.<n>.tmp.<extension>` (hidden, and with the
/// file's own extension last, for writers that pick a format by it).
pub fn temporary_path(path: &Path) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path
        .file_name()
        .map_or_else(Default::default, |s| s.to_string_lossy());
    let ext = path
        .extension()
        .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
    path.with_file_name(format!(".{name}.{}.{n}.tmp{ext}", std::process::id()))
}

/// A file written piece by piece (a CSV row per game as the games finish)
/// that readers, or a crash, never see half done: the pieces go to a
/// [`temporary_path`], which [`Streamed::finish`] syncs and renames over
/// the final path. Dropped unfinished (an error, a panic), it removes the
/// temporary file and the final path keeps its old contents.
pub struct Streamed {
    path: PathBuf,
    tmp: PathBuf,
    /// `None` once finished.
    out: Option<io::BufWriter<fs::File>>,
}

impl Streamed {
    /// Starts writing `path` (through its temporary file).
    pub fn create(path: &Path) -> io::Result<Streamed> {
        let tmp = temporary_path(path);
        let file = fs::File::create(&tmp).map_err(|e| through(path, &tmp, e))?;
        Ok(Streamed {
            path: path.to_path_buf(),
            tmp,
            out: Some(io::BufWriter::new(file)),
        })
    }

    /// Appends `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        let out = self
            .out
            .as_mut()
            .expect("a Streamed is written before it is finished");
        out.write_all(bytes)
            .map_err(|e| through(&self.path, &self.tmp, e))
    }

    /// Syncs what was written and renames it over the final path.
    pub fn finish(mut self) -> io::Result<()> {
        let out = self.out.take().expect("a Streamed is finished once");
        let file = out
            .into_inner()
            .map_err(|e| through(&self.path, &self.tmp, e.into_error()))?;
        file.sync_data()
            .map_err(|e| through(&self.path, &self.tmp, e))?;
        drop(file);
        fs::rename(&self.tmp, &self.path).map_err(|e| naming(&self.path, e))
    }
}

impl Drop for Streamed {
    fn drop(&mut self) {
        // Unfinished, or finishing failed: the partial file goes.
        if self.out.take().is_some() || self.tmp.exists() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// `error`, of the same kind, with a message that starts with `path`.
fn naming(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// `error`, met writing `path` through its temporary file `tmp`: a message
/// that starts with the file the user asked for, then names the temporary
/// one (`runs/x/network.nt (through .network.nt.81.0.tmp.nt): No space
/// left on device`).
fn through(path: &Path, tmp: &Path, error: io::Error) -> io::Error {
    let name = tmp.file_name().map_or_else(
        || tmp.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    io::Error::new(
        error.kind(),
        format!("{} (through {name}): {error}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh empty folder for one test.
    fn folder(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tune2048-atomic-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_and_replaces_whole_contents() {
        let dir = folder("replace");
        let path = dir.join("out.txt");
        write(&path, b"first version, longer than the second").unwrap();
        assert_eq!(
            fs::read(&path).unwrap(),
            b"first version, longer than the second"
        );
        write(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        // Nothing but the file is left in the folder.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        let (a, b) = (temporary_path(&path), temporary_path(&path));
        assert_ne!(a, b);
        assert_eq!(a.parent(), path.parent());
        assert!(a.to_string_lossy().ends_with(".tmp.txt"), "{}", a.display());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_rename_keeps_the_target_and_removes_the_temporary_file() {
        let dir = folder("rename");
        // A non-empty folder where the file should go: the rename fails
        // after the temporary file was written.
        let path = dir.join("taken");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"old").unwrap();
        let err = write(&path, b"new").unwrap_err();
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(fs::read(path.join("inside")).unwrap(), b"old");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "a temporary file is left"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_create_keeps_the_old_file() {
        let dir = folder("create");
        let path = dir.join("out.txt");
        fs::write(&path, b"old").unwrap();
        // The temporary name is taken by a folder, which is not ours to remove.
        let tmp = temporary_path(&path);
        fs::create_dir(&tmp).unwrap();
        let err = write_via(&path, &tmp, b"new").unwrap_err();
        // The file asked for first, then the temporary file met.
        let message = err.to_string();
        assert!(message.starts_with(&path.display().to_string()), "{err}");
        assert!(message.contains("(through .out.txt."), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert!(tmp.is_dir());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_file() {
        let dir = folder("missing");
        let path = dir.join("no-such-folder").join("out.txt");
        let err = write(&path, b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(err.to_string().contains("out.txt"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
