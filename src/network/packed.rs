//! A network packed to ship: its weights rounded to a grid, the zeros left
//! out, the rest compressed.
//!
//! Learning leaves most of a large network's weights untouched (a `six`
//! network of 450,000 games leaves about 89% of them at 0), and the rest
//! need far less than f32's precision. A packed file keeps each weight as
//! the nearest multiple of a step q, `k = round(w / q)`, and writes only the
//! weights whose k is not 0: for each, the number of weights skipped since
//! the last one written (its gap), and k. Both are LEB128 varints (k
//! zigzagged: 0, −1, 1, −2, … as 0, 1, 2, 3, …), every gap first and then
//! every k, compressed together by deflate. Read back, a packed file is the
//! full-size network with every weight k·q: the network it came from with
//! each weight moved by at most q/2, and a value moved by at most
//! `lookups × q/2`.
//!
//! A weight nearer 0 than a given `drop` is left out as well: the weights of
//! boards that learning seldom reached are small, and play hardly misses them.
//! Or, for a network learned with temporal coherence, only N weights are
//! kept, ranked by the sums of error sizes in its coherence file (a weight's
//! sum grows with every game that updates it): either the N with the largest
//! sums, the weights learning moved most, or the N with the largest sum ×
//! weight², their impact. Left out, a weight moves every value it enters by
//! itself, so its impact is about how often it is met times the square of
//! what leaving it out costs there: a large weight of a board met a little
//! less often is kept before a small one of a board played more.
//!
//! A stage split from another can be written as its differences from the
//! stage before instead ([`deltas`], `pack --stage-deltas`): the file is then
//! `packed 2`, with a `deltas` field after `drop` naming those stages, and
//! each entry of theirs is a difference of multiples.
//!
//! The file: the header of a full network file under its own format line,
//! four or five more fields (`step` q, `drop`, where the N weights moved most
//! were kept `keep N most-learned sums H` (`largest-impact` for the other
//! ranking) with H the hash of the coherence file, and ` unmet-kept` after
//! it where the tables those sums never met were kept whole, `source`: the hash of the
//! full file it was packed from, `kept`: the weights written), a blank line,
//! the compressed varints (raw deflate, RFC 1951), and the FNV-1a hash of
//! everything before it (8 bytes, little-endian).

use std::io::{Read as _, Write as _};

use flate2::{read::DeflateDecoder, write::DeflateEncoder, Compression};

use super::deltas::{self, Deltas, Layout};
use super::error_sizes::ErrorSizes;
use super::header::{append_hash, bad_field, check_hash, header_fields, Header};
use super::order;
use super::value::Network;

/// The most bytes one kept weight's two varints take (a gap below 2^32
/// and a multiple below 2^24, zigzagged: 5 and 4 bytes).
const MAX_ENTRY_BYTES: usize = 9;

/// The most steps a weight may be from 0: every multiple up to it is exact
/// in f32, so a packed network packs again to the same multiples.
pub const MAX_MULTIPLE: i64 = (1 << 23) - 1;

/// The first line of a packed network file that codes every stage alone.
pub const FORMAT_LINE: &str = "tune2048 n-tuple network, packed 1";

/// The first line of a packed network file that codes some stages as their
/// differences from the stage before ([`deltas`]): a `deltas` field
/// after `drop` lists them.
pub const FORMAT_LINE_2: &str = "tune2048 n-tuple network, packed 2";

/// How to pack a network: the grid, and which weights to leave out.
#[derive(Clone, Copy)]
pub struct Plan<'a> {
    /// Each weight becomes the nearest multiple of it.
    pub step: f32,
    /// The weights nearer 0 than this are left out.
    pub drop: f32,
    /// Of the weights left, keep only the ones learning moved most, by the
    /// sums of error sizes of the coherence file the network learned with.
    pub most_learned: Option<(MostLearned, &'a ErrorSizes)>,
    /// Code each stage after the first as its differences from the stage
    /// before, where that writes fewer weights ([`deltas`]).
    pub stage_deltas: bool,
}

