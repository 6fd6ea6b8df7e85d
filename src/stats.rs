//! Statistics of self-play results: summaries of one weight set's games and
//! paired comparisons of two weight sets on the same seeds.
//!
//! Everything here is pure arithmetic; the Student t distribution comes from
//! `statrs`. The tests are in `stats/tests.rs`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// The 97.5% quantile of the standard normal distribution: a two-sided 95%
/// normal interval spans this many standard errors either side (the "1.96"
/// of textbooks; a test checks it against `statrs`).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStat {
    pub score: u64,
    pub max_tile: u32,
    pub moves: u32,
}

/// The tiles whose reach rates a [`Summary`] reports.
pub const REACH_TILES: [u32; 8] = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

/// The games of one weight set, summarized.
///
/// With fewer than 2 games the spread is unknown: `sd_score` is 0 and `ci95`
/// collapses to the mean (JSON has no infinity). With no games every field is 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub games: usize,
    pub mean_score: f64,
    /// Sample standard deviation of the scores.
    pub sd_score: f64,
    /// Student t 95% confidence interval of the mean score.
    pub ci95: [f64; 2],
    pub median_score: f64,
    /// Absent when `median_score` is exact (up to [`EXACT_MEDIAN_GAMES`]
    /// games); beyond, the median comes from a histogram of the scores and
    /// this bounds its relative error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_rel_error: Option<f64>,
    /// Tile (as decimal text, e.g. `"2048"`) → share of games whose largest
    /// tile is at least that tile. Keys are [`REACH_TILES`].
    pub reach: BTreeMap<String, f64>,
    pub mean_moves: f64,
    /// Moves per second of wall time (0 when no time elapsed).
    pub moves_per_s: f64,
    /// Games per second of wall time (0 when no time elapsed).
    pub games_per_s: f64,
}

impl Summary {
    /// Summarizes games that took `elapsed_s` seconds of wall time in all
    /// (the games folded one by one into a [`Tally`]).
    pub fn from_games(games: &[GameStat], elapsed_s: f64) -> Summary {
        let mut tally = Tally::default();
        for g in games {
            tally.add(g);
        }
        tally.summary(elapsed_s)
    }
}

/// Games are folded into a [`Tally`] one at a time, so a summary of any
/// number of games takes the same memory: exact sums and counts, Welford's
/// running mean and sum of squared deviations, and a [`MedianSketch`].
#[derive(Clone, Debug, Default)]
pub struct Tally {
    games: u64,
    /// Exact while the sum stays below 2^128 (it cannot: 2^32 games of
    /// scores below 2^64 are at most 2^96).
    score_sum: u128,
    score_spread: Welford,
    moves_sum: u128,
    /// Per tile of [`REACH_TILES`]: games whose largest tile is at least it.
    reached: [u64; REACH_TILES.len()],
    median: MedianSketch,
}

impl Tally {
    /// Folds in one more game.
    pub fn add(&mut self, game: &GameStat) {
        self.games += 1;
        self.score_sum += u128::from(game.score);
        self.score_spread.add(game.score as f64);
        self.moves_sum += u128::from(game.moves);
        for (count, &tile) in self.reached.iter_mut().zip(&REACH_TILES) {
            *count += u64::from(game.max_tile >= tile);
        }
        self.median.add(game.score);
    }

    /// Games folded in so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Moves of all games folded in so far.
    pub fn moves(&self) -> u128 {
        self.moves_sum
    }

    /// The summary of the games folded in, which took `elapsed_s` seconds of
    /// wall time in all.
    pub fn summary(&self, elapsed_s: f64) -> Summary {
        let n = self.games as f64;
        let per_game = |sum: u128| if self.games == 0 { 0.0 } else { sum as f64 / n };
        let per_second = |amount: f64| {
            if elapsed_s > 0.0 {
                amount / elapsed_s
            } else {
                0.0
            }
        };
        let mean_score = per_game(self.score_sum);
        let sd_score = self.score_spread.sample_sd();
        let (median_score, median_rel_error) = self.median.median();
        Summary {
            games: self.games as usize,
            mean_score,
            sd_score,
            ci95: t_interval95(mean_score, sd_score, self.games),
            median_score,
            median_rel_error,
            reach: REACH_TILES
                .iter()
                .zip(&self.reached)
                .map(|(&tile, &count)| (tile.to_string(), per_game(u128::from(count))))
                .collect(),
            mean_moves: per_game(self.moves_sum),
            moves_per_s: per_second(self.moves_sum as f64),
            games_per_s: per_second(n),
        }
    }
}

