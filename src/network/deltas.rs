//! Packed stages coded as their differences from the stage before.
//!
//! A stage split from another starts as its copy ([`Network::split`]), and
//! learning moves only part of it: of a four-stage network's last stage,
//! learned 250,000 games from a copy of the stage before, about a third of
//! the weights that are not 0 on a grid of 16 differ from that stage's at
//! all, and their differences are a few steps where the weights are tens. Packed against 0
//! such a stage costs as many entries as its first copy did, and a weight
//! left out by `--keep` falls to 0; packed against the stage before, only
//! what learning moved is written, and a weight left out falls back to the
//! stage before's, which is nearly what it was.
//!
//! A file that codes stage s so holds, for each weight of s, the difference
//! of its multiple from the same weight's multiple in stage s − 1 *as read
//! back* (so the chain is exact however the stage before was packed), and
//! lists those stages in its `deltas` field. Which stages: those whose
//! differences leave fewer weights to write than their own multiples do.
//!
//! With `--keep`, what a weight of such a stage costs when left out is its
//! difference from the stage before as read back, which depends on what the
//! stage before kept. One threshold on the ranks is applied stage by stage,
//! in order, and the threshold is found by bisection: the lowest one that
//! keeps at most the count.
//!
//! [`Network::split`]: super::value::Network::split

use super::order;
use super::packed::{KeepBy, MAX_MULTIPLE};
use super::value::Network;

/// The stages of a packed file coded as their differences from the stage
/// before: bit s set for stage s (never stage 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deltas(u64);

/// The most stages a packed file may code as differences (the bits of
/// [`Deltas`]).
const MAX_STAGES: usize = 64;

impl Deltas {
    /// Whether stage `s` is coded as its differences from stage s − 1.
    pub fn has(self, s: usize) -> bool {
        s < MAX_STAGES && self.0 >> s & 1 == 1
    }

    /// Whether no stage is.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The value of a packed file's `deltas` field: the stages, ascending,
    /// joined by commas.
    pub fn text(self) -> String {
        (1..MAX_STAGES)
            .filter(|&s| self.has(s))
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Parses a `deltas` field for a network of `stages` stages: stage
    /// numbers from 1 to stages − 1, ascending, at least one.
    pub fn parse(text: &str, stages: usize) -> Option<Deltas> {
        let mut bits = 0u64;
        let mut last = 0;
        for word in text.split(',') {
            let s: usize = word.parse().ok()?;
            if s <= last || s >= stages || s >= MAX_STAGES {
                return None;
            }
            bits |= 1 << s;
            last = s;
        }
        Some(Deltas(bits))
    }
}

/// Where each table's weights lie in a network's weights end to end, in
/// file order: stage by stage, each stage's tables tuple by tuple.
pub(super) struct Layout {
    /// The first weight of each table, then the count of all.
    starts: Vec<usize>,
    /// The tables of a stage.
    tuples: usize,
}

impl Layout {
    pub(super) fn of(net: &Network) -> Layout {
        let mut starts = vec![0];
        for table in net.tables() {
            starts.push(starts.last().expect("one") + table.len());
        }
        Layout {
            starts,
            tuples: net.tuples().len(),
        }
    }

    fn tables(&self) -> usize {
        self.starts.len() - 1
    }

    fn stages(&self) -> usize {
        self.tables() / self.tuples
    }

    /// The weights of table `t`.
    fn range(&self, t: usize) -> std::ops::Range<usize> {
        self.starts[t]..self.starts[t + 1]
    }
}

/// The stages worth coding as differences: each stage after the first
/// whose multiples differ from the stage before's in fewer places than they
/// are not 0, and by at most [`MAX_MULTIPLE`] steps.
pub(super) fn choose(multiples: &[i32], layout: &Layout) -> Deltas {
    let mut bits = 0;
    for s in 1..layout.stages().min(MAX_STAGES) {
        let (mut own, mut differ, mut fits) = (0usize, 0usize, true);
        for t in s * layout.tuples..(s + 1) * layout.tuples {
            let (this, before) = (layout.range(t), layout.range(t - layout.tuples));
            for (&k, &b) in multiples[this].iter().zip(&multiples[before]) {
                own += usize::from(k != 0);
                differ += usize::from(k != b);
                fits &= (i64::from(k) - i64::from(b)).abs() <= MAX_MULTIPLE;
            }
        }
        if fits && differ < own {
            bits |= 1 << s;
        }
    }
    Deltas(bits)
}

/// What `--keep` ranks by, for a network whose stages `deltas` are coded
/// as differences.
pub(super) struct Ranking<'a> {
    /// Each weight's sum of error sizes, in file order.
    pub(super) sizes: &'a [f32],
    pub(super) by: KeepBy,
    /// The tables kept whole, whatever their ranks.
    pub(super) whole: &'a [bool],
    pub(super) deltas: Deltas,
}