impl Plan<'_> {
    /// Every weight that does not round to 0, on the grid `step`.
    pub fn step(step: f32) -> Plan<'static> {
        Plan {
            step,
            drop: 0.0,
            most_learned: None,
            stage_deltas: false,
        }
    }
}

/// A packing that kept at most `count` weights, ranked by the sums of
/// error sizes in the coherence file hashed `sums`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MostLearned {
    pub count: usize,
    pub sums: u64,
    pub by: KeepBy,
    /// Every weight of a table the sums never met (all its sums 0) is kept
    /// first, as it is on the grid, and the rest of the count ranked: the
    /// tables a `learn --from` a packed file never reached, whose weights
    /// that packing already chose. Without it such sums are refused.
    pub unmet: bool,
}

/// How a packing keeping N weights ranks them, from their sums of error
/// sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepBy {
    /// The largest sums: the weights learning moved most.
    #[default]
    Sums,
    /// The largest sum × weight² (on the grid): what leaving each out
    /// would cost, summed over the games that met it.
    Impact,
}

impl KeepBy {
    /// Its word in a packed file's `keep` field.
    fn word(self) -> &'static str {
        match self {
            KeepBy::Sums => "most-learned",
            KeepBy::Impact => "largest-impact",
        }
    }

    /// The rank of a weight `k` steps from 0 whose sum of error sizes is
    /// `size`: the larger, the sooner kept.
    pub(super) fn rank(self, size: f32, k: i32) -> f32 {
        match self {
            KeepBy::Sums => size,
            KeepBy::Impact => size * (k as f32) * (k as f32),
        }
    }
}

/// How a packed file was made from its full network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Packing {
    /// The grid the weights were rounded to.
    pub step: f32,
    /// The weights nearer 0 than this were left out.
    pub drop: f32,
    /// Where set, only the weights learning moved most were kept.
    pub most_learned: Option<MostLearned>,
    /// The stages coded as their differences from the stage before.
    pub deltas: Deltas,
    /// The hash of the full network file it was packed from.
    pub source: u64,
    /// The weights written: those neither rounded to 0 nor dropped, or in
    /// a stage coded as differences, those that differ from the stage
    /// before's as read back.
    pub kept: usize,
}

/// Packs `net`, whose full file hashed to `source`, as `plan` says: the
/// file's bytes and what was kept.
pub fn pack(net: &Network, plan: Plan, source: u64) -> Result<(Vec<u8>, Packing), String> {
    let Plan { step, drop, .. } = plan;
    if !(step > 0.0 && step.is_finite()) {
        return Err(format!("the step must be a positive number, not {step}"));
    }
    if !(drop >= 0.0 && drop.is_finite()) {
        return Err(format!(
            "the drop must be 0 or a positive number, not {drop}"
        ));
    }
    let mut multiples = on_grid(net, step, drop)?;
    let layout = Layout::of(net);
    let deltas = match plan.stage_deltas {
        true => deltas::choose(&multiples, &layout),
        false => Deltas::default(),
    };
    if let Some((most, sums)) = plan.most_learned {
        keep_ranked(net, &mut multiples, most, sums, (&layout, deltas))?;
    }
    deltas::to_differences(&mut multiples, &layout, deltas)?;
    let (mut gaps, mut zigzagged) = (Vec::new(), Vec::new());
    let (mut kept, mut skipped) = (0usize, 0u64);
    for k in multiples {
        if k == 0 {
            skipped += 1;
            continue;
        }
        write_varint(&mut gaps, skipped);
        write_varint(&mut zigzagged, zigzag(i64::from(k)));
        skipped = 0;
        kept += 1;
    }
    let most_learned = plan.most_learned.map(|(most, _)| most);
    let keep_line = most_learned.map_or(String::new(), |m| {
        let unmet = if m.unmet { " unmet-kept" } else { "" };
        format!(
            "keep {} {} sums {:016x}{unmet}\n",
            m.count,
            m.by.word(),
            m.sums
        )
    });
    let (format, deltas_line) = match deltas.is_empty() {
        true => (FORMAT_LINE, String::new()),
        false => (FORMAT_LINE_2, format!("deltas {}\n", deltas.text())),
    };
    let out = format!(
        "{format}\n{}step {step}\ndrop {drop}\n{deltas_line}{keep_line}source {source:016x}\n\
         kept {kept}\n\n",
        header_fields(net)
    )
    .into_bytes();
    let mut deflate = DeflateEncoder::new(out, Compression::best());
    deflate
        .write_all(&gaps)
        .and_then(|()| deflate.write_all(&zigzagged))
        .expect("writing to memory");
    let out = append_hash(deflate.finish().expect("writing to memory"));
    Ok((
        out,
        Packing {
            step,
            drop,
            most_learned,
            deltas,
            source,
            kept,
        },
    ))
}