/// Welford's running variance: the mean and the sum of squared deviations
/// from it, updated one value at a time without the cancellation of a
/// sum of squares.
#[derive(Clone, Copy, Debug, Default)]
struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// Sample standard deviation (n − 1 in the denominator); 0 below 2 values.
    fn sample_sd(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2.max(0.0) / (self.n - 1) as f64).sqrt()
        }
    }
}

/// Games whose median a [`MedianSketch`] gives exactly: their scores are
/// kept (4 bytes a game, 256 KiB at most). Past this many, the median is
/// read from the histogram.
pub const EXACT_MEDIAN_GAMES: usize = 1 << 16;

/// Sub-buckets per power of two in the histogram: each bucket spans at most
/// 1/1024 of its lower bound, so a median read from it is within half that.
const SUB_BITS: u32 = 10;
const SUB: u64 = 1 << SUB_BITS;
/// Scores below 2·[`SUB`] have a bucket each; above, [`SUB`] buckets per
/// power of two up to 2^64.
const BUCKETS: usize = ((64 - SUB_BITS) as usize) * SUB as usize + SUB as usize;

/// The relative error bound stated with a median read from the histogram:
/// half a bucket's width over its lower bound is at most 2^-11; rounded up.
pub const HISTOGRAM_MEDIAN_REL_ERROR: f64 = 0.0005;

/// The median of scores in bounded memory: exact (the same as [`median`])
/// for up to [`EXACT_MEDIAN_GAMES`] games; beyond, read from a log-linear
/// histogram of every score, within [`HISTOGRAM_MEDIAN_REL_ERROR`] of the
/// exact value. Both stores (256 KiB of scores, a 440 KiB histogram) are
/// allocated and written through at the first score and kept to the end, so
/// the resident memory is the same for one game as for 10^9: nothing grows
/// as scores spread over the histogram or pass the exact limit.
#[derive(Clone, Debug, Default)]
pub struct MedianSketch {
    /// Every score so far, while there are at most [`EXACT_MEDIAN_GAMES`]
    /// and all fit in 32 bits; then emptied for good.
    exact: Vec<u32>,
    /// `exact` no longer holds every score.
    past_exact: bool,
    /// Counts per bucket ([`bucket_of`]); empty before the first score.
    histogram: Vec<u64>,
}

impl MedianSketch {
    pub fn add(&mut self, score: u64) {
        if self.histogram.is_empty() {
            self.histogram = resident(BUCKETS);
            self.exact = resident(EXACT_MEDIAN_GAMES);
            self.exact.clear();
        }
        self.histogram[bucket_of(score)] += 1;
        if self.past_exact {
            return;
        }
        match u32::try_from(score) {
            Ok(s) if self.exact.len() < EXACT_MEDIAN_GAMES => self.exact.push(s),
            // The scores stay allocated (no longer read): freeing them would
            // make the memory depend on the number of games again.
            _ => self.past_exact = true,
        }
    }

    /// The median and, when it was read from the histogram, the bound on
    /// its relative error (`None`: exact). 0 with no scores.
    pub fn median(&self) -> (f64, Option<f64>) {
        if !self.past_exact {
            let scores: Vec<f64> = self.exact.iter().map(|&s| f64::from(s)).collect();
            return (median(&scores), None);
        }
        let n: u64 = self.histogram.iter().sum();
        // The order statistics either side of rank (n − 1)/2, as [`quantile`].
        let h = (n - 1) as f64 * 0.5;
        let lo = h.floor() as u64;
        let hi = (lo + 1).min(n - 1);
        let (a, b) = (
            order_statistic(&self.histogram, lo),
            order_statistic(&self.histogram, hi),
        );
        (
            a + (h - lo as f64) * (b - a),
            Some(HISTOGRAM_MEDIAN_REL_ERROR),
        )
    }
}

