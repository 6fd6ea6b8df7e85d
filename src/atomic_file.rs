//! Whole-file writes that a reader, or a crash, never sees half done.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` through a temporary file beside it
/// (`<path>.tmp`), synced and then renamed over `path`, so readers see the
/// old contents or the new, never a mixture.
///
/// On failure `path` keeps its old contents (or stays absent), the temporary
/// file is removed if this call created it, and the error's message names
/// the file that could not be written.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = temporary_path(path);
    let mut file = fs::File::create(&tmp).map_err(|e| naming(&tmp, e))?;
    let written = file
        .write_all(contents)
        .and_then(|()| file.sync_data())
        .map_err(|e| naming(&tmp, e))
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

/// `path` with `.tmp` appended to its file name.
fn temporary_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// `error`, of the same kind, with a message that starts with `path`.
fn naming(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
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
        assert!(!temporary_path(&path).exists());
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
        assert!(!temporary_path(&path).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_create_keeps_the_old_file() {
        let dir = folder("create");
        let path = dir.join("out.txt");
        fs::write(&path, b"old").unwrap();
        // The temporary name is taken by a folder, which is not ours to remove.
        fs::create_dir(temporary_path(&path)).unwrap();
        let err = write(&path, b"new").unwrap_err();
        assert!(err.to_string().contains("out.txt.tmp"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert!(temporary_path(&path).is_dir());
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
