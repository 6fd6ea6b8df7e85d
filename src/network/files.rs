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
use super::header::{check_hash, header_fields, FileHeader, Header, FORMAT_LINE};
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

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|source| NetworkError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Network::from_bytes(&bytes).map_err(|problem| NetworkError::Format {
            path: path.to_path_buf(),
            problem,
        })
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
        read_full_body(&mut net, &mut header, bytes, body)?;
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
/// its weights all 0), after checking that no field follows them. `bytes`
/// is the whole file; its weights start at `body`.
fn read_full_body(
    net: &mut Network,
    header: &mut Header,
    bytes: &[u8],
    body: usize,
) -> Result<(), String> {
    let body = &bytes[body..];
    if let Some((n, line)) = header.next_line() {
        return Err(format!(
            "line {n}: unexpected `{line}` after the `weights` field"
        ));
    }
    let count = net.weight_count();
    let expected = 4 * count + 8;
    if body.len() != expected {
        return Err(format!(
            "{} bytes of weights and hash, expected {expected} (a file cut short or \
             with bytes added)",
            body.len()
        ));
    }
    check_hash(bytes)?;
    let mut values = body[..4 * count]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
    let mut first = 0;
    for table in net.tables_mut() {
        let in_file: Vec<f32> = values.by_ref().take(table.len()).collect();
        if let Some(i) = in_file.iter().position(|w| !w.is_finite()) {
            return Err(format!("weight {} is not a finite number", first + i));
        }
        order::reorder(&in_file, table);
        first += table.len();
    }
    Ok(())
}