/// `len` zeros whose every page is written, so they are resident from now
/// on: a zeroed allocation is only mapped, and its pages would become
/// resident one by one as they are first written.
fn resident<T: Copy + Default>(len: usize) -> Vec<T> {
    let mut v = vec![T::default(); len];
    let per_page = (4096 / std::mem::size_of::<T>().max(1)).max(1);
    for i in (0..len).step_by(per_page) {
        // A volatile write cannot be left out as a store of what is there.
        // SAFETY: `i < len`, so the pointer is in bounds and aligned.
        unsafe { std::ptr::write_volatile(v.as_mut_ptr().add(i), T::default()) };
    }
    v
}

/// The histogram bucket of a score: the score itself below 2·[`SUB`], else
/// its power of two and its next [`SUB_BITS`] bits.
fn bucket_of(score: u64) -> usize {
    if score < 2 * SUB {
        return score as usize;
    }
    let power = 63 - score.leading_zeros(); // ≥ SUB_BITS + 1
    let shift = power - SUB_BITS;
    ((shift as u64) * SUB + (score >> shift)) as usize
}

/// The middle of bucket `b`'s range of scores.
fn bucket_middle(b: usize) -> f64 {
    let b = b as u64;
    if b < 2 * SUB {
        return b as f64;
    }
    let shift = b / SUB - 1;
    let low = (b - shift * SUB) << shift;
    low as f64 + ((1u64 << shift) - 1) as f64 / 2.0
}

/// The `k`-th smallest score (0-based), as its bucket's middle.
fn order_statistic(histogram: &[u64], k: u64) -> f64 {
    let mut below = 0;
    for (b, &count) in histogram.iter().enumerate() {
        below += count;
        if below > k {
            return bucket_middle(b);
        }
    }
    unreachable!("k is below the number of scores")
}

/// Two weight sets compared game by game on the same seeds: `a` is the
/// reference (usually the base weights), `b` the challenger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    pub games: usize,
    /// Mean of `b − a` over the games.
    pub mean_diff: f64,
    /// Student t 95% confidence interval of `mean_diff`.
    pub ci95: [f64; 2],
    /// mean(b) / mean(a); 0 when mean(a) is 0.
    pub ratio: f64,
    /// Two-sided paired t-test of mean_diff = 0 (1 when there is no
    /// evidence either way, e.g. fewer than 2 games).
    pub p_value: f64,
    /// Games where `b` scored more than `a`.
    pub wins: usize,
    /// Games where `b` scored less than `a`.
    pub losses: usize,
    pub ties: usize,
}

impl Paired {
    /// Compares the scores of `b` against `a`, game `i` of each played on the
    /// same seed. Panics if the lengths differ (a caller bug, not bad input).
    pub fn compare(a: &[u64], b: &[u64]) -> Paired {
        assert_eq!(a.len(), b.len(), "paired scores need equal lengths");
        let mut tally = PairedTally::default();
        for (&x, &y) in a.iter().zip(b) {
            tally.add(x, y);
        }
        tally.paired()
    }
}

/// Pairs of scores folded in one at a time into a [`Paired`], in the same
/// memory for any number of games.
#[derive(Clone, Debug, Default)]
pub struct PairedTally {
    games: u64,
    sum_a: u128,
    sum_b: u128,
    /// Σ(b − a), exact.
    diff_sum: i128,
    diff_spread: Welford,
    wins: u64,
    losses: u64,
    ties: u64,
}

impl PairedTally {
    /// Folds in one game: `a`'s score and `b`'s on the same seed.
    pub fn add(&mut self, a: u64, b: u64) {
        self.games += 1;
        self.sum_a += u128::from(a);
        self.sum_b += u128::from(b);
        self.diff_sum += i128::from(b) - i128::from(a);
        self.diff_spread.add(b as f64 - a as f64);
        match b.cmp(&a) {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Less => self.losses += 1,
            std::cmp::Ordering::Equal => self.ties += 1,
        }
    }

