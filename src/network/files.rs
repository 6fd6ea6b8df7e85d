//! Network files, read and written: the one reader of full and packed
//! files, and the writer of full ones.
//!
//! A full file is the [header](super::header), a blank line, the weights as
//! little-endian f32 stage by stage and tuple by tuple, each table in file
//! order (`network::order`: read into play order, and back on writing), and
//! the hash. A
//! packed file ([`super::packed`]) has a header of its own format line and
//! more fields, and its weights deflated. A file that is cut short, altered
//! or not a network is refused with a message naming it and what is wrong.

use std::path::Path;

use super::hashed;
use super::header::{header_fields, FileHeader, Header, FORMAT_LINE};
use super::order;
use super::packed::{self, Packing};
use super::value::{Network, NetworkError};

impl Network {
    /// The file's bytes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        hashed::to_vec(|sink| self.write_body(sink))
    }

    /// Writes the network to `path` whole or not at all, streamed: no copy
    /// of the file is built in memory.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        hashed::save(path, |sink| self.write_body(sink))
    }

    /// The file's bytes before its hash.
    fn write_body(&self, sink: &mut hashed::Sink) -> std::io::Result<()> {
        sink(format!("{FORMAT_LINE}\n{}\n", header_fields(self)).as_bytes())?;
        for table in self.tables() {
            let put = |w: &f32, out: &mut Vec<u8>| out.extend_from_slice(&w.to_le_bytes());
            hashed::put_all(&order::reordered(table), put, sink)?;
        }
        Ok(())
    }

    /// The hash a network file ends with, read without the rest of it:
    /// two files with the same hash hold the same network.
    pub fn file_hash(path: &Path) -> std::io::Result<u64> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(path)?;
        let mut last = [0u8; 8];
        file.seek(SeekFrom::End(-8))?;
        file.read_exact(&mut last)?;
        Ok(u64::from_le_bytes(last))
    }

    /// Reads a network file. A full file is streamed: besides the network
    /// it builds, the read holds one table in file order and a chunk of the
    /// file, not the whole file (2.4 GB for nine 6-cell tuples in four
    /// stages). A packed file, a few megabytes, is read whole.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        use std::io::Read;
        let read_error = |source| NetworkError::Read {
            path: path.to_path_buf(),
            source,
        };
        let format_error = |problem| NetworkError::Format {
            path: path.to_path_buf(),
            problem,
        };
        let file = std::fs::File::open(path).map_err(read_error)?;
        let size = file.metadata().map_err(read_error)?.len();
        let mut file = std::io::BufReader::new(file);
        let head = read_header_lines(&mut file).map_err(read_error)?;
        if !head.ends_with(b"\n\n") {
            // No header; the full reader says so, as for any bytes.
            return Network::from_bytes(&head).map_err(format_error);
        }
        let (fields, mut header, packed, body) = read_head(&head).map_err(format_error)?;
        if packed.is_some() {
            let mut bytes = head;
            file.read_to_end(&mut bytes).map_err(read_error)?;
            return Network::from_bytes(&bytes).map_err(format_error);
        }
        let mut net = fields.network().map_err(format_error)?;
        let body_len = size.saturating_sub(body as u64);
        read_full_body(&mut net, &mut header, &head[..body], file, body_len)
            .map_err(format_error)?;
        Ok(net)
    }

    /// Parses a network file's bytes, full or [packed]; the
    /// error says what is wrong and where.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        Network::read(bytes).map(|(net, _)| net)
    }

    /// [`Network::from_bytes`], with how the file was packed if it was.
    pub fn read(bytes: &[u8]) -> Result<(Network, Option<Packing>), String> {
        let (fields, mut header, packed, body) = read_head(bytes)?;
        let mut net = fields.network()?;
        if let Some(with_deltas) = packed {
            let packing = packed::read_body(&mut net, &mut header, (bytes, body), with_deltas)?;
            return Ok((net, Some(packing)));
        }
        let rest = &bytes[body..];
        read_full_body(
            &mut net,
            &mut header,
            &bytes[..body],
            rest,
            rest.len() as u64,
        )?;
        Ok((net, None))
    }

    /// What a network file's header says: its tuples, stages and training
    /// record. It reads the header alone and builds no tables, so a request
    /// can be checked against a file of gigabytes before the file is loaded.
    pub fn load_header(path: &Path) -> Result<FileHeader, NetworkError> {
        use std::io::Read;
        let read_error = |source| NetworkError::Read {
            path: path.to_path_buf(),
            source,
        };
        let mut head = Vec::new();
        std::fs::File::open(path)
            .map_err(read_error)?
            .take(HEADER_LIMIT)
            .read_to_end(&mut head)
            .map_err(read_error)?;
        read_head(&head)
            .map(|(fields, ..)| fields)
            .map_err(|problem| NetworkError::Format {
                path: path.to_path_buf(),
                problem,
            })
    }
}