/// Keeps at most `count` of the entries `multiples` needs once `deltas`
/// code their stages as differences: the multiples become what the file
/// will read back, a weight left out taking the stage before's value (0 in
/// a stage coded alone). Refused where the tables kept whole need more.
pub(super) fn keep(
    multiples: &mut [i32],
    layout: &Layout,
    ranking: &Ranking,
    count: usize,
) -> Result<(), String> {
    let mut out = vec![0i32; multiples.len()];
    // Ranks are not negative, so their f32 bits order as they do.
    let at = |bits: u32| f32::from_bits(bits);
    if apply(multiples, layout, ranking, 0.0, &mut out) <= count {
        multiples.copy_from_slice(&out);
        return Ok(());
    }
    let (mut low, mut high) = (0u32, f32::INFINITY.to_bits());
    let whole = apply(multiples, layout, ranking, at(high), &mut out);
    if whole > count {
        return Err(format!(
            "the tables the sums never met need {whole} entries, more than the {count} \
             to keep"
        ));
    }
    // `low` keeps too many, `high` few enough.
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if apply(multiples, layout, ranking, at(mid), &mut out) <= count {
            high = mid;
        } else {
            low = mid;
        }
    }
    apply(multiples, layout, ranking, at(high), &mut out);
    multiples.copy_from_slice(&out);
    Ok(())
}

/// Writes into `out` what the file reads back when every entry ranked at
/// least `threshold` is kept, stage by stage, and returns the entries.
fn apply(
    target: &[i32],
    layout: &Layout,
    ranking: &Ranking,
    threshold: f32,
    out: &mut [i32],
) -> usize {
    let mut entries = 0;
    for t in 0..layout.tables() {
        let range = layout.range(t);
        let stage = t / layout.tuples;
        let (read, this) = out.split_at_mut(range.start);
        let this = &mut this[..range.len()];
        let before = match ranking.deltas.has(stage) {
            true => Some(&read[layout.range(t - layout.tuples)]),
            false => None,
        };
        let whole = ranking.whole[t];
        for (i, (o, &k)) in this.iter_mut().zip(&target[range.clone()]).enumerate() {
            let base = before.map_or(0, |b| b[i]);
            let kept = k != base
                && (whole
                    || ranking.by.rank(ranking.sizes[range.start + i], k - base) >= threshold);
            *o = if kept { k } else { base };
            entries += usize::from(kept);
        }
    }
    entries
}

/// Turns the multiples of the stages `deltas` codes into their differences
/// from the stage before's (as read back); refused where one lies past
/// [`MAX_MULTIPLE`] steps.
pub(super) fn to_differences(
    multiples: &mut [i32],
    layout: &Layout,
    deltas: Deltas,
) -> Result<(), String> {
    for t in (0..layout.tables()).rev() {
        if !deltas.has(t / layout.tuples) {
            continue;
        }
        let range = layout.range(t);
        let (read, this) = multiples.split_at_mut(range.start);
        let before = &read[layout.range(t - layout.tuples)];
        for (k, &b) in this[..range.len()].iter_mut().zip(before) {
            let difference = i64::from(*k) - i64::from(b);
            if difference.abs() > MAX_MULTIPLE {
                return Err(format!(
                    "stage {} tuple {}: a weight is {difference} steps from the stage \
                     before's, past {MAX_MULTIPLE}: choose a larger step",
                    t / layout.tuples,
                    t % layout.tuples
                ));
            }
            *k = difference as i32;
        }
    }
    Ok(())
}