/// Each weight of `net`, in file order, as its multiple of `step`: 0 for
/// those nearer 0 than `drop` (|k| < 2^23: an i32).
fn on_grid(net: &Network, step: f32, drop: f32) -> Result<Vec<i32>, String> {
    let mut multiples: Vec<i32> = Vec::with_capacity(net.weight_count());
    let in_file = net.tables().iter().flat_map(|t| order::reordered(t));
    for (i, w) in in_file.enumerate() {
        let k = (f64::from(w) / f64::from(step)).round();
        if k.abs() > MAX_MULTIPLE as f64 {
            return Err(format!(
                "weight {i} ({w}) is more than {MAX_MULTIPLE} steps of {step}: choose a \
                 larger step"
            ));
        }
        multiples.push(if w.abs() < drop { 0 } else { k as i32 });
    }
    Ok(multiples)
}

/// Keeps the `most.count` weights of `multiples` that rank highest by
/// their sums of error sizes: the tables the sums never met first where
/// `most.unmet` says so, and such tables refused where it does not. With
/// stages coded as differences, `multiples` become what the file reads back.
fn keep_ranked(
    net: &Network,
    multiples: &mut [i32],
    most: MostLearned,
    sizes: &ErrorSizes,
    (layout, deltas): (&Layout, Deltas),
) -> Result<(), String> {
    let sizes = sizes.as_slice();
    let unmet = unmet_tables(net, multiples, sizes)?;
    if !most.unmet {
        if let Some(&(t, set)) = unmet.first() {
            let tuples = net.tuples().len();
            return Err(format!(
                "stage {} tuple {} has {set} weights that are not 0 and no coherence sum \
                 at all: they learned before these sums began (a `learn --from` start \
                 without its sums), so --keep would leave every one out; keep such \
                 tables whole with --keep-unmet, pack with --drop instead, or with sums \
                 that cover all of its learning",
                t / tuples,
                t % tuples
            ));
        }
    }
    let mut whole = vec![false; net.tables().len()];
    for &(t, _) in &unmet {
        whole[t] = true;
    }
    if !deltas.is_empty() {
        let ranking = deltas::Ranking {
            sizes,
            by: most.by,
            whole: &whole,
            deltas,
        };
        return deltas::keep(multiples, layout, &ranking, most.count);
    }
    let kept_whole: usize = unmet.iter().map(|&(_, set)| set).sum();
    if kept_whole > most.count {
        return Err(format!(
            "the tables the sums never met hold {kept_whole} weights that are not 0, more \
             than the {} to keep",
            most.count
        ));
    }
    // Each weight's table is kept whole or ranked: a lookup by position.
    let mut whole_at = Vec::with_capacity(net.tables().len());
    let mut end = 0;
    for (t, table) in net.tables().iter().enumerate() {
        end += table.len();
        whole_at.push((end, whole[t]));
    }
    let rank = |i: usize, k: i32| {
        let t = whole_at.partition_point(|&(end, _)| end <= i);
        match whole_at[t].1 {
            true => f32::INFINITY,
            false => most.by.rank(sizes[i], k),
        }
    };
    keep_most_learned(multiples, most.count, rank);
    Ok(())
}

