//! A network file's text header and its closing hash, shared by full and
//! packed files.
//!
//! Every network file is a short text header (a format line, then the
//! fields: tuples, the stages where there are more than one (and the stages
//! in use while some are to be promoted), the training
//! record, the weight count; a packed file adds fields of its own), a blank
//! line, a body, and the FNV-1a hash of everything before it (8 bytes,
//! little-endian). The bodies are read and written in [`super::files`]
//! (full) and [`super::packed`].

use super::method::Method;
use super::stage::{parse_stages, stages_text, Boundary};
use super::tuples::{check_tuples, parse_tuples, tuples_text};
use super::value::{Network, Trained};
use crate::engine::Variant;

/// The first line of every full network file.
pub const FORMAT_LINE: &str = "tune2048 n-tuple network 1";

/// A variant as a network file's header writes it: `classic P4` or `twos`.
fn variant_text(v: Variant) -> String {
    match v {
        Variant::Classic { p4 } => format!("classic {p4}"),
        Variant::Twos => "twos".into(),
    }
}

fn parse_variant(text: &str) -> Result<Variant, String> {
    match text.split_once(' ') {
        None if text == "twos" => Ok(Variant::Twos),
        Some(("classic", p4)) => match p4.parse::<f64>() {
            Ok(p4) if (0.0..=1.0).contains(&p4) => Ok(Variant::Classic { p4 }),
            _ => Err(format!("`{p4}` is not a probability")),
        },
        _ => Err(format!("expected `classic P4` or `twos`, found `{text}`")),
    }
}

/// The header's lines after the format line, each ending in a newline:
/// the tuples, the stages (where there are more than one), the training
/// record (with the method where it is not plain TD(0)) and the weight
/// count.
pub(super) fn header_fields(net: &Network) -> String {
    let stages = if net.stages().is_empty() {
        String::new()
    } else if net.all_opened() {
        format!("stages {}\n", stages_text(net.stages()))
    } else {
        // Stages that promote, not all reached yet.
        format!(
            "stages {}\nopened {}\n",
            stages_text(net.stages()),
            net.opened()
        )
    };
    let method = if net.trained.method == Method::PLAIN {
        String::new()
    } else {
        format!("method {}\n", net.trained.method.text())
    };
    format!(
        "tuples {}\n{stages}variant {}\ngames {}\nseed {}\nalpha {}\n{method}weights {}\n",
        tuples_text(net.tuples()),
        variant_text(net.trained.variant),
        net.trained.games,
        net.trained.seed,
        net.trained.alpha,
        net.weight_count()
    )
}

