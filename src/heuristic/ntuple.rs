//! A learned board value: an n-tuple network.
//!
//! A tuple is a list of cells. Its table holds one weight per way of filling
//! those cells with ranks (16^n entries for n cells). The network scores an
//! afterstate (a board after a move, before the spawn) as the sum, over its
//! tuples and the 8 symmetries of the square, of the weight its cells pick:
//!
//! `value(b) = Σ_tuples Σ_symmetries w_t[index of sym(b) on t's cells]`
//!
//! Trained by temporal differences (`crate::tune::learn`), the value
//! estimates the points a game will still earn after the afterstate. A
//! search adds the points already earned on the way to a leaf (see
//! [`Network::implied_score`]), so its leaves compare as whole-game scores.
//!
//! A network may be split into stages by the largest tile: with boundaries
//! t_1 < … < t_k, a board whose largest tile is at least t_j and below
//! t_{j+1} is scored by stage j's tables (stage 0 below t_1). Each stage has
//! a full set of tables, so what a late stage learns cannot move the values
//! of the early game.
//!
//! Files: a short text header (format line, tuples, the stages where there
//! are more than one, training record, weight count), a blank line, the weights as little-endian f32 tuple by
//! tuple, and the FNV-1a hash of everything before it (8 bytes,
//! little-endian). A file that is cut short, altered or not a network is
//! refused with a message naming it and what is wrong.

use std::path::{Path, PathBuf};

use super::packed::Packing;
use crate::engine::{Board, Variant};

/// The first line of every network file.
const FORMAT_LINE: &str = "tune2048 n-tuple network 1";

/// The most cells a tuple may have (a 16^7 table is 1 GiB of weights).
pub const MAX_TUPLE_CELLS: usize = 6;

/// The most tuples a network may have.
pub const MAX_TUPLES: usize = 16;

/// The most stage boundaries a network may have (each stage is a full set
/// of tables).
pub const MAX_STAGE_BOUNDARIES: usize = 3;

/// How a network was trained: what `learn --resume` checks and continues.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trained {
    /// Games of self-play learned from.
    pub games: u64,
    /// The run seed the games' seeds derive from.
    pub seed: u64,
    /// The learning rate of the last game learned from.
    pub alpha: f32,
    /// The game its games were played in.
    pub variant: Variant,
}

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

/// An n-tuple network: tuples as data, one weight table each.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    tuples: Vec<Vec<u8>>,
    /// Each tuple's cells as a mask of their nibbles.
    masks: Vec<u64>,
    /// The ranks at which a stage begins, ascending; empty for one stage.
    stages: Vec<u8>,
    /// The tables stage by stage, each stage's tuple by tuple.
    weights: Vec<Vec<f32>>,
    pub trained: Trained,
}

/// Why a network could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {problem}")]
    Format { path: PathBuf, problem: String },
    #[error("{0}")]
    Tuples(String),
}

/// The tuples of the named networks `learn` offers (`--tuples NAME`).
pub fn named_tuples(name: &str) -> Option<Vec<Vec<u8>>> {
    let t: &[&[u8]] = match name {
        // The four lines of a board edge and its next row, and the three
        // kinds of 2×2 square (corner, edge, centre): 5 tables of 65,536.
        "lines-squares" => &[
            &[0, 1, 2, 3],
            &[4, 5, 6, 7],
            &[0, 1, 4, 5],
            &[1, 2, 5, 6],
            &[5, 6, 9, 10],
        ],
        // Two 2×3 rectangles and two 6-cell bends along an edge: 4 tables of
        // 16,777,216 (256 MiB of weights).
        "six" => &[
            &[0, 1, 2, 3, 4, 5],
            &[4, 5, 6, 7, 8, 9],
            &[0, 1, 2, 4, 5, 6],
            &[4, 5, 6, 8, 9, 10],
        ],
        // Two 5-cell bends and two 5-cell pieces of the second and third
        // rows: 4 tables of 1,048,576.
        "five" => &[
            &[0, 1, 2, 3, 4],
            &[4, 5, 6, 7, 8],
            &[0, 1, 2, 4, 5],
            &[4, 5, 6, 8, 9],
        ],
        _ => return None,
    };
    Some(t.iter().map(|c| c.to_vec()).collect())
}