/// Adds to each weight of the stages `deltas` codes (read as differences,
/// on the grid `step`) the same weight of the stage before, stage after
/// stage; refused where a sum lies past [`MAX_MULTIPLE`] steps.
pub(super) fn add_stages_before(
    net: &mut Network,
    deltas: Deltas,
    step: f32,
) -> Result<(), String> {
    let tuples = net.tuples().len();
    let tables = net.tables_mut();
    let multiple = |w: f32| (f64::from(w) / f64::from(step)).round() as i64;
    for t in tuples..tables.len() {
        if !deltas.has(t / tuples) {
            continue;
        }
        let (read, this) = tables.split_at_mut(t);
        for (i, (w, &b)) in this[0].iter_mut().zip(&read[t - tuples]).enumerate() {
            let k = multiple(*w) + multiple(b);
            if k.abs() > MAX_MULTIPLE {
                return Err(format!(
                    "stage {} tuple {} weight {}: {k} steps of {step} with the stage before's, \
                     past {MAX_MULTIPLE}",
                    t / tuples,
                    t % tuples,
                    order::reversed(i, order::cells_of(this[0].len()))
                ));
            }
            *w = k as f32 * step;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Board, Variant};
    use crate::network::coherence::Coherence;
    use crate::network::packed::{pack, MostLearned, Plan, FORMAT_LINE, FORMAT_LINE_2};
    use crate::network::stage::Boundary;
    use crate::network::tests::packed::rehashed;

    fn board(values: [u32; 16]) -> Board {
        Board::from_values(values).unwrap()
    }

    /// Boards without a 256, the steps learning took on them, and a board
    /// with one (the second stage's).
    const EARLY: [[u32; 16]; 3] = [
        [2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2],
        [0, 0, 0, 0, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [64, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ];
    const STEPS: [f32; 3] = [1234.56, -40.0, 777.7];
    const LATE: [u32; 16] = [256, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2];

    fn one_stage() -> Network {
        let mut net =
            Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::CLASSIC, 3, 0.1).unwrap();
        for (b, step) in EARLY.into_iter().zip(STEPS) {
            net.adjust(board(b), step);
        }
        net
    }

    /// A second stage (boards with a 256) split from the first, then
    /// learned on a little.
    fn split_and_learned() -> Network {
        let mut net = one_stage().split(vec![Boundary::tile(8)]).unwrap();
        net.adjust(board(LATE), 300.0);
        net
    }

    fn with_deltas(step: f32) -> Plan<'static> {
        Plan {
            stage_deltas: true,
            ..Plan::step(step)
        }
    }

    #[test]
    fn the_field_lists_stages_after_the_first_ascending() {
        let d = Deltas::parse("1,3", 4).unwrap();
        assert!(d.has(1) && !d.has(2) && d.has(3) && !d.has(0));
        assert_eq!(d.text(), "1,3");
        for bad in ["", "0", "4", "3,1", "1,1", "1,,2", "x", "-1"] {
            assert_eq!(Deltas::parse(bad, 4), None, "{bad}");
        }
    }

    #[test]
    fn a_stage_split_and_learned_on_is_written_as_what_learning_moved() {
        let net = split_and_learned();
        let (alone, alone_packing) = pack(&net, Plan::step(0.5), 9).unwrap();
        let (bytes, packing) = pack(&net, with_deltas(0.5), 9).unwrap();
        assert!(bytes.starts_with(FORMAT_LINE_2.as_bytes()));
        assert_eq!(packing.deltas.text(), "1");
        // The copy is not written again: only what the late board moved.
        let grid = Network::from_bytes(&alone).unwrap();
        let (early, late) = grid.tables().split_at(net.tuples().len());
        let set = early.iter().flatten().filter(|w| **w != 0.0).count();
        let moved = late.iter().flatten().zip(early.iter().flatten());
        let moved = moved.filter(|(l, e)| l != e).count();
        assert!(moved > 0 && set + moved < alone_packing.kept);
        assert_eq!(packing.kept, set + moved);
        // Read back it is the network packed alone, weight for weight.
        let (back, read) = Network::read(&bytes).unwrap();
        assert_eq!(read, Some(packing));
        assert_eq!(back.tables(), grid.tables());
        // And it packs again to the same file.
        assert_eq!(pack(&back, with_deltas(0.5), 9).unwrap().0, bytes);
    }

    #[test]
    fn a_stage_learned_on_its_own_is_written_alone() {
        let mut net =
            Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::CLASSIC, 3, 0.1).unwrap();
        net.set_stages(vec![Boundary::tile(8)]);
        for (b, step) in EARLY.into_iter().zip(STEPS) {
            net.adjust(board(b), step);
        }
        net.adjust(board(LATE), 300.0);
        let (bytes, packing) = pack(&net, with_deltas(0.5), 9).unwrap();
        assert!(packing.deltas.is_empty());
        assert!(bytes.starts_with(FORMAT_LINE.as_bytes()));
        assert_eq!(bytes, pack(&net, Plan::step(0.5), 9).unwrap().0);
    }

    #[test]
    fn a_weight_keep_leaves_out_takes_the_stage_befores_value() {
        let net = split_and_learned();
        let tuples = net.tuples().len();
        let grid = Network::from_bytes(&pack(&net, with_deltas(0.5), 9).unwrap().0).unwrap();
        let entries = pack(&net, with_deltas(0.5), 9).unwrap().1.kept;
        // A weight of the late stage that learning moved from a value that
        // is not 0: ranked last, it is the one left out.
        let tables = grid.tables();
        let (t, i) = (tuples..tables.len())
            .flat_map(|t| (0..tables[t].len()).map(move |i| (t, i)))
            .find(|&(t, i)| tables[t][i] != tables[t - tuples][i] && tables[t - tuples][i] != 0.0)
            .expect("the late board shares a pair with an early one");
        let mut sums = Coherence::new(&net);
        for table in &mut sums.tables {
            for tally in table.iter_mut() {
                tally.size = 1e6;
            }
        }
        sums.tables[t][i].size = 1e-3;
        let sizes = sums.error_sizes();
        for by in [KeepBy::Sums, KeepBy::Impact] {
            let most = MostLearned {
                count: entries - 1,
                sums: 0xfeed,
                by,
                unmet: false,
            };
            let plan = Plan {
                most_learned: Some((most, &sizes)),
                ..with_deltas(0.5)
            };
            let (bytes, packing) = pack(&net, plan, 9).unwrap();
            assert_eq!(packing.kept, entries - 1);
            let back = Network::from_bytes(&bytes).unwrap();
            for (u, (table, full)) in back.tables().iter().zip(grid.tables()).enumerate() {
                for (j, (&w, &g)) in table.iter().zip(full).enumerate() {
                    let expect = if (u, j) == (t, i) {
                        tables[t - tuples][i]
                    } else {
                        g
                    };
                    assert_eq!(w, expect, "table {u} weight {j}");
                }
            }
        }
        // Tables kept whole need more than the count: refused.
        let most = MostLearned {
            count: 1,
            sums: 0xfeed,
            by: KeepBy::Impact,
            unmet: true,
        };
        let unmet = Coherence::new(&net).error_sizes();
        let plan = Plan {
            most_learned: Some((most, &unmet)),
            ..with_deltas(0.5)
        };
        assert!(pack(&net, plan, 9).unwrap_err().contains("never met"));
    }

    #[test]
    fn a_damaged_deltas_field_is_refused_by_name() {
        let (bytes, _) = pack(&split_and_learned(), with_deltas(0.5), 9).unwrap();
        let edit = |from: &str, to: &str| {
            let at = bytes
                .windows(from.len())
                .position(|w| w == from.as_bytes())
                .unwrap();
            let mut b = bytes[..at].to_vec();
            b.extend_from_slice(to.as_bytes());
            b.extend_from_slice(&bytes[at + from.len()..]);
            Network::from_bytes(&rehashed(b)).unwrap_err()
        };
        for bad in ["deltas 0\n", "deltas 2\n", "deltas 1,1\n", "deltas one\n"] {
            let e = edit("deltas 1\n", bad);
            assert!(e.contains("deltas") && e.contains("from 1 to 1"), "{e}");
        }
        let e = edit("deltas 1\n", "");
        assert!(e.contains("deltas"), "{e}");
        // The format line says whether the field is there.
        let e = edit(FORMAT_LINE_2, FORMAT_LINE);
        assert!(e.contains("deltas"), "{e}");
    }
}
