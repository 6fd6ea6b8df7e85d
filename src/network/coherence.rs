//! Temporal coherence: each weight's accumulated errors, from which its
//! own learning rate follows, and their file in a learning folder.
//!
//! A weight's rate is `|E| / A`, where `E` is the sum of the errors applied
//! to it and `A` the sum of their sizes (1 while A is 0): a weight whose
//! errors keep one sign learns at the full rate, one whose errors cancel
//! slows down.
//!
//! The sums are held beside a copy of the weights they belong to, so that
//! the step that moves a weight finds its sums in the same cache line: this
//! is what learning with coherence moves (`super::learned`), and the
//! network the weights it changed are copied to. The file holds the sums
//! alone.

use std::io::{BufRead, Read};
use std::path::Path;

use super::hashed;
use super::value::Network;

/// A weight as learning with coherence holds it: the weight, and the sums
/// of the errors applied to it. Twelve bytes: one cache line brings all
/// three (two, for the one in eight that straddles lines).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Tally {
    pub(super) weight: f32,
    /// `E`: the sum of the errors.
    pub(super) sum: f32,
    /// `A`: the sum of their sizes.
    pub(super) size: f32,
}

// SAFETY: three f32s, each 0.0 with every bit 0: the all-zero Tally is
// the default one, no error seen.
unsafe impl super::pages::Zero for Tally {}

impl Tally {
    /// The weight's rate from its sums.
    #[inline(always)]
    pub(super) fn rate(self) -> f32 {
        if self.size == 0.0 {
            1.0
        } else {
            self.sum.abs() / self.size
        }
    }
}

/// Each weight's accumulated errors for temporal coherence, the signed sum
/// and the sum of sizes, table by table as the network's, each beside a
/// copy of its weight.
#[derive(Debug, PartialEq)]
pub struct Coherence {
    pub(super) tables: Vec<Vec<Tally>>,
    /// The stages in use in the weights held here (see `super::promote`).
    pub(super) opened: usize,
}

impl Clone for Coherence {
    fn clone(&self) -> Coherence {
        Coherence {
            tables: self
                .tables
                .iter()
                .map(|t| super::pages::copied(t))
                .collect(),
            opened: self.opened,
        }
    }
}

impl Coherence {
    /// No errors seen: every weight of `net` at rate 1.
    pub fn new(net: &Network) -> Coherence {
        let mut coh = Coherence {
            tables: net
                .tables()
                .iter()
                .map(|t| super::pages::zeros(t.len()))
                .collect(),
            opened: net.opened(),
        };
        coh.hold(net);
        coh
    }

    /// Takes `net`'s weights and stages in use as those the sums belong
    /// to, keeping the sums.
    pub(super) fn hold(&mut self, net: &Network) {
        assert_eq!(
            self.tables.len(),
            net.tables().len(),
            "sums for the network"
        );
        for (tallies, weights) in self.tables.iter_mut().zip(net.tables()) {
            for (tally, &w) in tallies.iter_mut().zip(weights) {
                tally.weight = w;
            }
        }
        self.opened = net.opened();
    }

    /// The accumulated errors with the weights, table by table.
    pub(super) fn tables(&self) -> &[Vec<Tally>] {
        &self.tables
    }

    /// Each weight's sums `[E, A]`, table by table, in the order of
    /// [`Network::tables`].
    pub fn sums(&self) -> impl Iterator<Item = [f32; 2]> + '_ {
        self.tables.iter().flatten().map(|t| [t.sum, t.size])
    }

    /// The sums of a network split into stages ([`Network::split`]):
    /// `sources` gives the stage each new stage starts from
    /// ([`stage_sources`](super::stage::stage_sources)), and its sums are
    /// a copy of that stage's, as its weights are.
    pub fn split(&self, sources: &[usize]) -> Coherence {
        let stages = sources.last().map_or(1, |&last| last + 1);
        let per_stage = self.tables.len() / stages;
        Coherence {
            tables: sources
                .iter()
                .flat_map(|&from| &self.tables[from * per_stage..(from + 1) * per_stage])
                .map(|t| super::pages::copied(t))
                .collect(),
            opened: sources
                .iter()
                .take_while(|&&from| from < self.opened)
                .count(),
        }
    }

    /// The sums of a network of `own` tuples widened by `extra`
    /// ([`Network::widen`]): every stage keeps its own tables' sums, and
    /// the added tables start with none (rate 1).
    pub fn widen(self, own: usize, extra: &[Vec<u8>]) -> Coherence {
        let stages = self.tables.len() / own;
        let mut tables = Vec::with_capacity(stages * (own + extra.len()));
        let mut old = self.tables.into_iter();
        for _ in 0..stages {
            tables.extend(old.by_ref().take(own));
            tables.extend(
                extra
                    .iter()
                    .map(|t| super::pages::zeros(1 << (4 * t.len()))),
            );
        }
        Coherence {
            tables,
            opened: self.opened,
        }
    }
}

/// The first line of a coherence file.
const COHERENCE_FORMAT: &str = "tune2048 coherence 1";