/// The names [`named_tuples`] knows.
pub const TUPLE_NAMES: [&str; 3] = ["lines-squares", "five", "six"];

/// `board` mirrored left to right: each row's nibbles reversed.
#[inline(always)]
fn mirror(b: u64) -> u64 {
    ((b >> 12) & 0x000F_000F_000F_000F)
        | ((b >> 4) & 0x00F0_00F0_00F0_00F0)
        | ((b << 4) & 0x0F00_0F00_0F00_0F00)
        | ((b << 12) & 0xF000_F000_F000_F000)
}

/// `board` mirrored top to bottom: its rows reversed.
#[inline(always)]
fn flip(b: u64) -> u64 {
    (b << 48)
        | ((b << 16) & 0x0000_FFFF_0000_0000)
        | ((b >> 16) & 0x0000_0000_FFFF_0000)
        | (b >> 48)
}

/// The board under the 8 symmetries of the square, from the board and its
/// transpose (the order of [`Board::symmetries`]).
#[inline(always)]
fn symmetric_forms(b: u64, t: u64) -> [u64; 8] {
    let (mb, mt) = (mirror(b), mirror(t));
    [b, mb, flip(b), flip(mb), t, mt, flip(t), flip(mt)]
}

/// The nibbles of `form` under `mask`, packed from the lowest cell up: a
/// tuple's index (one instruction where the CPU has BMI2).
#[inline(always)]
fn gather(form: u64, mask: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target has BMI2 (checked at compile time).
        unsafe { core::arch::x86_64::_pext_u64(form, mask) as usize }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        gather_portable(form, mask)
    }
}

/// [`gather`] without BMI2: nibble by nibble.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
fn gather_portable(form: u64, mask: u64) -> usize {
    let (mut index, mut m, mut k) = (0usize, mask, 0);
    while m != 0 {
        let shift = m.trailing_zeros() & !3;
        index |= (((form >> shift) & 0xF) as usize) << (4 * k);
        m &= !(0xF << shift);
        k += 1;
    }
    index
}

/// Checks one tuple: 1..=[`MAX_TUPLE_CELLS`] cells, each on the board, no cell twice.
fn check_tuple(cells: &[u8]) -> Result<(), String> {
    if cells.is_empty() || cells.len() > MAX_TUPLE_CELLS {
        return Err(format!(
            "a tuple has 1 to {MAX_TUPLE_CELLS} cells, not {}",
            cells.len()
        ));
    }
    for (i, &c) in cells.iter().enumerate() {
        if c >= 16 {
            return Err(format!("cell {c} is outside the board (cells are 0..16)"));
        }
        if i > 0 && cells[i - 1] >= c {
            return Err(format!(
                "cells are listed in ascending order, each once ({} then {c})",
                cells[i - 1]
            ));
        }
    }
    Ok(())
}

/// Parses stage boundaries written as tiles, `16384` or `8192,16384`:
/// their ranks, ascending, at most [`MAX_STAGE_BOUNDARIES`] of them.
pub fn parse_stages(text: &str) -> Result<Vec<u8>, String> {
    let ranks = text
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<u32>()
                .ok()
                .and_then(crate::engine::rank_of)
                .filter(|&r| r >= 2)
                .ok_or_else(|| format!("`{t}` is not a tile from 4 to 32768"))
        })
        .collect::<Result<Vec<u8>, String>>()?;
    if ranks.len() > MAX_STAGE_BOUNDARIES {
        return Err(format!(
            "at most {MAX_STAGE_BOUNDARIES} stage boundaries, not {}",
            ranks.len()
        ));
    }
    if ranks.windows(2).any(|w| w[0] >= w[1]) {
        return Err("stage boundaries are listed in ascending order, each once".into());
    }
    Ok(ranks)
}

