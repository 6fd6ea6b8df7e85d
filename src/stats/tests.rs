//! Tests of the statistics: worked values, and summaries against sorts.

use super::*;

#[test]
fn wilson_intervals_match_worked_values() {
    // 3 of 3 lost; 50 of 100; 81 of 263 (values from the formula worked
    // separately in Python).
    let [lo, hi] = super::wilson_ci95(0.0, 3);
    assert!(lo == 0.0 && (hi - 0.5615).abs() < 1e-4, "{hi}");
    let [lo, hi] = super::wilson_ci95(0.5, 100);
    assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
    let [lo, hi] = super::wilson_ci95(81.0 / 263.0, 263);
    assert!(
        (lo - 0.2553).abs() < 1e-4 && (hi - 0.3662).abs() < 1e-4,
        "{lo} {hi}"
    );
    assert_eq!(super::wilson_ci95(0.3, 0), [0.0, 1.0]);
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn z_95_is_the_normal_quantile() {
    use statrs::distribution::Normal;
    let z = Normal::standard().inverse_cdf(0.975);
    assert!(close(Z_95, z, 1e-12), "{z}");
}

#[test]
fn t_cdf_matches_exact_forms_for_one_and_two_df() {
    for t in [-30.0, -2.5, -0.3, 0.0, 0.7, 1.0, 4.0, 100.0] {
        // df = 1 is the Cauchy distribution.
        let cauchy = 0.5 + f64::atan(t) / std::f64::consts::PI;
        assert!(close(t_cdf(t, 1.0), cauchy, 1e-13), "t={t}");
        let two = 0.5 + t / (2.0 * (2.0 + t * t).sqrt());
        assert!(close(t_cdf(t, 2.0), two, 1e-13), "t={t}");
    }
}

#[test]
fn two_sided_p_values_match_tables() {
    // t = 2, df = 10: p = 0.073388...
    assert!(close(t_two_sided_p(2.0, 10.0), 0.073_388, 1e-5));
    assert!(close(t_two_sided_p(-2.0, 10.0), 0.073_388, 1e-5));
    assert!(close(t_two_sided_p(0.0, 7.0), 1.0, 1e-14));
    // Large df tends to the normal: P(|Z| > 1.959964) = 0.05.
    assert!(close(t_two_sided_p(1.959_964, 1e7), 0.05, 1e-6));
    assert!(close(t_two_sided_p(3.0, 1e6), 0.002_699_8, 1e-6));
}

#[test]
fn t_quantiles_match_tables() {
    assert!(close(t_quantile_975(1.0), 12.706_204_736, 1e-6));
    assert!(close(t_quantile_975(3.0), 3.182_446_305, 1e-8));
    assert!(close(t_quantile_975(10.0), 2.228_138_852, 1e-8));
    assert!(close(t_quantile_975(30.0), 2.042_272_456, 1e-8));
    assert!(close(t_quantile_975(1e7), 1.959_964, 1e-5));
    assert!(close(t_quantile(0.025, 10.0), -2.228_138_852, 1e-8));
}

#[test]
fn t_known_values() {
    // Quantiles and p-values to 10 digits, from the regularized incomplete
    // beta function in 30-digit arithmetic.
    assert!(close(t_quantile_975(9.0), 2.262_157_162_8, 1e-9));
    assert!(close(t_quantile_975(100.0), 1.983_971_518_5, 1e-9));
    assert!(close(t_quantile(0.95, 20.0), 1.724_718_242_9, 1e-9));
    assert!(close(t_quantile(0.995, 4.0), 4.604_094_871_3, 1e-9));
    assert!(close(t_two_sided_p(2.262_157_163, 9.0), 0.05, 1e-10));
    assert!(close(t_two_sided_p(3.0, 5.0), 0.030_099_247_9, 1e-10));
    assert!(close(t_two_sided_p(1.0, 29.0), 0.325_581_988_0, 1e-10));
    assert!(close(t_two_sided_p(-5.0, 2.0), 0.037_749_551_4, 1e-10));
    assert!(close(t_cdf(2.262_157_163, 9.0), 0.975, 1e-10));
    // Degenerate arguments give NaN rather than a panic.
    assert!(t_cdf(1.0, 0.0).is_nan());
    assert!(t_two_sided_p(f64::NAN, 5.0).is_nan());
    assert!(t_quantile(1.5, 5.0).is_nan());
}

#[test]
fn mean_sd_quantile_by_hand() {
    let xs = [4.0, 1.0, 3.0, 2.0];
    assert_eq!(mean(&xs), 2.5);
    // Σ(x − 2.5)² = 5, over 3.
    assert!(close(sample_sd(&xs), (5.0f64 / 3.0).sqrt(), 1e-15));
    assert_eq!(median(&xs), 2.5);
    assert_eq!(quantile(&xs, 0.0), 1.0);
    assert_eq!(quantile(&xs, 1.0), 4.0);
    // h = 3 × 0.25 = 0.75 → 1 + 0.75 × (2 − 1).
    assert_eq!(quantile(&xs, 0.25), 1.75);
    assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
    assert_eq!(mean(&[]), 0.0);
    assert_eq!(sample_sd(&[7.0]), 0.0);
    assert_eq!(quantile(&[], 0.5), 0.0);
}

#[test]
fn summary_by_hand() {
    let games = [
        GameStat {
            score: 100,
            max_tile: 512,
            moves: 10,
        },
        GameStat {
            score: 200,
            max_tile: 1024,
            moves: 20,
        },
        GameStat {
            score: 300,
            max_tile: 2048,
            moves: 30,
        },
        GameStat {
            score: 400,
            max_tile: 4096,
            moves: 40,
        },
    ];
    let s = Summary::from_games(&games, 2.0);
    assert_eq!(s.games, 4);
    assert_eq!(s.mean_score, 250.0);
    // Σ(x − 250)² = 50000, over 3.
    let sd = (50_000.0f64 / 3.0).sqrt();
    assert!(close(s.sd_score, sd, 1e-12));
    let half = 3.182_446_305 * sd / 2.0;
    assert!(close(s.ci95[0], 250.0 - half, 1e-6));
    assert!(close(s.ci95[1], 250.0 + half, 1e-6));
    assert_eq!(s.median_score, 250.0);
    assert_eq!(s.reach["512"], 1.0);
    assert_eq!(s.reach["1024"], 0.75);
    assert_eq!(s.reach["2048"], 0.5);
    assert_eq!(s.reach["4096"], 0.25);
    assert_eq!(s.reach["8192"], 0.0);
    assert_eq!(s.reach.len(), REACH_TILES.len());
    assert_eq!(s.mean_moves, 25.0);
    assert_eq!(s.moves_per_s, 50.0);
    assert_eq!(s.games_per_s, 2.0);
}

#[test]
fn summary_of_nothing_is_zero_and_serializes() {
    let s = Summary::from_games(&[], 0.0);
    assert_eq!(s.games, 0);
    assert_eq!(s.mean_score, 0.0);
    assert_eq!(s.ci95, [0.0, 0.0]);
    assert_eq!(s.games_per_s, 0.0);
    let json = serde_json::to_string(&s).unwrap();
    let back: Summary = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
}

#[test]
fn paired_by_hand() {
    let a = [100, 200, 300, 400, 500];
    let b = [110, 190, 330, 400, 520];
    // Differences 10, −10, 30, 0, 20: mean 10, Σ(d − 10)² = 0+400+400+100+100 = 1000.
    let p = Paired::compare(&a, &b);
    assert_eq!(p.games, 5);
    assert_eq!(p.mean_diff, 10.0);
    let se = (1000.0f64 / 4.0).sqrt() / 5f64.sqrt();
    let half = 2.776_445_105 * se;
    assert!(close(p.ci95[0], 10.0 - half, 1e-6));
    assert!(close(p.ci95[1], 10.0 + half, 1e-6));
    assert!(close(p.ratio, 1550.0 / 1500.0, 1e-15));
    // t = 10 / se = 1.41421..., df = 4: p = 0.2301996...
    assert!(close(p.p_value, 0.230_199_6, 1e-6));
    assert_eq!((p.wins, p.losses, p.ties), (3, 1, 1));
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(serde_json::from_str::<Paired>(&json).unwrap(), p);
}

#[test]
fn paired_degenerate_cases() {
    let same = Paired::compare(&[5, 6, 7], &[5, 6, 7]);
    assert_eq!(same.p_value, 1.0);
    assert_eq!(same.ties, 3);
    let shifted = Paired::compare(&[5, 6, 7], &[6, 7, 8]);
    assert_eq!(shifted.p_value, 0.0);
    assert_eq!(shifted.ci95, [1.0, 1.0]);
    let one = Paired::compare(&[5], &[9]);
    assert_eq!(one.p_value, 1.0);
    assert_eq!(one.ci95, [4.0, 4.0]);
    assert_eq!(Paired::compare(&[0, 0], &[1, 2]).ratio, 0.0);
}

#[test]
fn histogram_buckets_cover_scores_in_order_within_their_bound() {
    let mut last = 0;
    for score in (0..5000u64).chain([1 << 20, 3_932_100, u64::MAX / 3, u64::MAX]) {
        let b = bucket_of(score);
        assert!(b < BUCKETS && b >= last, "{score}");
        last = b;
        let middle = bucket_middle(b);
        let error = (middle - score as f64).abs() / (score as f64).max(1.0);
        assert!(error <= HISTOGRAM_MEDIAN_REL_ERROR, "{score}: {middle}");
    }
    // Below 2048 every score has a bucket of its own.
    assert_eq!(bucket_middle(bucket_of(2047)), 2047.0);
    assert_eq!(bucket_of(2048), bucket_of(2049));
}

/// Scores spread like a depth-0 run's: a generator of this test's own.
fn scores(n: usize) -> Vec<u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            1_000 + (x % 30_000) + (x >> 40) % 7 * 4_000
        })
        .collect()
}