/// `out` with the FNV-1a hash of its bytes appended: a whole file.
pub(super) fn append_hash(mut out: Vec<u8>) -> Vec<u8> {
    let hash = crate::fnv::hash(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// The hash a network file's bytes end with (their last 8 bytes; 0 for
/// fewer): two files with the same hash hold the same network.
pub fn stored_hash(bytes: &[u8]) -> u64 {
    bytes.len().checked_sub(8).map_or(0, |at| {
        u64::from_le_bytes(bytes[at..].try_into().expect("8 bytes"))
    })
}

/// Checks that a file's last 8 bytes are the FNV-1a hash of the rest.
pub(super) fn check_hash(bytes: &[u8]) -> Result<(), String> {
    let Some(split) = bytes.len().checked_sub(8) else {
        return Err("the file is cut short (no hash)".into());
    };
    let (data, hash) = bytes.split_at(split);
    let stored = u64::from_le_bytes(hash.try_into().expect("8 bytes"));
    if crate::fnv::hash(data) != stored {
        return Err(
            "the hash does not match the contents (the file was altered or damaged)".into(),
        );
    }
    Ok(())
}

/// A network file's header, read field by field in order.
pub(super) struct Header<'a> {
    lines: std::iter::Peekable<std::str::Lines<'a>>,
    /// The number of the line last read.
    number: usize,
}

impl<'a> Header<'a> {
    pub(super) fn new(text: &'a str) -> Header<'a> {
        Header {
            lines: text.lines().peekable(),
            number: 0,
        }
    }

    /// The next line, if any, with its number.
    pub(super) fn next_line(&mut self) -> Option<(usize, &'a str)> {
        let line = self.lines.next()?;
        self.number += 1;
        Some((self.number, line))
    }

    /// Whether the next line is the field `name` (nothing is read).
    pub(super) fn peek_field(&mut self, name: &str) -> bool {
        self.lines
            .peek()
            .is_some_and(|l| l.split_once(' ').is_some_and(|(key, _)| key == name))
    }

    /// The next line, which must be the field `name`: its line number and value.
    pub(super) fn field(&mut self, name: &str) -> Result<(usize, &'a str), String> {
        match self.next_line() {
            Some((n, l)) => match l.split_once(' ') {
                Some((key, value)) if key == name => Ok((n, value)),
                _ => Err(format!(
                    "line {n}: expected the `{name}` field, found `{l}`"
                )),
            },
            None => Err(format!("the header ends before the `{name}` field")),
        }
    }

    /// The next line as the field `name`, parsed.
    pub(super) fn parsed<T: std::str::FromStr>(&mut self, name: &str) -> Result<T, String>
    where
        T::Err: std::fmt::Display,
    {
        let (n, text) = self.field(name)?;
        text.parse::<T>().map_err(|e| bad_field(n, name, &e))
    }

    /// The next line as the field `name`: a finite number above 0, or 0
    /// too where `zero` says so.
    pub(super) fn amount(&mut self, name: &str, zero: bool) -> Result<f32, String> {
        let (n, text) = self.field(name)?;
        text.parse::<f32>()
            .ok()
            .filter(|x| x.is_finite() && (*x > 0.0 || (zero && *x == 0.0)))
            .ok_or_else(|| {
                let what = if zero {
                    "0 or a positive number"
                } else {
                    "a positive number"
                };
                bad_field(n, name, &format!("`{text}` is not {what}"))
            })
    }

    /// The fields every network file has, after the format line, read
    /// without building the network they describe.
    pub(super) fn fields(&mut self) -> Result<FileHeader, String> {
        let (n, text) = self.field("tuples")?;
        let tuples = parse_tuples(text).map_err(|e| bad_field(n, "tuples", &e))?;
        check_tuples(&tuples).map_err(|e| bad_field(n, "tuples", &e))?;
        let stages = match self.lines.peek() {
            Some(line) if line.starts_with("stages ") => {
                let (n, text) = self.field("stages")?;
                parse_stages(text).map_err(|e| bad_field(n, "stages", &e))?
            }
            _ => Vec::new(),
        };
        let opened = match self.lines.peek() {
            Some(line) if line.starts_with("opened ") => {
                let (n, text) = self.field("opened")?;
                match text.parse::<usize>() {
                    Ok(k) if (1..=stages.len()).contains(&k) => Some(k),
                    _ => {
                        let e = format!(
                            "`{text}` is not a count of stages in use from 1 to {} (one less \
                             than the stages)",
                            stages.len()
                        );
                        return Err(bad_field(n, "opened", &e));
                    }
                }
            }
            _ => None,
        };
        let (n, text) = self.field("variant")?;
        let variant = parse_variant(text).map_err(|e| bad_field(n, "variant", &e))?;
        let games = self.parsed::<u64>("games")?;
        let seed = self.parsed::<u64>("seed")?;
        let alpha = self.amount("alpha", false)?;
        let method = match self.lines.peek() {
            Some(line) if line.starts_with("method ") => {
                let (n, text) = self.field("method")?;
                Method::parse(text).map_err(|e| bad_field(n, "method", &e))?
            }
            _ => Method::PLAIN,
        };
        let (n, text) = self.field("weights")?;
        let count = text
            .parse::<usize>()
            .map_err(|e| bad_field(n, "weights", &e))?;
        let fields = FileHeader {
            tuples,
            stages,
            opened,
            trained: Trained {
                games,
                seed,
                alpha,
                variant,
                method,
            },
        };
        if count != fields.weight_count() {
            return Err(format!(
                "line {n}, field `weights`: {count}, but the tuples have {}",
                fields.weight_count()
            ));
        }
        Ok(fields)
    }
}

/// What a network file's header says of its network, read without building
/// the tables (a network file may be gigabytes): what a request can be
/// checked against before the file is loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct FileHeader {
    /// The tuples, as cell lists.
    pub tuples: Vec<Vec<u8>>,
    /// Where its stages after the first begin (empty: one stage).
    pub stages: Vec<Boundary>,
    /// The stages in use where later ones are still to be promoted (none:
    /// all of them).
    pub opened: Option<usize>,
    /// How it was trained.
    pub trained: Trained,
}

impl FileHeader {
    /// Weights in all its tables, stage by stage.
    pub fn weight_count(&self) -> usize {
        let stage: usize = self.tuples.iter().map(|t| 1 << (4 * t.len())).sum();
        stage * (self.stages.len() + 1)
    }

    /// The network it describes, every weight 0.
    pub(super) fn network(self) -> Result<Network, String> {
        let Trained {
            games,
            seed,
            alpha,
            variant,
            method,
        } = self.trained;
        let mut net = Network::new(self.tuples, variant, seed, alpha).map_err(|e| e.to_string())?;
        net.set_stages(self.stages);
        if let Some(k) = self.opened {
            net.opened = k;
        }
        net.trained.games = games;
        net.trained.method = method;
        Ok(net)
    }
}

/// The message for a header field whose value is wrong.
pub(super) fn bad_field(line: usize, name: &str, e: &dyn std::fmt::Display) -> String {
    format!("line {line}, field `{name}`: {e}")
}
