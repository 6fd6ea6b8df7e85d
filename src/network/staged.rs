//! What the copy of the network that games are played on lacks after a
//! round of learning, copied out of the learning weights ([`Changed::stage`])
//! so that learning can go on while games still play on the copy, and
//! written to the copy once they are done ([`Staged::apply`]).
//!
//! [`Changed::stage`]: super::changed::Changed::stage

use super::learned::Learned;
use super::value::{prefetch, Network};

/// Weights in a line: 64 bytes of `f32`, what a cache moves at once.
pub(super) const LINE: usize = 16;

/// How many lines ahead of its copy a line is fetched, out of the learning
/// weights and into the copy alike, so that the misses of several overlap.
pub(super) const AHEAD: usize = 16;

/// Lines of weights and whole tables, each as learning left it.
#[derive(Default)]
pub(super) struct Staged {
    /// The stages in use in the learning weights when they were copied.
    opened: usize,
    /// Tables of stages promoted since the last copy, whole.
    whole: Vec<(usize, Vec<f32>)>,
    /// Each line's table and its first weight.
    lines: Vec<(usize, usize)>,
    /// Each line's weights, [`LINE`] a line (a table's last line padded).
    values: Vec<f32>,
}

impl Staged {
    /// Empties the copy for learning weights with `opened` stages in use.
    pub(super) fn clear(&mut self, opened: usize) {
        self.opened = opened;
        self.whole.clear();
        self.lines.clear();
        self.values.clear();
    }

    /// Copies out table `table` (of `len` weights) whole.
    pub(super) fn take_whole(&mut self, learned: &impl Learned, table: usize, len: usize) {
        let mut weights = vec![0.0; len];
        learned.weights(table, 0..len, &mut weights);
        self.whole.push((table, weights));
    }

    /// Copies out line `line` of table `table` (of `len` weights).
    #[inline]
    pub(super) fn take_line(
        &mut self,
        learned: &impl Learned,
        table: usize,
        line: usize,
        len: usize,
    ) {
        let first = LINE * line;
        let last = (first + LINE).min(len);
        let at = self.values.len();
        self.values.resize(at + LINE, 0.0);
        learned.weights(table, first..last, &mut self.values[at..at + last - first]);
        self.lines.push((table, first));
    }

    /// Writes what was copied out to `on`, which equalled the learning
    /// weights before the steps that moved them.
    pub(super) fn apply(&self, on: &mut Network) {
        for (table, weights) in &self.whole {
            on.tables_mut()[*table].copy_from_slice(weights);
        }
        on.opened = self.opened;
        let tables = on.tables_mut();
        let lines = self.lines.iter().zip(self.values.chunks_exact(LINE));
        for (k, (&(table, first), values)) in lines.enumerate() {
            // The line written AHEAD lines on, asked for now so that the
            // misses of several lines overlap.
            if let Some(&(t, f)) = self.lines.get(k + AHEAD) {
                prefetch(&tables[t][f]);
            }
            let to = &mut tables[table];
            match to.get_mut(first..first + LINE) {
                // A whole line: a copy of known length, not a call.
                Some(line) => <&mut [f32; LINE]>::try_from(line)
                    .expect("a line of LINE weights")
                    .copy_from_slice(values),
                None => {
                    let rest = to.len() - first;
                    to[first..].copy_from_slice(&values[..rest]);
                }
            }
        }
    }
}