/// The tables the sums say nothing of while their weights are not all 0,
/// each with the count of those weights: their weights learned before the
/// sums began (a `learn --from` start from a file without its coherence
/// sums, a stage no game of the run reached), and ranked by the sums every
/// one would be left out.
fn unmet_tables(
    net: &Network,
    multiples: &[i32],
    sizes: &[f32],
) -> Result<Vec<(usize, usize)>, String> {
    if sizes.len() != multiples.len() {
        return Err(format!(
            "the coherence sums cover {} weights, the network has {}",
            sizes.len(),
            multiples.len()
        ));
    }
    let mut unmet = Vec::new();
    let mut begin = 0;
    for (t, table) in net.tables().iter().enumerate() {
        let end = begin + table.len();
        let set = multiples[begin..end].iter().filter(|&&k| k != 0).count();
        if set > 0 && sizes[begin..end].iter().all(|&s| s == 0.0) {
            unmet.push((t, set));
        }
        begin = end;
    }
    Ok(unmet)
}

/// Sets to 0 every multiple but the `count` whose ranks (`rank` of its
/// position and multiple) are highest, ties at the cut going to the
/// earlier weight, where more than that many are not 0.
///
/// The cut is found without a copy of the ranks: a rank's f32 bits, mapped
/// to a key that orders as [`f32::total_cmp`] does, are counted by their
/// high 16 bits, then, in the bin that holds the cut, by their low 16.
fn keep_most_learned(multiples: &mut [i32], count: usize, rank: impl Fn(usize, i32) -> f32) {
    let key = |r: f32| {
        let bits = r.to_bits();
        match bits >> 31 {
            1 => !bits,
            _ => bits | 1 << 31,
        }
    };
    let keys = || {
        multiples
            .iter()
            .enumerate()
            .filter(|(_, k)| **k != 0)
            .map(|(i, &k)| key(rank(i, k)))
    };
    let mut bins = vec![0usize; 1 << 16];
    for key in keys() {
        bins[(key >> 16) as usize] += 1;
    }
    let candidates: usize = bins.iter().sum();
    if candidates <= count {
        return;
    }
    // The bin, from the top, where the count is reached, and how many
    // candidates lie in the bins above it.
    let cut_in = |bins: &[usize], need: usize| {
        let mut above = 0;
        for (b, &n) in bins.iter().enumerate().rev() {
            if above + n >= need {
                return (b as u32, above);
            }
            above += n;
        }
        (0, above)
    };
    let (high, above_high) = cut_in(&bins, count);
    bins.fill(0);
    for key in keys().filter(|key| key >> 16 == high) {
        bins[(key & 0xffff) as usize] += 1;
    }
    let (low, above_low) = cut_in(&bins, count - above_high);
    let cut = high << 16 | low;
    // Every weight ranked above the cut is kept, and as many at it as are
    // needed to make up the count.
    let mut ties = count - above_high - above_low;
    for (i, k) in multiples.iter_mut().enumerate() {
        if *k == 0 {
            continue;
        }
        let key = key(rank(i, *k));
        if key > cut {
            continue;
        }
        if key == cut && ties > 0 {
            ties -= 1;
        } else {
            *k = 0;
        }
    }
}

/// The largest change packing made to a weight: the most a weight of
/// `packed` (read back from the packed file) differs from `full`'s.
pub fn largest_change(full: &Network, packed: &Network) -> f32 {
    full.tables()
        .iter()
        .flatten()
        .zip(packed.tables().iter().flatten())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max)
}

/// Reads a packed file's own header fields and its weights into `net`
/// (read from the common fields, its weights all 0). `bytes` is the whole
/// file; its varints start at `body`.
pub(super) fn read_body(
    net: &mut Network,
    header: &mut Header,
    (bytes, body): (&[u8], usize),
    with_deltas: bool,
) -> Result<Packing, String> {
    let stages = net.stages().len() + 1;
    let packing = read_fields(header, with_deltas.then_some(stages))?;
    check_hash(bytes)?;
    let (kept, total) = (packing.kept, net.weight_count());
    if kept > total {
        return Err(format!(
            "the `kept` field counts {kept} weights, but the network has {total}"
        ));
    }
    let varints = inflate(&bytes[body..bytes.len() - 8], kept)?;
    let mut data = &varints[..];
    let mut gaps = Vec::with_capacity(kept);
    for entry in 0..kept {
        gaps.push(read_varint(&mut data).ok_or_else(|| {
            format!("gap {entry} of {kept}: the data ends early or is not a varint")
        })?);
    }
    place_weights(net, &gaps, &mut data, packing.step)?;
    if !data.is_empty() {
        return Err(format!(
            "{} bytes follow the {kept} weight entries the header counts",
            data.len()
        ));
    }
    deltas::add_stages_before(net, packing.deltas, packing.step)?;
    Ok(packing)
}