    /// The comparison of the games folded in.
    pub fn paired(&self) -> Paired {
        let n = self.games;
        let per_game = |sum: f64| if n == 0 { 0.0 } else { sum / n as f64 };
        let mean_a = per_game(self.sum_a as f64);
        let mean_b = per_game(self.sum_b as f64);
        let mean_diff = per_game(self.diff_sum as f64);
        let sd = self.diff_spread.sample_sd();
        let p_value = if n < 2 {
            1.0
        } else {
            let se = sd / (n as f64).sqrt();
            if se > 0.0 {
                t_two_sided_p(mean_diff / se, (n - 1) as f64)
            } else if mean_diff == 0.0 {
                1.0
            } else {
                // Every game moved by the same nonzero amount.
                0.0
            }
        };
        Paired {
            games: n as usize,
            mean_diff,
            ci95: t_interval95(mean_diff, sd, n),
            ratio: if mean_a > 0.0 { mean_b / mean_a } else { 0.0 },
            p_value,
            wins: self.wins as usize,
            losses: self.losses as usize,
            ties: self.ties as usize,
        }
    }
}

/// Share of games whose largest tile is at least `tile` (0 with no games).
pub fn reach_share(max_tiles: &[u32], tile: u32) -> f64 {
    if max_tiles.is_empty() {
        return 0.0;
    }
    max_tiles.iter().filter(|&&t| t >= tile).count() as f64 / max_tiles.len() as f64
}

/// Arithmetic mean; 0 for an empty slice.
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Sample standard deviation (n − 1 in the denominator); 0 below 2 values.
pub fn sample_sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// The `p`-quantile (0 ≤ p ≤ 1) by linear interpolation between order
/// statistics (Hyndman and Fan type 7, as in R and NumPy); 0 when empty.
pub fn quantile(xs: &[f64], p: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let h = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The median (the 0.5-quantile).
pub fn median(xs: &[f64]) -> f64 {
    quantile(xs, 0.5)
}

/// Student t 95% confidence interval of the mean; the mean twice below 2 values.
pub fn mean_ci95(xs: &[f64]) -> [f64; 2] {
    t_interval95(mean(xs), sample_sd(xs), xs.len() as u64)
}

/// The Student t 95% interval of a mean `m` of `n` values whose sample
/// standard deviation is `sd`; `m` twice below 2 values.
fn t_interval95(m: f64, sd: f64, n: u64) -> [f64; 2] {
    if n < 2 {
        return [m, m];
    }
    let half = t_quantile_975((n - 1) as f64) * sd / (n as f64).sqrt();
    [m - half, m + half]
}

/// Wilson score 95% interval of a share `p` observed over `n` trials (a
/// match score with draws counted half is treated as such a share). Unlike
/// the t interval it stays wide when every trial went the same way: 3 losses
/// in 3 give [0, 0.56], not [0, 0].
pub fn wilson_ci95(p: f64, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z2 = Z_95 * Z_95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Student's t with `df` degrees of freedom, or `None` unless `df` > 0.
fn students_t(df: f64) -> Option<StudentsT> {
    StudentsT::new(0.0, 1.0, df).ok()
}

/// The cumulative distribution function of Student's t with `df` > 0
/// degrees of freedom (NaN for any other `df`).
pub fn t_cdf(t: f64, df: f64) -> f64 {
    students_t(df).map_or(f64::NAN, |d| d.cdf(t))
}

/// The two-sided p-value of a t statistic: P(|T| ≥ |t|) (NaN for a NaN `t`
/// or a `df` that is not > 0).
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    match students_t(df) {
        Some(d) if !t.is_nan() => (2.0 * d.sf(t.abs())).clamp(0.0, 1.0),
        _ => f64::NAN,
    }
}

/// The quantile t_{p, df} of Student's t for 0 < p < 1 (±∞ at p = 1 and 0;
/// NaN for any other `p`, or a `df` that is not > 0).
///
/// Found by bisection on [`t_cdf`] rather than with `statrs`'s inverse CDF:
/// that inverse loses accuracy as `df` grows (t_{0.975} comes out 1.95985
/// instead of 1.95996 at df = 10^6, and 1.83 at 10^7) and does not return at
/// all for some larger `df`, while intervals over tens of thousands of games
/// are routine here. About 50 CDF evaluations, once per summary.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if students_t(df).is_none() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.5 {
        return 0.0;
    }
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while t_cdf(hi, df) < p && hi < 1e12 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// t_{0.975, df}: the half-width factor of a two-sided 95% interval.
pub fn t_quantile_975(df: f64) -> f64 {
    t_quantile(0.975, df)
}

#[cfg(test)]
mod tests;
