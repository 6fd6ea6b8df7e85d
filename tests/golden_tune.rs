//! The tuner's golden run: `tune configs/smoke.ron` through the binary must
//! give, to the last digit, the `best.ron` and the per-generation numbers of
//! `generations.csv` pinned in `tests/data/smoke/`. Everything in a run but
//! its wall time is a function of the config's seed (the games, the
//! optimizer's samples, validation and selection), so any change in what the
//! tuner computes shows up here.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{repo_path, tune, TempDir};

const CONFIG: &str = "configs/smoke.ron";
const GOLDEN_DIR: &str = "tests/data/smoke";

/// The one column of `generations.csv` that depends on the clock.
const WALL_TIME: &str = "elapsed_s";

/// A CSV file as its header and, per row, a map from column name to text.
fn read_csv(text: &str) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .expect("a header line")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{line}");
            header
                .iter()
                .cloned()
                .zip(fields.iter().map(|f| f.to_string()))
                .collect()
        })
        .collect();
    (header, rows)
}

/// `generations.csv` without its wall-time column, the columns in their order.
fn without_wall_time(text: &str) -> String {
    let (header, rows) = read_csv(text);
    let keep: Vec<&String> = header.iter().filter(|c| *c != WALL_TIME).collect();
    let mut out = keep
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for row in rows {
        let fields: Vec<&str> = keep.iter().map(|c| row[*c].as_str()).collect();
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

/// Checks a run folder against the golden files. Columns are matched by
/// name, so reordering them is not a change; adding or dropping one is.
fn check_against_golden(run: &Path, label: &str) {
    let golden = repo_path(GOLDEN_DIR);
    let best = std::fs::read_to_string(run.join("best.ron")).unwrap();
    let want = std::fs::read_to_string(golden.join("best.ron")).unwrap();
    assert_eq!(best, want, "{label}: best.ron differs from the golden");

    let csv = std::fs::read_to_string(run.join("generations.csv")).unwrap();
    let (header, rows) = read_csv(&csv);
    let (golden_header, golden_rows) =
        read_csv(&std::fs::read_to_string(golden.join("generations.csv")).unwrap());
    assert!(header.iter().any(|c| c == WALL_TIME), "{header:?}");
    let mut columns: Vec<&String> = header.iter().filter(|c| *c != WALL_TIME).collect();
    let mut golden_columns: Vec<&String> = golden_header.iter().collect();
    columns.sort();
    golden_columns.sort();
    assert_eq!(columns, golden_columns, "{label}: generations.csv columns");
    assert_eq!(rows.len(), golden_rows.len(), "{label}: generations");
    for (i, (row, want)) in rows.iter().zip(&golden_rows).enumerate() {
        for (column, value) in want {
            assert_eq!(
                &row[column],
                value,
                "{label}: generations.csv row {}, column {column}",
                i + 1
            );
        }
    }
}

#[test]
fn smoke_run_matches_the_golden() {
    let dir = TempDir::new("golden-smoke");
    // The default thread count (one per core), then one thread: the same run.
    let run = tune(&repo_path(CONFIG), &dir.join("default"), None);
    check_against_golden(&run, "default threads");
    let run = tune(&repo_path(CONFIG), &dir.join("one"), Some(1));
    check_against_golden(&run, "--threads 1");
}

/// Rewrites `tests/data/smoke/best.ron` and `generations.csv` (without its
/// wall-time column) from a fresh run of `configs/smoke.ron`. Do this only on
/// purpose, when a change is meant to alter what the tuner computes, and give
/// the reason in the commit that carries the new files:
/// `TUNE2048_BLESS=1 cargo test --test integration -- --ignored regenerate_smoke_golden`.
/// Without `TUNE2048_BLESS=1` it writes nothing, so `--include-ignored` leaves
/// every golden file as it is.
#[test]
#[ignore]
fn regenerate_smoke_golden() {
    if !crate::util::blessing("tests/data/smoke/") {
        return;
    }
    let dir = TempDir::new("regenerate-smoke");
    let run = tune(&repo_path(CONFIG), &dir, None);
    let golden = repo_path(GOLDEN_DIR);
    std::fs::create_dir_all(&golden).unwrap();
    std::fs::copy(run.join("best.ron"), golden.join("best.ron")).unwrap();
    let csv = std::fs::read_to_string(run.join("generations.csv")).unwrap();
    std::fs::write(golden.join("generations.csv"), without_wall_time(&csv)).unwrap();
}
