//! The network itself: its tables stage by stage and the value it gives an
//! afterstate. Learning steps its weights through `super::learned`;
//! [`Network::adjust`] moves a board's weights directly, for building
//! networks by hand.
//!
//! `value(b) = Σ_tuples Σ_symmetries w_t[index of sym(b) on t's cells]`:
//! each tuple's index is the ranks of its cells, read from the board under
//! each of the 8 symmetries of the square (one `pext` where the CPU has
//! BMI2). The tables are held in play order, files in file order
//! (`network::order`). A split network scores a board with the tables of
//! its largest tile's stage. A search asks of a network what [`Evaluate`]
//! names.

use std::path::PathBuf;

use super::method::Method;
use super::pages;
use super::stage::{stage_reached, stage_sources, Boundary};
use super::tuples::{check_tuples, widened_tuples, MAX_TUPLES};
use crate::engine::{Board, Variant};
use crate::heuristic::Evaluate;

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
    /// How it learned beyond the rate (the last game's method).
    pub method: Method,
}

/// An n-tuple network: tuples as data, one weight table each.
#[derive(Debug, PartialEq)]
pub struct Network {
    tuples: Vec<Vec<u8>>,
    /// Each tuple's cells turned by 180°, as a mask of their nibbles: what
    /// reads an index in play order from the forms of [`symmetric_forms`].
    masks: Vec<u64>,
    /// Where each stage after the first begins, nested; empty for one stage.
    stages: Vec<Boundary>,
    /// The stages in use, from the first: a board of a later stage is
    /// scored by the last of them until learning reaches its stage and
    /// promotes it (see [`super::promote`]). All of them but while a network
    /// learned with `--promote` has not reached its last stage.
    pub(super) opened: usize,
    /// The tables stage by stage, each stage's tuple by tuple.
    weights: Vec<Vec<f32>>,
    pub trained: Trained,
}

