//! What learning moves: a network's weights, or, with temporal coherence,
//! the weights held beside their sums ([`Coherence`]). Both are read and
//! stepped through a board's [`Lookups`], in the order a network's value
//! sums its weights, so that learning on either moves the same weights by
//! the same floats.

use std::ops::Range;

use super::coherence::Coherence;
use super::lookups::{Lookups, Shape};
use super::stage::stage_reached;
use super::value::{prefetch, Network};
use crate::engine::Board;

/// Weights that learning steps, with their stages in use.
pub(super) trait Learned: Send + Sync {
    /// The stages in use.
    fn opened(&self) -> usize;

    /// Puts in use every stage up to `board`'s, each a copy of the weights
    /// of the one before (see `super::promote`).
    fn promote_to(&mut self, shape: &Shape, board: Board);

    /// Asks the caches for every weight `at` looks up.
    fn fetch(&self, at: &Lookups);

    /// The value of the board `at` looks up: each tuple's 8 weights summed
    /// in turn, then the tuples' sums in order.
    fn value(&self, at: &Lookups) -> f32;

    /// Moves every weight `at` looks up, once per lookup, by `step` ×
    /// `error` (× its coherent rate, where learning keeps one).
    fn step(&mut self, at: &Lookups, step: f32, error: f32);

    /// Writes the weights `range` of table `table` to `out`.
    fn weights(&self, table: usize, range: Range<usize>, out: &mut [f32]);

    /// Asks the caches for the weights `range` of table `table`.
    fn fetch_weights(&self, table: usize, range: Range<usize>);
}

impl Learned for Network {
    fn opened(&self) -> usize {
        self.opened
    }

    fn promote_to(&mut self, _shape: &Shape, board: Board) {
        Network::promote_to(self, board);
    }

    #[inline(always)]
    fn fetch(&self, at: &Lookups) {
        for (t, index) in at.tables() {
            let table = &self.tables()[t];
            index.iter().for_each(|&i| prefetch(&table[i]));
        }
    }

    #[inline(always)]
    fn value(&self, at: &Lookups) -> f32 {
        let mut sum = 0.0f32;
        for (t, index) in at.tables() {
            let table = &self.tables()[t];
            sum += index.iter().fold(0.0f32, |part, &i| part + table[i]);
        }
        sum
    }

    #[inline(always)]
    fn step(&mut self, at: &Lookups, step: f32, error: f32) {
        let by = step * error;
        for (t, index) in at.tables() {
            let table = &mut self.tables_mut()[t];
            index.iter().for_each(|&i| table[i] += by);
        }
    }

    fn weights(&self, table: usize, range: Range<usize>, out: &mut [f32]) {
        out.copy_from_slice(&self.tables()[table][range]);
    }

    #[inline(always)]
    fn fetch_weights(&self, table: usize, range: Range<usize>) {
        let weights = &self.tables()[table][range];
        // 16 weights: one line, or two where they straddle.
        if let (Some(first), Some(last)) = (weights.first(), weights.last()) {
            prefetch(first);
            prefetch(last);
        }
    }
}

impl Learned for Coherence {
    fn opened(&self) -> usize {
        self.opened
    }

    fn promote_to(&mut self, shape: &Shape, board: Board) {
        let stage = stage_reached(&shape.stages, board);
        let tuples = shape.masks.len();
        for to in self.opened..=stage {
            let (before, after) = self.tables.split_at_mut(to * tuples);
            for (copy, source) in after[..tuples].iter_mut().zip(&before[(to - 1) * tuples..]) {
                for (c, s) in copy.iter_mut().zip(source) {
                    c.weight = s.weight;
                }
            }
        }
        self.opened = self.opened.max(stage + 1);
    }

    #[inline(always)]
    fn fetch(&self, at: &Lookups) {
        for (t, index) in at.tables() {
            let table = &self.tables[t];
            for &i in index {
                // Both ends: one tally in eight straddles two lines.
                prefetch(&table[i].weight);
                prefetch(&table[i].size);
            }
        }
    }

    #[inline(always)]
    fn value(&self, at: &Lookups) -> f32 {
        let mut sum = 0.0f32;
        for (t, index) in at.tables() {
            let table = &self.tables[t];
            sum += index.iter().fold(0.0f32, |part, &i| part + table[i].weight);
        }
        sum
    }

    #[inline(always)]
    fn step(&mut self, at: &Lookups, step: f32, error: f32) {
        for (t, index) in at.tables() {
            let table = &mut self.tables[t];
            for &i in index {
                let tally = &mut table[i];
                tally.weight += step * tally.rate() * error;
                tally.sum += error;
                tally.size += error.abs();
            }
        }
    }

    fn weights(&self, table: usize, range: Range<usize>, out: &mut [f32]) {
        for (w, tally) in out.iter_mut().zip(&self.tables[table][range]) {
            *w = tally.weight;
        }
    }

    #[inline(always)]
    fn fetch_weights(&self, table: usize, range: Range<usize>) {
        // A tally is 12 bytes: every fifth is on a line the one before was
        // not, and the last may be on one more.
        let tallies = &self.tables[table][range];
        tallies.iter().step_by(5).for_each(prefetch);
        if let Some(last) = tallies.last() {
            prefetch(last);
        }
    }
}
