//! Each weight's sum of error sizes, in file order: all of a coherence file
//! that `pack --keep` ranks weights by.
//!
//! A [`Coherence`] holds three numbers a weight (the weight, and both sums),
//! 12 bytes each: 7.2 GB for a network of nine 6-cell tuples in four
//! stages. Packing needs one of them. [`ErrorSizes::read`] streams a
//! coherence file and keeps that one, checking the header, the count and
//! the closing hash as it goes, so the file is never held whole.

use std::io::{BufRead, Read};

use super::coherence::{parse_header, Coherence};
use super::value::Network;

/// Each weight's sum of error sizes (the sum of |error| over the games
/// that met it), table by table in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorSizes(Vec<f32>);

/// How many bytes of sums a read takes at a time.
const CHUNK: usize = 1 << 20;

impl ErrorSizes {
    /// The sizes, in file order.
    pub fn as_slice(&self) -> &[f32] {
        &self.0
    }

    /// Reads the coherence file `from` for `net` a chunk at a time: the
    /// games its sums cover, the file's hash, and its sizes. The error says
    /// what is wrong (an I/O error included), as
    /// [`Coherence::from_bytes`]'s would.
    pub fn read(mut from: impl BufRead, net: &Network) -> Result<(u64, u64, ErrorSizes), String> {
        let mut head = Vec::new();
        // The header is three short lines and a blank one.
        for _ in 0..4 {
            (&mut from)
                .take(256)
                .read_until(b'\n', &mut head)
                .map_err(|e| format!("cannot read: {e}"))?;
        }
        let blank = head
            .len()
            .checked_sub(2)
            .filter(|&at| head[at..] == *b"\n\n");
        let Some(blank) = blank else {
            return Err("no blank line after the header".into());
        };
        let header = std::str::from_utf8(&head[..blank]).map_err(|_| "the header is not text")?;
        let (games, pairs) = parse_header(header)?;
        let expected: usize = net.tables().iter().map(Vec::len).sum();
        if pairs != expected as u64 {
            return Err(format!(
                "line 3: {pairs} sums for a network of {expected} weights"
            ));
        }
        let mut hash = crate::fnv::hash(&head);
        let mut sizes = Vec::with_capacity(expected);
        let mut chunk = vec![0u8; CHUNK];
        while sizes.len() < expected {
            let n = (8 * (expected - sizes.len())).min(CHUNK);
            from.read_exact(&mut chunk[..n]).map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => {
                    format!("line 3: {pairs} sums for a network of {expected} weights, but the file is cut short")
                }
                _ => format!("cannot read: {e}"),
            })?;
            hash = crate::fnv::extend(hash, &chunk[..n]);
            sizes.extend(
                chunk[..n]
                    .chunks_exact(8)
                    .map(|pair| f32::from_le_bytes(pair[4..].try_into().expect("4 bytes"))),
            );
        }
        let mut tail = Vec::new();
        from.take(9)
            .read_to_end(&mut tail)
            .map_err(|e| format!("cannot read: {e}"))?;
        match <[u8; 8]>::try_from(tail.as_slice()) {
            Ok(stored) if u64::from_le_bytes(stored) == hash => {
                Ok((games, hash, ErrorSizes(sizes)))
            }
            Ok(_) => Err("the hash does not match: the file is cut short or altered".into()),
            Err(_) => Err(format!(
                "line 3: {pairs} sums for a network of {expected} weights, but {} bytes \
                 follow them where the 8 of the hash belong",
                if tail.len() > 8 {
                    "more than 8".into()
                } else {
                    tail.len().to_string()
                }
            )),
        }
    }
}

impl Coherence {
    /// The sums of error sizes, in file order: what
    /// [`ErrorSizes::read`] reads back from [`Coherence::to_bytes`].
    pub fn error_sizes(&self) -> ErrorSizes {
        ErrorSizes(
            self.tables()
                .iter()
                .flat_map(|table| super::order::reordered(table).into_iter().map(|t| t.size))
                .collect(),
        )
    }
}