/// A copy's tables are allocated as a new network's are (in huge pages
/// where the system gives them).
impl Clone for Network {
    fn clone(&self) -> Network {
        Network {
            tuples: self.tuples.clone(),
            masks: self.masks.clone(),
            stages: self.stages.clone(),
            opened: self.opened,
            weights: self.weights.iter().map(|t| pages::copied(t)).collect(),
            trained: self.trained,
        }
    }
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

/// A tuple's cells turned by 180°, as a mask of their nibbles: what reads
/// an index in play order from the forms of [`symmetric_forms`].
fn tuple_mask(tuple: &[u8]) -> u64 {
    tuple.iter().fold(0u64, |m, &c| m | 0xF << (4 * (15 - c)))
}

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
/// transpose, each turned by 180° (form k is symmetry k of
/// [`Board::symmetries`], turned). Turning reverses the order of the cells,
/// so a tuple's turned cells ([`Network::new`]'s masks) read a form's
/// index in play order (`network::order`): the weight the untouched
/// symmetry and cells find in file order.
#[inline(always)]
pub(super) fn symmetric_forms(b: u64, t: u64) -> [u64; 8] {
    let (mb, mt) = (mirror(b), mirror(t));
    [flip(mb), flip(b), mb, b, flip(mt), flip(t), mt, t]
}

/// The nibbles of `form` under `mask`, packed from the lowest cell up: a
/// tuple's index (one instruction where the CPU has BMI2).
#[inline(always)]
pub(super) fn gather(form: u64, mask: u64) -> usize {
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
pub(super) fn gather_portable(form: u64, mask: u64) -> usize {
    let (mut index, mut m, mut k) = (0usize, mask, 0);
    while m != 0 {
        let shift = m.trailing_zeros() & !3;
        index |= (((form >> shift) & 0xF) as usize) << (4 * k);
        m &= !(0xF << shift);
        k += 1;
    }
    index
}

/// Asks the caches for the line holding `weight`.
#[inline(always)]
pub(super) fn prefetch<T>(weight: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch only hints the cache; it reads nothing the
        // program sees and cannot fault (the address is a weight's anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(weight).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = weight;
}

impl Network {
    /// A network of `tuples` with every weight 0, never trained.
    pub fn new(
        tuples: Vec<Vec<u8>>,
        variant: Variant,
        seed: u64,
        alpha: f32,
    ) -> Result<Network, NetworkError> {
        check_tuples(&tuples).map_err(NetworkError::Tuples)?;
        let masks = tuples.iter().map(|t| tuple_mask(t)).collect();
        let weights = tuples
            .iter()
            .map(|t| pages::zeros(1 << (4 * t.len())))
            .collect();
        Ok(Network {
            tuples,
            masks,
            stages: Vec::new(),
            opened: 1,
            weights,
            trained: Trained {
                games: 0,
                seed,
                alpha,
                variant,
                method: Method::PLAIN,
            },
        })
    }

    /// This network split at `stages` (as
    /// [`parse_stages`](super::stage::parse_stages) gives them), which keep
    /// every boundary it has and add more: each new stage starts as a copy of
    /// the stage that scored its boards, so the split network scores every
    /// board as this one does. A stage not yet in use (`--promote`) makes
    /// the stages split from it not in use either.
    pub fn split(&self, stages: Vec<Boundary>) -> Result<Network, String> {
        let sources = stage_sources(&self.stages, &stages)?;
        let tables = self.tuples.len();
        Ok(Network {
            tuples: self.tuples.clone(),
            masks: self.masks.clone(),
            weights: sources
                .iter()
                .flat_map(|&from| &self.weights[from * tables..(from + 1) * tables])
                .map(|t| pages::copied(t))
                .collect(),
            opened: sources
                .iter()
                .take_while(|&&from| from < self.opened)
                .count(),
            stages,
            trained: self.trained,
        })
    }

    /// This network with `extra` tuples after its own, each with a table
    /// of zeros in every stage: it scores every board as this one does, and
    /// learning on spreads what it learns over the wider set. Refused as
    /// [`widened_tuples`] refuses.
    pub fn widen(self, extra: &[Vec<u8>]) -> Result<Network, String> {
        let tuples = widened_tuples(&self.tuples, extra)?;
        let masks = tuples.iter().map(|t| tuple_mask(t)).collect();
        let own = self.tuples.len();
        let mut weights = Vec::with_capacity((self.stages.len() + 1) * tuples.len());
        let mut tables = self.weights.into_iter();
        for _ in 0..=self.stages.len() {
            weights.extend(tables.by_ref().take(own));
            weights.extend(extra.iter().map(|t| pages::zeros(1 << (4 * t.len()))));
        }
        Ok(Network {
            tuples,
            masks,
            stages: self.stages,
            opened: self.opened,
            weights,
            trained: self.trained,
        })
    }

    /// Gives a new network the stages `stages` (nested, as
    /// [`parse_stages`](super::stage::parse_stages) gives them), every
    /// weight of the later stages 0.
    pub fn set_stages(&mut self, stages: Vec<Boundary>) {
        assert!(
            self.stages.is_empty() && self.trained.games == 0,
            "stages are set on a new network"
        );
        let tables = self.tuples.len();
        for _ in &stages {
            for t in 0..tables {
                self.weights.push(pages::zeros(self.weights[t].len()));
            }
        }
        self.opened = stages.len() + 1;
        self.stages = stages;
    }

    /// The tuples, as cell lists.
    pub fn tuples(&self) -> &[Vec<u8>] {
        &self.tuples
    }

    /// Where its stages after the first begin (empty: one stage).
    pub fn stages(&self) -> &[Boundary] {
        &self.stages
    }

    /// The first of the tables that score `board`: its stage's.
    #[inline(always)]
    fn first_table(&self, board: Board) -> usize {
        self.stage_reached(board).min(self.opened - 1) * self.masks.len()
    }

    /// The stage `board` belongs to by its largest tiles, whether or not
    /// that stage is in use yet (0 for a one-stage network).
    #[inline(always)]
    pub(super) fn stage_reached(&self, board: Board) -> usize {
        stage_reached(&self.stages, board)
    }

    /// The stage whose tables score `board` (0 for a one-stage network): its
    /// own, or the last in use where its own is not yet.
    #[inline(always)]
    pub fn stage_of(&self, board: Board) -> usize {
        self.first_table(board) / self.masks.len()
    }

    /// Each tuple's cells turned by 180°, as a mask of their nibbles (to
    /// gather from the forms of [`symmetric_forms`]).
    pub(super) fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// Sets every weight to `w`: each board is then worth `w` ×
    /// [`Network::lookups`], an optimistic start where that is high.
    pub fn fill(&mut self, w: f32) {
        for table in &mut self.weights {
            table.fill(w);
        }
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
    pub(super) fn for_each_index(
        &self,
        board: Board,
        trans: Board,
        mut f: impl FnMut(usize, usize),
    ) {
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

    /// [`Network::value_pair`] of each of `boards` (a node's children, each
    /// given with its transpose) where `live`, bit for bit, and 0 where not.
    /// Every child's lookups are computed once and all fetched before the
    /// first is summed, so that their cache misses overlap.
    #[inline(always)]
    pub fn values_of(&self, boards: &[(Board, Board); 4], live: [bool; 4]) -> [f32; 4] {
        let tuples = self.masks.len();
        let mut first = [0usize; 4];
        let mut at = [[0u32; 8 * MAX_TUPLES]; 4];
        for k in 0..4 {
            if !live[k] {
                continue;
            }
            let (board, trans) = boards[k];
            first[k] = self.first_table(board);
            let forms = symmetric_forms(board.0, trans.0);
            let tables = self.weights[first[k]..].iter().zip(&self.masks);
            for ((w, &mask), at) in tables.zip(at[k].chunks_exact_mut(8)) {
                for (form, i) in forms.into_iter().zip(at) {
                    let index = gather(form, mask);
                    prefetch(&w[index]);
                    *i = index as u32;
                }
            }
        }
        let mut values = [0.0f32; 4];
        for k in 0..4 {
            if !live[k] {
                continue;
            }
            // In value_pair's order: each tuple's eight, then the tuples'.
            let tables = &self.weights[first[k]..first[k] + tuples];
            values[k] = tables
                .iter()
                .zip(at[k].chunks_exact(8))
                .fold(0.0f32, |sum, (w, at)| {
                    sum + at.iter().fold(0.0f32, |part, &i| part + w[i as usize])
                });
        }
        values
    }

    /// Asks the caches for every weight [`Network::value_pair`] of `board`
    /// will read. With the tables far beyond the caches, a board's lookups
    /// are cache misses; a caller that knows the next few boards it will
    /// value fetches them all first, so their misses overlap.
    #[inline(always)]
    pub fn prefetch_pair(&self, board: Board, trans: Board) {
        let forms = symmetric_forms(board.0, trans.0);
        let first = self.first_table(board);
        for (w, &mask) in self.weights[first..].iter().zip(&self.masks) {
            for form in forms {
                prefetch(&w[gather(form, mask)]);
            }
        }
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
        // (r − 1)·2^r is 0 for ranks 0 and 1 too, as saturating: shifts the
        // compiler does in one vector for all 16 cells (a table of points
        // became a gather, several times slower). Summed as integers: at
        // most 16 × 14 × 32768 < 2^24, so every partial sum is exact in f32
        // and the order of the sum cannot matter.
        let b = board.0;
        (0..16)
            .map(|i| {
                let rank = ((b >> (4 * i)) & 0xF) as u32;
                rank.saturating_sub(1) << rank
            })
            .sum::<u32>() as f32
    }

    /// The weight tables, stage by stage and in each tuple by tuple, each
    /// in play order (`network::order`).
    pub fn tables(&self) -> &[Vec<f32>] {
        &self.weights
    }

    /// The weight tables in play order, to be filled by a reader or a blend.
    pub(super) fn tables_mut(&mut self) -> &mut [Vec<f32>] {
        &mut self.weights
    }
}

/// A network scores a leaf as the points earned to reach it plus the points
/// it expects to come, so leaves reached along different paths compare as
/// whole-game scores.
impl Evaluate for Network {
    const CACHE_LEAVES: bool = true;

    #[inline(always)]
    fn eval_pair(&self, board: Board, transpose: Board) -> f32 {
        Network::implied_score(board) + self.value_pair(board, transpose)
    }

    /// The points earned to reach `board` itself, and those `seen` expects.
    #[inline]
    fn eval_as(&self, board: Board, seen: Board) -> f32 {
        Network::implied_score(board) + self.value_pair(seen, seen.transpose())
    }

    #[inline(always)]
    fn prefetch_pair(&self, board: Board, transpose: Board) {
        Network::prefetch_pair(self, board, transpose);
    }

    #[inline(always)]
    fn eval_children(&self, board: Board, children: &[(Board, Board); 4]) -> [f32; 4] {
        let live = children.map(|(next, _)| next != board);
        let values = self.values_of(children, live);
        std::array::from_fn(|k| {
            if live[k] {
                Network::implied_score(children[k].0) + values[k]
            } else {
                0.0
            }
        })
    }

    #[inline]
    fn dead_end_cost(&self, _root: Board) -> f32 {
        0.0
    }

    #[inline]
    fn largest_tile_value(&self, board: Board) -> f32 {
        crate::engine::value_of(board.max_rank()) as f32
    }
}