/// The most bytes [`Network::load_header`] reads: a header is a few
/// hundred.
const HEADER_LIMIT: u64 = 1 << 16;

/// A file's lines up to and with its first blank one (a header and the
/// blank line that closes it), or its first [`HEADER_LIMIT`] bytes if no
/// blank line comes before.
fn read_header_lines(from: &mut impl std::io::BufRead) -> std::io::Result<Vec<u8>> {
    use std::io::{BufRead, Read};
    let mut head = Vec::new();
    let mut from = from.take(HEADER_LIMIT);
    loop {
        let start = head.len();
        if from.read_until(b'\n', &mut head)? == 0 || head[start..] == *b"\n" {
            return Ok(head);
        }
    }
}

/// A network file's header: the fields every network file has, the fields
/// still to read, whether the file is packed (and if so, whether in the
/// format that codes stages as differences), and where its body starts.
type Head<'a> = (FileHeader, Header<'a>, Option<bool>, usize);

fn read_head(bytes: &[u8]) -> Result<Head<'_>, String> {
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .ok_or("not a tune2048 network file (no header)")?;
    let header = std::str::from_utf8(&bytes[..end])
        .map_err(|_| "not a tune2048 network file (the header is not text)")?;
    let mut header = Header::new(header);
    let packed = match header.next_line() {
        Some((_, FORMAT_LINE)) => None,
        Some((_, packed::FORMAT_LINE)) => Some(false),
        Some((_, packed::FORMAT_LINE_2)) => Some(true),
        Some((_, l)) => {
            return Err(format!(
                "line 1: expected `{FORMAT_LINE}`, `{}` or `{}`, found `{}`",
                packed::FORMAT_LINE,
                packed::FORMAT_LINE_2,
                l.chars().take(60).collect::<String>()
            ))
        }
        None => return Err("empty header".into()),
    };
    let fields = header.fields()?;
    Ok((fields, header, packed, end + 2))
}

/// Reads a full file's weights into `net` (read from the header's fields,
/// its weights all 0) from `body`, which holds `body_len` bytes, after
/// checking that no field follows them; `head` is the file's bytes before
/// them, which its hash covers. A table is read in file order a chunk at a
/// time, then put in play order. A weight that is not a finite number is
/// reported once the hash has been checked, so that a damaged file is
/// called damaged.
fn read_full_body(
    net: &mut Network,
    header: &mut Header,
    head: &[u8],
    mut body: impl std::io::Read,
    body_len: u64,
) -> Result<(), String> {
    if let Some((n, line)) = header.next_line() {
        return Err(format!(
            "line {n}: unexpected `{line}` after the `weights` field"
        ));
    }
    let count = net.weight_count();
    let expected = 4 * count as u64 + 8;
    if body_len != expected {
        return Err(format!(
            "{body_len} bytes of weights and hash, expected {expected} (a file cut short or \
             with bytes added)"
        ));
    }
    // The size was checked: the file was cut short while it was read.
    let cut_short = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "the file was cut short while it was read".into(),
        _ => format!("cannot read: {e}"),
    };
    let mut hash = crate::fnv::hash(head);
    let mut chunk = vec![0u8; 4 * READ_WEIGHTS];
    let (mut first, mut not_finite) = (0, None);
    // The tables come untouched from the system (`pages::zeros`), and every
    // weight is written below. Writing them through first, before the file
    // is streamed, takes the first touch of every page out of the loop:
    // done inside it (by `reorder`, or a table at a time), a 2.4 GB file
    // took 15-19 s to read here against 10 s (performance.md).
    for table in net.tables_mut() {
        table.fill(0.0);
    }
    for table in net.tables_mut() {
        let mut in_file = Vec::with_capacity(table.len());
        while in_file.len() < table.len() {
            let n = 4 * (table.len() - in_file.len()).min(READ_WEIGHTS);
            body.read_exact(&mut chunk[..n]).map_err(cut_short)?;
            hash = crate::fnv::extend(hash, &chunk[..n]);
            let weights = chunk[..n].chunks_exact(4);
            in_file.extend(weights.map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))));
        }
        if not_finite.is_none() {
            not_finite = in_file
                .iter()
                .position(|w| !w.is_finite())
                .map(|i| first + i);
        }
        order::reorder(&in_file, table);
        first += table.len();
    }
    let mut stored = [0u8; 8];
    body.read_exact(&mut stored).map_err(cut_short)?;
    if u64::from_le_bytes(stored) != hash {
        return Err(
            "the hash does not match the contents (the file was altered or damaged)".into(),
        );
    }
    match not_finite {
        Some(i) => Err(format!("weight {i} is not a finite number")),
        None => Ok(()),
    }
}

/// How many weights a streamed read takes from a full file at a time.
const READ_WEIGHTS: usize = 1 << 18;