#[test]
fn the_median_is_exact_up_to_its_limit_then_close() {
    let all = scores(EXACT_MEDIAN_GAMES + 1001);
    let as_f64 = |xs: &[u64]| xs.iter().map(|&x| x as f64).collect::<Vec<_>>();
    let mut sketch = MedianSketch::default();
    for (i, &x) in all.iter().enumerate() {
        sketch.add(x);
        if i + 1 == EXACT_MEDIAN_GAMES {
            let exact = median(&as_f64(&all[..=i]));
            assert_eq!(sketch.median(), (exact, None));
        }
    }
    let exact = median(&as_f64(&all));
    let (m, bound) = sketch.median();
    assert_eq!(bound, Some(HISTOGRAM_MEDIAN_REL_ERROR));
    assert!(
        (m - exact).abs() <= HISTOGRAM_MEDIAN_REL_ERROR * exact,
        "{m} {exact}"
    );
    // Past the limit the scores stay allocated, unread: the memory holds.
    assert!(sketch.past_exact);
    assert!(sketch.exact.capacity() >= EXACT_MEDIAN_GAMES);
    // A score past 32 bits moves to the histogram at once.
    let mut big = MedianSketch::default();
    big.add(7);
    big.add(1 << 40);
    big.add(9);
    let (m, bound) = big.median();
    assert!(bound.is_some() && m == 9.0);
}