/// A packed file's own header fields, after the common ones: the last
/// fields of the header. A file that codes stages as differences (of a
/// network of `stages` stages) lists them after `drop`.
fn read_fields(header: &mut Header, stages: Option<usize>) -> Result<Packing, String> {
    let step = header.amount("step", false)?;
    let drop = header.amount("drop", true)?;
    let deltas = match stages {
        Some(stages) => {
            let (n, text) = header.field("deltas")?;
            Deltas::parse(text, stages).ok_or_else(|| {
                bad_field(
                    n,
                    "deltas",
                    &format!(
                        "`{text}` is not a list of stages from 1 to {}, ascending, joined \
                         by commas",
                        stages - 1
                    ),
                )
            })?
        }
        None => Deltas::default(),
    };
    let most_learned = if header.peek_field("keep") {
        let (n, text) = header.field("keep")?;
        Some(parse_most_learned(text).ok_or_else(|| {
            bad_field(
                n,
                "keep",
                &format!(
                    "`{text}` is not `N most-learned sums H` or `N largest-impact sums H` \
                     (H: a 16-digit hash), with ` unmet-kept` or nothing after it"
                ),
            )
        })?)
    } else {
        None
    };
    let (n, text) = header.field("source")?;
    let source = u64::from_str_radix(text, 16)
        .ok()
        .filter(|_| text.len() == 16)
        .ok_or_else(|| bad_field(n, "source", &format!("`{text}` is not a 16-digit hash")))?;
    let kept = header.parsed::<usize>("kept")?;
    if let Some((n, line)) = header.next_line() {
        return Err(format!(
            "line {n}: unexpected `{line}` after the `kept` field"
        ));
    }
    Ok(Packing {
        step,
        drop,
        most_learned,
        deltas,
        source,
        kept,
    })
}

/// The value of a `keep` field: `N most-learned sums H` or `N
/// largest-impact sums H`.
fn parse_most_learned(text: &str) -> Option<MostLearned> {
    let mut words = text.split(' ');
    let count = words.next()?.parse().ok()?;
    let (Some(by), Some("sums"), Some(hash)) = (words.next(), words.next(), words.next()) else {
        return None;
    };
    let unmet = match (words.next(), words.next()) {
        (None, _) => false,
        (Some("unmet-kept"), None) => true,
        _ => return None,
    };
    let by = [KeepBy::Sums, KeepBy::Impact]
        .into_iter()
        .find(|b| b.word() == by)?;
    let sums = u64::from_str_radix(hash, 16)
        .ok()
        .filter(|_| hash.len() == 16)?;
    Some(MostLearned {
        count,
        sums,
        by,
        unmet,
    })
}

/// The varints of `kept` entries, inflated from `deflated`.
fn inflate(deflated: &[u8], kept: usize) -> Result<Vec<u8>, String> {
    // Inflated, the varints take at most MAX_ENTRY_BYTES a weight; reading
    // one byte past that tells a stream too long from one that fits.
    let limit = (MAX_ENTRY_BYTES * kept) as u64 + 1;
    let mut varints = Vec::new();
    DeflateDecoder::new(deflated)
        .take(limit)
        .read_to_end(&mut varints)
        .map_err(|e| format!("the weights do not inflate: {e}"))?;
    if varints.len() as u64 == limit {
        return Err(format!(
            "the weights inflate to more than {} bytes for {kept} entries",
            limit - 1
        ));
    }
    Ok(varints)
}