impl Coherence {
    /// The file's bytes: a text header (format line, the games the sums
    /// cover, the sum count), a blank line, each weight's two sums as
    /// little-endian f32 table by table, and the FNV-1a hash of all before.
    pub fn to_bytes(&self, games: u64) -> Vec<u8> {
        hashed::to_vec(|sink| self.write_body(games, sink))
    }

    /// Writes [`Coherence::to_bytes`] to `path` whole or not at all,
    /// streamed: no copy of the file is built in memory.
    pub fn save(&self, games: u64, path: &Path) -> std::io::Result<()> {
        hashed::save(path, |sink| self.write_body(games, sink))
    }

    /// The file's bytes before its hash.
    fn write_body(&self, games: u64, sink: &mut hashed::Sink) -> std::io::Result<()> {
        let pairs: usize = self.tables.iter().map(Vec::len).sum();
        sink(format!("{COHERENCE_FORMAT}\ngames {games}\npairs {pairs}\n\n").as_bytes())?;
        for table in &self.tables {
            let put = |tally: &Tally, out: &mut Vec<u8>| {
                out.extend_from_slice(&tally.sum.to_le_bytes());
                out.extend_from_slice(&tally.size.to_le_bytes());
            };
            hashed::put_all(&super::order::reordered(table), put, sink)?;
        }
        Ok(())
    }

    /// Reads [`Coherence::to_bytes`] for `net`: the games the sums cover,
    /// and the sums. The error says what is wrong.
    pub fn from_bytes(bytes: &[u8], net: &Network) -> Result<(u64, Coherence), String> {
        Coherence::read(bytes, net)
    }

    /// [`Coherence::from_bytes`], streamed from `from`: besides the sums it
    /// builds, it holds one table in file order and a chunk of the file.
    pub fn read(from: impl BufRead, net: &Network) -> Result<(u64, Coherence), String> {
        let mut coh = Coherence::new(net);
        let mut tables = coh.tables.iter_mut();
        let mut table = tables.next();
        let mut in_file = Vec::new();
        let games = stream_sums(from, net, |[sum, size]| {
            in_file.push(Tally {
                weight: 0.0,
                sum,
                size,
            });
            if let Some(to) = table.as_deref_mut().filter(|to| to.len() == in_file.len()) {
                super::order::reorder(&in_file, to);
                in_file.clear();
                table = tables.next();
            }
        })?
        .0;
        coh.hold(net);
        Ok((games, coh))
    }
}

/// How many bytes of sums a read takes at a time.
const READ_CHUNK: usize = 1 << 20;

/// Reads a coherence file for `net` from `from` a chunk at a time, handing
/// each weight's sums `[E, A]` to `each` in file order, and checking the
/// header, the count and the closing hash as it goes, so the file is never
/// held whole. Returns the games the sums cover and the file's hash; the
/// error says what is wrong (an I/O error included).
pub(super) fn stream_sums(
    mut from: impl BufRead,
    net: &Network,
    mut each: impl FnMut([f32; 2]),
) -> Result<(u64, u64), String> {
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
    let expected = net.weight_count();
    if pairs != expected as u64 {
        return Err(format!(
            "line 3: {pairs} sums for a network of {expected} weights"
        ));
    }
    let mut hash = crate::fnv::hash(&head);
    let mut left = expected;
    let mut chunk = vec![0u8; READ_CHUNK];
    while left > 0 {
        let n = (8 * left).min(READ_CHUNK);
        from.read_exact(&mut chunk[..n]).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => {
                format!("line 3: {pairs} sums for a network of {expected} weights, but the file is cut short")
            }
            _ => format!("cannot read: {e}"),
        })?;
        hash = crate::fnv::extend(hash, &chunk[..n]);
        for pair in chunk[..n].chunks_exact(8) {
            let f = |at: usize| f32::from_le_bytes(pair[at..at + 4].try_into().expect("4 bytes"));
            each([f(0), f(4)]);
        }
        left -= n / 8;
    }
    let mut tail = Vec::new();
    from.take(9)
        .read_to_end(&mut tail)
        .map_err(|e| format!("cannot read: {e}"))?;
    match <[u8; 8]>::try_from(tail.as_slice()) {
        Ok(stored) if u64::from_le_bytes(stored) == hash => Ok((games, hash)),
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

/// A coherence file's header (the text before its blank line): the games
/// its sums cover and their count.
fn parse_header(header: &str) -> Result<(u64, u64), String> {
    let mut lines = header.lines();
    if lines.next() != Some(COHERENCE_FORMAT) {
        return Err(format!("line 1: expected `{COHERENCE_FORMAT}`"));
    }
    let mut field = |n: usize, name: &str| -> Result<u64, String> {
        lines
            .next()
            .and_then(|l| l.strip_prefix(name))
            .and_then(|v| v.strip_prefix(' '))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("line {n}: expected `{name} N`"))
    };
    Ok((field(2, "games")?, field(3, "pairs")?))
}