/// Stage boundaries as a header or a message writes them: `8192,16384`.
pub fn stages_text(ranks: &[u8]) -> String {
    ranks
        .iter()
        .map(|&r| crate::engine::value_of(r).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses tuples written as cell lists, `0,1,2,3 4,5,6,7`.
pub fn parse_tuples(text: &str) -> Result<Vec<Vec<u8>>, String> {
    let tuples = text
        .split_whitespace()
        .map(|t| {
            t.split(',')
                .map(|c| {
                    c.parse::<u8>()
                        .map_err(|_| format!("`{c}` in tuple `{t}` is not a cell number"))
                })
                .collect::<Result<Vec<u8>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    if tuples.is_empty() {
        return Err("no tuples given".into());
    }
    Ok(tuples)
}

impl Network {
    /// A network of `tuples` with every weight 0, never trained.
    pub fn new(
        tuples: Vec<Vec<u8>>,
        variant: Variant,
        seed: u64,
        alpha: f32,
    ) -> Result<Network, NetworkError> {
        for t in &tuples {
            check_tuple(t).map_err(NetworkError::Tuples)?;
        }
        if tuples.is_empty() || tuples.len() > MAX_TUPLES {
            return Err(NetworkError::Tuples(format!(
                "a network has 1 to {MAX_TUPLES} tuples, not {}",
                tuples.len()
            )));
        }
        let masks = tuples
            .iter()
            .map(|t| t.iter().fold(0u64, |m, &c| m | 0xF << (4 * c)))
            .collect();
        let weights = tuples
            .iter()
            .map(|t| vec![0.0; 1 << (4 * t.len())])
            .collect();
        Ok(Network {
            tuples,
            masks,
            stages: Vec::new(),
            weights,
            trained: Trained {
                games: 0,
                seed,
                alpha,
                variant,
            },
        })
    }

    /// This one-stage network split at `stages` (ranks, as
    /// [`parse_stages`] gives them): every stage starts as a copy of its
    /// tables, so the split network scores every board as this one does.
    pub fn split(&self, stages: Vec<u8>) -> Result<Network, String> {
        if !self.stages.is_empty() {
            return Err(format!(
                "the network is split already (stages at {})",
                stages_text(&self.stages)
            ));
        }
        let mut net = self.clone();
        for _ in &stages {
            net.weights.extend_from_slice(&self.weights);
        }
        net.stages = stages;
        Ok(net)
    }

    /// Gives a new network the stages `stages` (ranks, ascending), every
    /// weight of the later stages 0.
    pub fn set_stages(&mut self, stages: Vec<u8>) {
        assert!(
            self.stages.is_empty() && self.trained.games == 0,
            "stages are set on a new network"
        );
        let tables = self.tuples.len();
        for _ in &stages {
            for t in 0..tables {
                self.weights.push(vec![0.0; self.weights[t].len()]);
            }
        }
        self.stages = stages;
    }

    /// The mean of `nets`, weight by weight: since a value is a sum of
    /// weights, the blend scores every board at the mean of the networks'
    /// values. They must share tuples, stages and variant; the blend keeps
    /// the first one's training record.
    pub fn blend(nets: &[&Network]) -> Result<Network, String> {
        let (first, rest) = nets.split_first().ok_or("nothing to blend")?;
        for (i, net) in rest.iter().enumerate() {
            let differs = if net.tuples != first.tuples {
                "tuples"
            } else if net.stages != first.stages {
                "stages"
            } else if net.trained.variant != first.trained.variant {
                "variant"
            } else {
                continue;
            };
            return Err(format!(
                "network {} has other {differs} than network 1",
                i + 2
            ));
        }
        let mut out = (*first).clone();
        let share = 1.0 / nets.len() as f64;
        for (t, table) in out.weights.iter_mut().enumerate() {
            for (i, w) in table.iter_mut().enumerate() {
                let sum: f64 = nets.iter().map(|n| f64::from(n.weights[t][i])).sum();
                *w = (sum * share) as f32;
            }
        }
        Ok(out)
    }

    /// The tuples, as cell lists.
    pub fn tuples(&self) -> &[Vec<u8>] {
        &self.tuples
    }

    /// The ranks at which its stages begin (empty: one stage).
    pub fn stages(&self) -> &[u8] {
        &self.stages
    }

    /// The first of the tables that score `board`: its stage's.
    #[inline(always)]
    fn first_table(&self, board: Board) -> usize {
        if self.stages.is_empty() {
            return 0;
        }
        let top = board.max_rank();
        let stage = self.stages.iter().take_while(|&&r| top >= r).count();
        stage * self.masks.len()
    }

    /// Weights looked up per board: tuples × 8.
    pub fn lookups(&self) -> usize {
        8 * self.tuples.len()
    }

    /// Every weight, tuple by tuple.
    pub fn weight_count(&self) -> usize {
        self.weights.iter().map(Vec::len).sum()
    }

    /// Calls `f` with each tuple's table and the index `board` (given with
    /// its transpose) picks in it under each symmetry, tuple by tuple.
    #[inline(always)]
    fn for_each_index(&self, board: Board, trans: Board, mut f: impl FnMut(usize, usize)) {
        let forms = symmetric_forms(board.0, trans.0);
        let first = self.first_table(board);
        for (t, &mask) in self.masks.iter().enumerate() {
            for form in forms {
                f(first + t, gather(form, mask));
            }
        }
    }

    /// The learned value of an afterstate: points still to come.
    #[inline]
    pub fn value(&self, board: Board) -> f32 {
        self.value_pair(board, board.transpose())
    }

    /// [`Network::value`] of `board` given with its transpose. Each tuple's
    /// eight weights are summed in turn, then the tuples' sums in order.
    #[inline(always)]
    pub fn value_pair(&self, board: Board, trans: Board) -> f32 {
        let forms = symmetric_forms(board.0, trans.0);
        let first = self.first_table(board);
        let mut sum = 0.0f32;
        for (w, &mask) in self.weights[first..].iter().zip(&self.masks) {
            let mut part = 0.0f32;
            for form in forms {
                // The index has 4 bits per cell of the tuple: within the table.
                part += w[gather(form, mask)];
            }
            sum += part;
        }
        sum
    }

    /// Adds `step` to every weight `board` looks up, once per lookup: the
    /// value moves by [`Network::lookups`] × `step`, and more where several
    /// lookups pick one weight (a weight picked k times moves the value k²
    /// times).
    pub fn adjust(&mut self, board: Board, step: f32) {
        let mut picked = [(0usize, 0usize); 8 * MAX_TUPLES];
        let mut n = 0;
        self.for_each_index(board, board.transpose(), |t, i| {
            picked[n] = (t, i);
            n += 1;
        });
        for &(t, i) in &picked[..n] {
            self.weights[t][i] += step;
        }
    }

    /// The points a game has earned to reach `board`, counting every tile
    /// as merged up from 2s: Σ over tiles of rank r ≥ 2 of (r − 1)·2^r.
    /// A spawned 4 counts 4 points it did not earn; within one search that
    /// favours a spawned 4 over a 2 by 4 points, far below what the
    /// boards' values tell apart.
    #[inline]
    pub fn implied_score(board: Board) -> f32 {
        const POINTS: [f32; 16] = {
            let mut p = [0.0f32; 16];
            let mut r = 2;
            while r < 16 {
                p[r] = ((r as u32 - 1) * (1 << r)) as f32;
                r += 1;
            }
            p
        };
        let b = board.0;
        (0..16)
            .map(|i| POINTS[((b >> (4 * i)) & 0xF) as usize])
            .sum()
    }

    /// The header's lines after the format line, each ending in a newline:
    /// the tuples, the stages (where there are more than one), the training
    /// record and the weight count.
    pub(super) fn header_fields(&self) -> String {
        let tuples: Vec<String> = self
            .tuples
            .iter()
            .map(|t| t.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect();
        let stages = if self.stages.is_empty() {
            String::new()
        } else {
            format!("stages {}\n", stages_text(&self.stages))
        };
        format!(
            "tuples {}\n{stages}variant {}\ngames {}\nseed {}\nalpha {}\nweights {}\n",
            tuples.join(" "),
            variant_text(self.trained.variant),
            self.trained.games,
            self.trained.seed,
            self.trained.alpha,
            self.weight_count()
        )
    }

    /// The weight tables, stage by stage and in each tuple by tuple.
    pub fn tables(&self) -> &[Vec<f32>] {
        &self.weights
    }

    /// The weight tables, to be filled by a reader.
    pub(super) fn tables_mut(&mut self) -> &mut [Vec<f32>] {
        &mut self.weights
    }

    /// The file's bytes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!("{FORMAT_LINE}\n{}\n", self.header_fields()).into_bytes();
        out.reserve(4 * self.weight_count() + 8);
        for w in self.weights.iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let hash = crate::fnv::hash(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Writes the network to `path` whole or not at all.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::atomic_file::write(path, &self.to_bytes())
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

    /// Parses a network file's bytes, full or [packed](super::packed); the
    /// error says what is wrong and where.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        Network::read(bytes).map(|(net, _)| net)
    }

    /// [`Network::from_bytes`], with how the file was packed if it was.
    pub fn read(bytes: &[u8]) -> Result<(Network, Option<Packing>), String> {
        let end = bytes
            .windows(2)
            .position(|w| w == b"\n\n")
            .ok_or("not a tune2048 network file (no header)")?;
        let header = std::str::from_utf8(&bytes[..end])
            .map_err(|_| "not a tune2048 network file (the header is not text)")?;
        let mut header = Header::new(header);
        let packed = match header.next_line() {
            Some((_, FORMAT_LINE)) => false,
            Some((_, super::packed::FORMAT_LINE)) => true,
            Some((_, l)) => {
                return Err(format!(
                    "line 1: expected `{FORMAT_LINE}` or `{}`, found `{}`",
                    super::packed::FORMAT_LINE,
                    l.chars().take(60).collect::<String>()
                ))
            }
            None => return Err("empty header".into()),
        };
        let mut net = header.network()?;
        let body = &bytes[end + 2..];
        if packed {
            let packing = super::packed::read_body(&mut net, &mut header, bytes, end + 2)?;
            return Ok((net, Some(packing)));
        }
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
        for table in &mut net.weights {
            for w in table.iter_mut() {
                *w = values.next().expect("the length was checked");
            }
        }
        if let Some(i) = net.weights.iter().flatten().position(|w| !w.is_finite()) {
            return Err(format!("weight {i} is not a finite number"));
        }
        Ok((net, None))
    }
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
    fn new(text: &'a str) -> Header<'a> {
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

    /// The fields every network file has, after the format line: a network
    /// of those tuples and that training record, its weights all 0.
    fn network(&mut self) -> Result<Network, String> {
        let (n, text) = self.field("tuples")?;
        let tuples = parse_tuples(text).map_err(|e| bad_field(n, "tuples", &e))?;
        for t in &tuples {
            check_tuple(t).map_err(|e| bad_field(n, "tuples", &e))?;
        }
        let stages = match self.lines.peek() {
            Some(line) if line.starts_with("stages ") => {
                let (n, text) = self.field("stages")?;
                parse_stages(text).map_err(|e| bad_field(n, "stages", &e))?
            }
            _ => Vec::new(),
        };
        let (n, text) = self.field("variant")?;
        let variant = parse_variant(text).map_err(|e| bad_field(n, "variant", &e))?;
        let games = self.parsed::<u64>("games")?;
        let seed = self.parsed::<u64>("seed")?;
        let alpha = self.amount("alpha", false)?;
        let (n, text) = self.field("weights")?;
        let count = text
            .parse::<usize>()
            .map_err(|e| bad_field(n, "weights", &e))?;
        let mut net = Network::new(tuples, variant, seed, alpha).map_err(|e| e.to_string())?;
        net.set_stages(stages);
        net.trained.games = games;
        if count != net.weight_count() {
            return Err(format!(
                "line {n}, field `weights`: {count}, but the tuples have {}",
                net.weight_count()
            ));
        }
        Ok(net)
    }
}

/// The message for a header field whose value is wrong.
pub(super) fn bad_field(line: usize, name: &str, e: &dyn std::fmt::Display) -> String {
    format!("line {line}, field `{name}`: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(values: [u32; 16]) -> Board {
        Board::from_values(values).unwrap()
    }

    #[test]
    fn a_value_is_the_same_under_every_symmetry() {
        let mut net = Network::new(
            named_tuples("lines-squares").unwrap(),
            Variant::CLASSIC,
            1,
            0.1,
        )
        .unwrap();
        let b = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        net.adjust(b, 1.0);
        // 40 lookups; a weight picked k times went up by k and is read k
        // times (the empty lines and squares repeat).
        let mut picks = std::collections::HashMap::new();
        net.for_each_index(b, b.transpose(), |t, i| {
            *picks.entry((t, i)).or_insert(0u32) += 1
        });
        assert_eq!(picks.values().sum::<u32>(), 40);
        let squares: u32 = picks.values().map(|k| k * k).sum();
        assert!(squares > 40);
        assert_eq!(net.value(b), squares as f32);
        for s in b.symmetries() {
            assert_eq!(net.value(s), net.value(b));
        }
        // Another board shares some of those weights, not all.
        let other = board([2, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(net.value(other) > 0.0 && net.value(other) < net.value(b));
    }

    #[test]
    fn a_lookup_reads_the_cells_in_tuple_order() {
        let mut net = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 1, 0.1).unwrap();
        // Cell 0 holds rank 1 (a 2), cell 1 rank 2 (a 4): index 1 + 2·16.
        let b = board([2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        net.weights[0][1 + 2 * 16] = 5.0;
        assert_eq!(net.value(b), 5.0);
        // Mirrored, the pair (4, 2) sits at cells (3, 2): symmetry 1 maps
        // cell 0 to cell 3 and cell 1 to cell 2, so it reads the same entry.
        assert_eq!(net.value(b.mirror()), 5.0);
    }

    #[test]
    fn the_symmetric_forms_are_the_boards_symmetries() {
        let b = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let forms = symmetric_forms(b.0, b.transpose().0);
        assert_eq!(forms, b.symmetries().map(|s| s.0));
        // The index of a tuple is its cells' ranks from the lowest cell up.
        let mask = 0xF << 4 | 0xF << 12 | 0xF << 28;
        assert_eq!(gather(b.0, mask), 2 | 4 << 4 | 5 << 8);
        for form in forms {
            for t in named_tuples("six").unwrap() {
                let mask = t.iter().fold(0u64, |m, &c| m | 0xF << (4 * c));
                assert_eq!(gather(form, mask), gather_portable(form, mask));
            }
        }
    }

    #[test]
    fn the_implied_score_counts_merges_from_twos() {
        assert_eq!(Network::implied_score(Board::EMPTY), 0.0);
        let b = board([2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048]);
        // 2: 0; 4: 4; 8: 16; 2048: 10·2048.
        assert_eq!(Network::implied_score(b), (4 + 16 + 10 * 2048) as f32);
    }

    #[test]
    fn a_file_reads_back_bit_for_bit() {
        let mut net = Network::new(
            named_tuples("lines-squares").unwrap(),
            Variant::Twos,
            7,
            0.25,
        )
        .unwrap();
        net.adjust(
            board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]),
            -0.3,
        );
        net.trained.games = 1234;
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let net = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 7, 0.25).unwrap();
        let bytes = net.to_bytes();
        let cut = Network::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(cut.contains("cut short"), "{cut}");
        let mut flipped = bytes.clone();
        let last = flipped.len() - 20;
        flipped[last] ^= 1;
        let e = Network::from_bytes(&flipped).unwrap_err();
        assert!(e.contains("hash does not match"), "{e}");
        let text = String::from_utf8_lossy(&bytes).replace("tuples 0,1", "tuples 0,19");
        let e = Network::from_bytes(text.as_bytes()).unwrap_err();
        assert!(
            e.contains("line 2, field `tuples`") && e.contains("cell 19"),
            "{e}"
        );
        // A rate that is not a number, with the hash made to match: the
        // fuzzer's find (a NaN rate made a network unequal to itself).
        let mut nan = String::from_utf8_lossy(&bytes)
            .replacen("alpha 0.25", "alpha nan", 1)
            .into_bytes();
        let n = nan.len();
        let hash = crate::fnv::hash(&nan[..n - 8]);
        nan[n - 8..].copy_from_slice(&hash.to_le_bytes());
        let e = Network::from_bytes(&nan).unwrap_err();
        assert!(e.contains("line 6, field `alpha`"), "{e}");
        let extra = String::from_utf8_lossy(&bytes).replacen("\n\n", "\nstep 16\n\n", 1);
        let e = Network::from_bytes(extra.as_bytes()).unwrap_err();
        assert!(e.contains("line 8: unexpected `step 16`"), "{e}");
        let e = Network::from_bytes(b"hello\n\nworld").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        let e = Network::from_bytes(b"no header at all").unwrap_err();
        assert!(e.contains("no header"), "{e}");
    }

    #[test]
    fn a_split_network_scores_as_before_until_a_stage_learns() {
        let mut net = Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::Twos, 3, 0.1).unwrap();
        let early = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let late = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 16384, 0, 0, 2]);
        let later = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 32768, 0, 0, 2]);
        net.adjust(early, 1.5);
        net.adjust(late, -0.5);
        let stages = parse_stages("16384").unwrap();
        assert_eq!(stages, [14]);
        let mut split = net.split(stages).unwrap();
        assert_eq!(split.weight_count(), 2 * net.weight_count());
        for b in [early, late, later, Board::EMPTY] {
            assert_eq!(split.value(b), net.value(b), "{b:?}");
        }
        // Learning on a late board moves the late stage only: the early
        // board shares its small tiles' weights, and keeps its value.
        split.adjust(late, 2.0);
        assert_eq!(split.value(early), net.value(early));
        assert!(split.value(late) > net.value(late));
        // A board past the boundary shares the late stage's weights where
        // its cells agree with the late board's.
        assert_ne!(split.value(later), net.value(later));
        split.adjust(early, 1.0);
        assert!(split.value(early) > net.value(early));
        // The stages travel in the file, and only where there are some.
        let bytes = split.to_bytes();
        assert!(String::from_utf8_lossy(&bytes).contains("\nstages 16384\nvariant twos\n"));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), split);
        assert!(!String::from_utf8_lossy(&net.to_bytes()).contains("stages"));
    }

    #[test]
    fn a_blend_scores_a_board_at_the_mean_of_the_values() {
        let tuples = vec![vec![0, 1], vec![4, 5, 6]];
        let mut a = Network::new(tuples.clone(), Variant::Twos, 3, 0.1).unwrap();
        let mut b = Network::new(tuples.clone(), Variant::Twos, 4, 0.2).unwrap();
        let x = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let y = board([2, 0, 8, 0, 0, 2, 4, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        a.adjust(x, 1.5);
        b.adjust(y, -0.25);
        b.adjust(x, 0.5);
        let mixed = Network::blend(&[&a, &b]).unwrap();
        for board in [x, y, Board::EMPTY] {
            assert_eq!(mixed.value(board), (a.value(board) + b.value(board)) / 2.0);
        }
        assert_eq!(mixed.trained, a.trained);
        assert_eq!(Network::blend(&[&a]).unwrap(), a);
        let other = Network::new(vec![vec![0, 1]], Variant::Twos, 3, 0.1).unwrap();
        let e = Network::blend(&[&a, &b, &other]).unwrap_err();
        assert!(e.contains("network 3 has other tuples"), "{e}");
        let e = Network::blend(&[&a, &a.split(vec![14]).unwrap()]).unwrap_err();
        assert!(e.contains("network 2 has other stages"), "{e}");
        let classic = Network::new(tuples, Variant::CLASSIC, 3, 0.1).unwrap();
        assert!(Network::blend(&[&a, &classic])
            .unwrap_err()
            .contains("other variant"));
    }

    #[test]
    fn stages_are_checked() {
        assert_eq!(parse_stages("8192,16384").unwrap(), [13, 14]);
        assert!(parse_stages("16384,8192")
            .unwrap_err()
            .contains("ascending"));
        assert!(parse_stages("3000").unwrap_err().contains("`3000`"));
        assert!(parse_stages("2").unwrap_err().contains("`2`"));
        assert!(parse_stages("4,8,16,32").unwrap_err().contains("at most 3"));
        let net = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 7, 0.25).unwrap();
        let split = net.split(vec![14]).unwrap();
        assert!(split.split(vec![15]).unwrap_err().contains("split already"));
        let text =
            String::from_utf8_lossy(&split.to_bytes()).replace("stages 16384", "stages 16000");
        let e = Network::from_bytes(text.as_bytes()).unwrap_err();
        assert!(
            e.contains("line 3, field `stages`") && e.contains("`16000`"),
            "{e}"
        );
    }

    #[test]
    fn tuples_are_checked() {
        assert!(Network::new(vec![vec![0, 0]], Variant::CLASSIC, 1, 0.1).is_err());
        assert!(Network::new(vec![vec![0, 1, 2, 3, 4, 5, 6]], Variant::CLASSIC, 1, 0.1).is_err());
        assert!(Network::new(vec![], Variant::CLASSIC, 1, 0.1).is_err());
        assert_eq!(
            parse_tuples("0,1,2 3,4").unwrap(),
            vec![vec![0, 1, 2], vec![3, 4]]
        );
        assert!(parse_tuples("0,x").unwrap_err().contains("`x`"));
        for name in TUPLE_NAMES {
            assert!(named_tuples(name).is_some());
        }
    }
}
