//! Each weight's sum of error sizes, in file order: all of a coherence file
//! that `pack --keep` ranks weights by.
//!
//! A [`Coherence`] holds three numbers a weight (the weight, and both sums),
//! 12 bytes each: 7.2 GB for a network of nine 6-cell tuples in four
//! stages. Packing needs one of them. [`ErrorSizes::read`] streams a
//! coherence file and keeps that one.

use std::io::BufRead;

use super::coherence::{stream_sums, Coherence};
use super::value::Network;

/// Each weight's sum of error sizes (the sum of |error| over the games
/// that met it), table by table in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorSizes(Vec<f32>);

impl ErrorSizes {
    /// The sizes, in file order.
    pub fn as_slice(&self) -> &[f32] {
        &self.0
    }

    /// Reads the coherence file `from` for `net` a chunk at a time: the
    /// games its sums cover, the file's hash, and its sizes. The error says
    /// what is wrong (an I/O error included), as [`Coherence::read`]'s does.
    pub fn read(from: impl BufRead, net: &Network) -> Result<(u64, u64, ErrorSizes), String> {
        let mut sizes = Vec::with_capacity(net.weight_count());
        let (games, hash) = stream_sums(from, net, |[_, size]| sizes.push(size))?;
        Ok((games, hash, ErrorSizes(sizes)))
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