/// Sets the kept weights of `net`: each entry's gap from `gaps`, its
/// multiple of `step` read from `data` (consumed).
fn place_weights(
    net: &mut Network,
    gaps: &[u64],
    data: &mut &[u8],
    step: f32,
) -> Result<(), String> {
    let (kept, total) = (gaps.len(), net.weight_count());
    let mut tables = net.tables_mut().iter_mut();
    let mut table = tables.next().expect("a network has a tuple");
    // `index` is the next weight's place in the flattened tables (in file
    // order), `base` the place of `table`'s first weight. Each weight goes
    // straight to its place in play order; the rest of the table stays the
    // zeros it came with, untouched.
    let (mut index, mut base) = (0usize, 0usize);
    let mut cells = order::cells_of(table.len());
    for (entry, &skipped) in gaps.iter().enumerate() {
        let malformed = |what: &str| format!("weight entry {entry} of {kept}: {what}");
        let k =
            read_varint(data).ok_or_else(|| malformed("the data ends early or is not a varint"))?;
        let k = unzigzag(k);
        let weight = k as f32 * step;
        if k == 0 || k.unsigned_abs() > MAX_MULTIPLE as u64 || !weight.is_finite() {
            return Err(malformed(&format!(
                "{k} steps of {step} is not a kept weight"
            )));
        }
        index = usize::try_from(skipped)
            .ok()
            .and_then(|s| index.checked_add(s))
            .filter(|&i| i < total)
            .ok_or_else(|| malformed(&format!("it lies past the {total} weights")))?;
        while index >= base + table.len() {
            base += table.len();
            table = tables.next().expect("the index is below the total");
            cells = order::cells_of(table.len());
        }
        table[order::reversed(index - base, cells)] = weight;
        index += 1;
    }
    Ok(())
}

pub(super) fn zigzag(k: i64) -> u64 {
    ((k << 1) ^ (k >> 63)) as u64
}

pub(super) fn unzigzag(z: u64) -> i64 {
    (z >> 1) as i64 ^ -((z & 1) as i64)
}

pub(super) fn write_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// The next LEB128 varint of `data`, consumed; `None` where `data` ends
/// inside one or it runs past 64 bits.
pub(super) fn read_varint(data: &mut &[u8]) -> Option<u64> {
    let mut x = 0u64;
    for (i, &byte) in data.iter().enumerate().take(10) {
        let bits = u64::from(byte & 0x7F);
        if i == 9 && bits > 1 {
            return None;
        }
        x |= bits << (7 * i);
        if byte & 0x80 == 0 {
            *data = &data[i + 1..];
            return Some(x);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    /// What the cut keeps, the slow way: the `count` highest ranks of the
    /// weights not 0, ties to the earlier.
    fn sorted_keep(multiples: &[i32], ranks: &[f32], count: usize) -> Vec<i32> {
        let mut live: Vec<usize> = (0..multiples.len())
            .filter(|&i| multiples[i] != 0)
            .collect();
        live.sort_by(|&a, &b| ranks[b].total_cmp(&ranks[a]).then(a.cmp(&b)));
        let mut kept = vec![0; multiples.len()];
        for &i in live.iter().take(count) {
            kept[i] = multiples[i];
        }
        kept
    }

    #[test]
    fn the_cut_by_counted_bits_keeps_what_a_sort_would() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for round in 0..40 {
            let n = rng.gen_range(1..3000);
            let multiples: Vec<i32> = (0..n).map(|_| rng.gen_range(-3..=3)).collect();
            // Few distinct ranks in some rounds (many ties, some sharing
            // their high bits), spread ones in others, and infinities.
            let ranks: Vec<f32> = (0..n)
                .map(|_| match round % 4 {
                    0 => rng.gen_range(0..5) as f32,
                    1 => 1.0 + rng.gen_range(0..8) as f32 * f32::EPSILON,
                    2 if rng.gen_bool(0.05) => f32::INFINITY,
                    _ => rng.gen::<f32>() * 1e6,
                })
                .collect();
            let live = multiples.iter().filter(|&&k| k != 0).count();
            for count in [0, 1, live / 3, live.saturating_sub(1), live, live + 5] {
                let mut kept = multiples.clone();
                super::keep_most_learned(&mut kept, count, |i, _| ranks[i]);
                assert_eq!(
                    kept,
                    sorted_keep(&multiples, &ranks, count),
                    "round {round}, count {count}"
                );
            }
        }
    }
}
