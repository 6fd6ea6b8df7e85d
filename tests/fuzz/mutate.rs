//! A small deterministic mutator: input `i` of a target is a corpus entry
//! changed by a few random edits drawn from a generator seeded with `i`, so
//! any input can be made again from its number alone.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The longest input made (a splice of very long lines can grow past it:
/// the input is then cut back).
pub const MAX_LEN: usize = 1 << 20;

/// Words that parsers of numbers, RON, JSON, CSV and line protocols tend to
/// get wrong: numeric edge values, brackets, quotes, line ends, odd Unicode.
const TOKENS: &[&str] = &[
    "NaN",
    "nan",
    "inf",
    "-inf",
    "+inf",
    "infinity",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "-0.0",
    "0",
    "-1",
    "1",
    "2",
    "16",
    "17",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1.7976931348623157e308",
    "5e-324",
    "0x10",
    "1_000",
    "1.",
    ".5",
    "",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "#",
    "//",
    "/*",
    "*/",
    "\"",
    "'",
    "\\",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "Some(",
    "None",
    "true",
    "false",
    "\u{feff}",
    "é",
    "\u{0}",
    "\u{fffd}",
    "\u{1F600}",
];

/// Bytes for single-byte edits: the structure of the formats and a few
/// that are never UTF-8 on their own.
const BYTES: &[u8] = b"0123456789-+.eE ,:;()[]{}\"'#\n\r\t\x00\xff\xc3\x80";

/// Makes input `index` of a target from its corpus and the donor lines
/// (lines of every corpus, for splices between files).
pub fn input(seed: u64, index: u64, corpus: &[Vec<u8>], donors: &[Vec<u8>]) -> Vec<u8> {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut data = corpus[below(&mut rng, corpus.len())].clone();
    // One to eight edits, fewer more often; one input in 32 is left whole.
    if below(&mut rng, 32) == 0 {
        return data;
    }
    let edits = 1 + (rng.next_u32() | 0x80).trailing_zeros() as usize;
    for _ in 0..edits {
        edit(&mut data, donors, &mut rng);
    }
    data.truncate(MAX_LEN);
    data
}

/// A uniform number below `n` (`n` > 0).
pub fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn token<'a>(rng: &mut Xoshiro256PlusPlus) -> &'a [u8] {
    TOKENS[below(rng, TOKENS.len())].as_bytes()
}

/// The start of each line of `data` (0 first) and `data.len()`.
fn line_starts(data: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        data.iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    if *starts.last().unwrap() != data.len() {
        starts.push(data.len());
    }
    starts
}

/// A short length, 1 to 64, small ones more often.
fn short(rng: &mut Xoshiro256PlusPlus) -> usize {
    let most = 1 + below(rng, 64);
    1 + below(rng, most)
}

/// One random edit of `data`.
fn edit(data: &mut Vec<u8>, donors: &[Vec<u8>], rng: &mut Xoshiro256PlusPlus) {
    let at = below(rng, data.len() + 1);
    match below(rng, 12) {
        // Flip a bit.
        0 if !data.is_empty() => {
            let i = at.min(data.len() - 1);
            data[i] ^= 1 << below(rng, 8);
        }
        // Overwrite a byte.
        1 if !data.is_empty() => {
            let i = at.min(data.len() - 1);
            data[i] = BYTES[below(rng, BYTES.len())];
        }
        // Insert a token.
        2 => {
            let t = token(rng);
            data.splice(at..at, t.iter().copied());
        }
        // Delete a short range.
        3 => {
            let end = (at + short(rng)).min(data.len());
            data.drain(at..end);
        }
        // Copy a short range elsewhere.
        4 if !data.is_empty() => {
            let from = below(rng, data.len());
            let end = (from + short(rng)).min(data.len());
            let chunk = data[from..end].to_vec();
            data.splice(at..at, chunk);
        }
        // Replace the number (or word) around a position by an edge token.
        5 => {
            let is_word = |b: u8| b.is_ascii_alphanumeric() || b"-+._".contains(&b);
            let mut start = at.min(data.len());
            while start > 0 && is_word(data[start - 1]) {
                start -= 1;
            }
            let mut end = at.min(data.len());
            while end < data.len() && is_word(data[end]) {
                end += 1;
            }
            let t = token(rng);
            data.splice(start..end, t.iter().copied());
        }
        // Splice in a line of some corpus file, in place of a line or between two.
        6 | 7 if !donors.is_empty() => {
            let donor = &donors[below(rng, donors.len())];
            let starts = line_starts(data);
            let k = below(rng, starts.len());
            let start = starts[k];
            let end = if below(rng, 2) == 0 {
                start
            } else {
                starts.get(k + 1).copied().unwrap_or(data.len())
            };
            data.splice(start..end, donor.iter().copied());
        }
        // Delete or repeat a whole line.
        8 => {
            let starts = line_starts(data);
            if starts.len() > 1 {
                let k = below(rng, starts.len() - 1);
                let (start, end) = (starts[k], starts[k + 1]);
                if below(rng, 2) == 0 {
                    data.drain(start..end);
                } else {
                    let line = data[start..end].to_vec();
                    data.splice(end..end, line);
                }
            }
        }
        // Swap two lines.
        9 => {
            let starts = line_starts(data);
            if starts.len() > 2 {
                let a = below(rng, starts.len() - 1);
                let b = below(rng, starts.len() - 1);
                let (a, b) = (a.min(b), a.max(b));
                if a != b {
                    let first = data[starts[a]..starts[a + 1]].to_vec();
                    let second = data[starts[b]..starts[b + 1]].to_vec();
                    let mut out = data[..starts[a]].to_vec();
                    out.extend_from_slice(&second);
                    out.extend_from_slice(&data[starts[a + 1]..starts[b]]);
                    out.extend_from_slice(&first);
                    out.extend_from_slice(&data[starts[b + 1]..]);
                    *data = out;
                }
            }
        }
        // A very long run: a token or a digit repeated up to 100,000 times.
        10 => {
            let unit: Vec<u8> = if below(rng, 2) == 0 {
                token(rng).to_vec()
            } else {
                vec![b'0' + below(rng, 10) as u8]
            };
            let most = [10, 1_000, 100_000][below(rng, 3)];
            let times = 1 + below(rng, most);
            let run: Vec<u8> = unit
                .iter()
                .copied()
                .cycle()
                .take(unit.len() * times)
                .collect();
            data.splice(at..at, run);
        }
        // Cut the input short.
        _ => data.truncate(at),
    }
}
