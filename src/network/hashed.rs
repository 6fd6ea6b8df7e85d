//! Files that end with the FNV-1a hash of the bytes before it (full network
//! files and coherence sums), built in memory or streamed to disk.
//!
//! A learning folder saves gigabytes of weights and sums every few minutes.
//! Building the whole file in memory first doubled the learner's peak
//! memory at each save; streamed, a file costs one table's reordered copy
//! and a chunk of bytes, and still reaches its path whole or not at all
//! ([`crate::atomic_file::Streamed`]). Both ways give the same bytes.

use std::io;
use std::path::Path;

use crate::atomic_file::Streamed;
use crate::fnv;

/// Where a file's bytes go, piece by piece.
pub(super) type Sink<'a> = dyn FnMut(&[u8]) -> io::Result<()> + 'a;

/// Weights or sums converted to bytes this many at a time.
const CHUNK: usize = 1 << 14;

/// The bytes `body` writes, with their hash appended.
pub(super) fn to_vec(body: impl FnOnce(&mut Sink) -> io::Result<()>) -> Vec<u8> {
    let mut out = Vec::new();
    body(&mut |bytes: &[u8]| {
        out.extend_from_slice(bytes);
        Ok(())
    })
    .expect("writing to memory cannot fail");
    let hash = fnv::hash(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// Writes the bytes `body` writes, with their hash appended, to `path`
/// through a temporary file: whole or not at all.
pub(super) fn save(path: &Path, body: impl FnOnce(&mut Sink) -> io::Result<()>) -> io::Result<()> {
    let mut file = Streamed::create(path)?;
    let mut hash = fnv::OFFSET_BASIS;
    body(&mut |bytes: &[u8]| {
        hash = fnv::extend(hash, bytes);
        file.write_all(bytes)
    })?;
    file.write_all(&hash.to_le_bytes())?;
    file.finish()
}

/// Writes `items` through `sink`, each as the bytes `put` appends for it,
/// a chunk at a time.
pub(super) fn put_all<T>(
    items: &[T],
    put: impl Fn(&T, &mut Vec<u8>),
    sink: &mut Sink,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    for chunk in items.chunks(CHUNK) {
        bytes.clear();
        chunk.iter().for_each(|item| put(item, &mut bytes));
        sink(&bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(sink: &mut Sink) -> io::Result<()> {
        sink(b"header\n\n")?;
        let weights: Vec<f32> = (0..3 * CHUNK as u32 + 7).map(|i| i as f32 * 0.5).collect();
        put_all(
            &weights,
            |w, out| out.extend_from_slice(&w.to_le_bytes()),
            sink,
        )
    }

    #[test]
    fn a_streamed_file_holds_the_bytes_built_in_memory() {
        let bytes = to_vec(body);
        assert_eq!(bytes.len(), 8 + 4 * (3 * CHUNK + 7) + 8);
        let (data, hash) = bytes.split_at(bytes.len() - 8);
        assert_eq!(hash, fnv::hash(data).to_le_bytes());
        assert_eq!(&data[8..12], &0.0f32.to_le_bytes());
        assert_eq!(
            &data[data.len() - 4..],
            &((3 * CHUNK + 6) as f32 * 0.5).to_le_bytes()
        );

        let dir = std::env::temp_dir().join(format!("tune2048-hashed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file.nt");
        save(&path, body).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_body_leaves_the_old_file() {
        let dir = std::env::temp_dir().join(format!("tune2048-hashed-fail-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file.nt");
        std::fs::write(&path, b"old").unwrap();
        let failed = save(&path, |sink| {
            sink(b"partial")?;
            Err(io::Error::other("full disk"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file is left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