#[test]
fn tallies_agree_with_the_two_pass_formulas() {
    let xs = scores(5_000);
    let games: Vec<GameStat> = xs
        .iter()
        .map(|&score| GameStat {
            score,
            max_tile: 1 << (9 + score % 4),
            moves: (score / 10) as u32,
        })
        .collect();
    let s = Summary::from_games(&games, 3.0);
    let f = xs.iter().map(|&x| x as f64).collect::<Vec<_>>();
    assert_eq!(s.mean_score, mean(&f));
    assert!(close(s.sd_score, sample_sd(&f), 1e-9 * s.sd_score));
    let ci = mean_ci95(&f);
    assert!(close(s.ci95[0], ci[0], 1e-9) && close(s.ci95[1], ci[1], 1e-9));
    assert_eq!(s.median_score, median(&f));
    let tiles: Vec<u32> = games.iter().map(|g| g.max_tile).collect();
    for tile in REACH_TILES {
        assert_eq!(s.reach[&tile.to_string()], reach_share(&tiles, tile));
    }
    // Paired: the tally against the differences' own formulas.
    let b: Vec<u64> = xs.iter().rev().copied().collect();
    let p = Paired::compare(&xs, &b);
    let d: Vec<f64> = xs
        .iter()
        .zip(&b)
        .map(|(&x, &y)| y as f64 - x as f64)
        .collect();
    assert_eq!(p.mean_diff, mean(&d));
    let ci = mean_ci95(&d);
    assert!(close(p.ci95[0], ci[0], 1e-9) && close(p.ci95[1], ci[1], 1e-9));
}
