//! Racing inside CMA-ES selection (after Heidrich-Meisner and Igel, ICML
//! 2009): the λ candidates of a generation play games in rounds, and a
//! candidate stops playing once it is known, with confidence 1 − δ, to be
//! among the μ best or not among them. Games go where the ranking is in doubt.
//!
//! Confidence radii are empirical Bernstein bounds (Audibert, Munos and
//! Szepesvári 2009): for n games with sample standard deviation s and range R,
//! `s·√(2·ln(3/δ')/n) + 3·R·ln(3/δ')/n`. Scores have no known range, so R is
//! the widest range of one candidate's games so far (the spread of a game's
//! outcome, not the gaps between candidates). δ' spreads δ over the
//! candidates and the rounds a race can last (a union bound).

use crate::stats;

/// Where each candidate stands in a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceVerdict {
    /// Surely among the μ best.
    In,
    /// Surely not among the μ best.
    Out,
    /// Not decided: plays the next round (unless it reached the game limit).
    Open,
}

/// A confidence interval of a candidate's mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The mean of each candidate's per-game values with its empirical Bernstein
/// interval. `delta` is the error allowed per interval.
pub fn bounds(values: &[Vec<f64>], delta: f64) -> Vec<Bound> {
    let range = values
        .iter()
        .map(|v| {
            let (lo, hi) = v
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                    (lo.min(x), hi.max(x))
                });
            if hi > lo {
                hi - lo
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max);
    let log = (3.0 / delta).ln();
    values
        .iter()
        .map(|v| {
            let n = v.len() as f64;
            let mean = stats::mean(v);
            let radius = if v.is_empty() {
                f64::INFINITY
            } else {
                let sd = if v.len() > 1 {
                    stats::sample_sd(v)
                } else {
                    range
                };
                sd * (2.0 * log / n).sqrt() + 3.0 * range * log / n
            };
            Bound {
                mean,
                lo: mean - radius,
                hi: mean + radius,
            }
        })
        .collect()
}

/// Which of the λ candidates are surely in the top `mu`, surely out, or
/// open. A candidate is in when its lower bound beats the upper bounds of
/// λ − μ others, out when its upper bound is below the lower bounds of μ
/// others.
pub fn verdicts(bounds: &[Bound], mu: usize) -> Vec<RaceVerdict> {
    let lambda = bounds.len();
    bounds
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let beaten = (0..lambda)
                .filter(|&j| j != i && b.lo > bounds[j].hi)
                .count();
            let beaten_by = (0..lambda)
                .filter(|&j| j != i && b.hi < bounds[j].lo)
                .count();
            if beaten >= lambda - mu {
                RaceVerdict::In
            } else if beaten_by >= mu {
                RaceVerdict::Out
            } else {
                RaceVerdict::Open
            }
        })
        .collect()
}

/// Whether the race is over: every place in the top μ (or every place
/// outside it) is decided.
pub fn decided(verdicts: &[RaceVerdict], mu: usize) -> bool {
    let ins = verdicts.iter().filter(|&&v| v == RaceVerdict::In).count();
    let outs = verdicts.iter().filter(|&&v| v == RaceVerdict::Out).count();
    ins >= mu || outs >= verdicts.len() - mu
}

/// The error per interval for `lambda` candidates and at most `rounds`
/// rounds, so that all intervals hold together with probability 1 − `delta`.
pub fn delta_per_interval(delta: f64, lambda: usize, rounds: u32) -> f64 {
    delta / (lambda as f64 * f64::from(rounds.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constant(n: usize, v: f64) -> Vec<f64> {
        vec![v; n]
    }

    #[test]
    fn clearly_separated_candidates_are_decided_at_once() {
        // Two clusters far apart relative to a tiny spread.
        let mut values: Vec<Vec<f64>> = (0..3)
            .map(|i| constant(50, 100.0 + i as f64 * 0.01))
            .collect();
        values.extend((0..3).map(|i| constant(50, 1000.0 + i as f64 * 0.01)));
        for v in &mut values {
            v[0] += 0.5;
        }
        let b = bounds(&values, 0.01);
        let v = verdicts(&b, 3);
        assert_eq!(&v[..3], &[RaceVerdict::Out; 3]);
        assert_eq!(&v[3..], &[RaceVerdict::In; 3]);
        assert!(decided(&v, 3));
    }

    #[test]
    fn overlapping_candidates_stay_open_and_more_games_narrow_them() {
        // Alternating values: means 10 and 12, spread 10.
        let noisy = |n: usize, mean: f64| -> Vec<f64> {
            (0..n)
                .map(|i| mean + if i % 2 == 0 { 5.0 } else { -5.0 })
                .collect()
        };
        let few = vec![noisy(10, 10.0), noisy(10, 12.0)];
        let v = verdicts(&bounds(&few, 0.05), 1);
        assert_eq!(v, vec![RaceVerdict::Open, RaceVerdict::Open]);
        assert!(!decided(&v, 1));
        let many = vec![noisy(4000, 10.0), noisy(4000, 12.0)];
        let b = bounds(&many, 0.05);
        assert!(b[0].hi < b[1].lo, "{b:?}");
        assert_eq!(verdicts(&b, 1), vec![RaceVerdict::Out, RaceVerdict::In]);
    }

    #[test]
    fn radii_shrink_with_games_and_grow_with_confidence() {
        let v: Vec<f64> = (0..100).map(|i| f64::from(i % 7)).collect();
        let r = |n: usize, d: f64| {
            let b = bounds(&[v[..n].to_vec()], d)[0];
            b.hi - b.mean
        };
        assert!(r(100, 0.05) < r(25, 0.05));
        assert!(r(100, 0.001) > r(100, 0.05));
        let b = bounds(std::slice::from_ref(&v), 0.05)[0];
        assert!((b.mean - stats::mean(&v)).abs() < 1e-12);
        assert!((b.mean - b.lo - (b.hi - b.mean)).abs() < 1e-9);
        assert_eq!(delta_per_interval(0.1, 10, 5), 0.002);
    }
}
