//! `play`, `eval` and `compare` through the binary.

use crate::util::{run, weights, TempDir};

#[test]
fn play_prints_a_summary_line_and_replays_from_its_seed() {
    let a = run(&["play", "--depth", "1", "--seed", "9"]);
    assert!(a.status.success());
    let line = String::from_utf8(a.stdout).unwrap();
    assert!(line.starts_with("seed 9 score "), "{line}");
    assert!(line.contains("outcome game_over"), "{line}");
    let b = run(&["play", "--depth", "1", "--seed", "9", "--show"]);
    let again = String::from_utf8(b.stdout).unwrap();
    // Same game, same score (the timing differs).
    let key = |s: &str| s.split(" time ").next().unwrap().to_string();
    assert_eq!(key(&line), key(&again));
    assert!(String::from_utf8_lossy(&b.stderr).contains("move 1: "));
}

#[test]
fn eval_json_and_csv_agree() {
    let dir = TempDir::new("eval");
    let csv = dir.join("games.csv");
    let out = run(&[
        "eval",
        "--games",
        "24",
        "--depth",
        "0",
        "--threads",
        "2",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "games",
        "mean_score",
        "ci95",
        "median_score",
        "reach",
        "moves_per_s",
        "games_per_s",
    ] {
        assert!(json.get(key).is_some(), "{key} missing: {json}");
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("game,seed,score,max_tile,moves,outcome"));
    let scores: Vec<f64> = lines
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 24);
    let mean = scores.iter().sum::<f64>() / 24.0;
    assert!((json["mean_score"].as_f64().unwrap() - mean).abs() < 1e-9);
    let ci = json["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() < mean && mean < ci[1].as_f64().unwrap());
    // One thread plays the same games.
    let one = run(&[
        "eval",
        "--games",
        "24",
        "--depth",
        "0",
        "--threads",
        "1",
        "--json",
    ]);
    let one: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(one["mean_score"], json["mean_score"]);
}

#[test]
fn compare_pairs_the_games() {
    let out = run(&[
        "compare",
        "--weights",
        &weights("nneonneo.ron"),
        "--weights",
        &weights("nneonneo.ron"),
        "--games",
        "20",
        "--depth",
        "0",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The same weights on the same seeds play the same games.
    assert_eq!(json["mean_diff"].as_f64(), Some(0.0));
    assert_eq!(json["ties"].as_u64(), Some(20));
    assert_eq!(json["ratio"].as_f64(), Some(1.0));
    for key in ["ci95", "p_value", "wins", "losses", "a", "b"] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
    let text = run(&[
        "compare",
        "--weights",
        &weights("nneonneo.ron"),
        "--weights",
        &weights("default.ron"),
        "--games",
        "20",
        "--depth",
        "0",
    ]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("B - A: mean"));
}

#[test]
fn bad_input_exits_2_with_the_reason() {
    let dir = TempDir::new("badweights");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Weights(\n    empty: 1.0,\n    nonsense: 2.0,\n)\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["play".into(), "--weights".into(), bad.display().to_string()],
            "bad.ron:",
        ),
        (
            vec![
                "eval".into(),
                "--weights".into(),
                dir.join("missing.ron").display().to_string(),
            ],
            "missing.ron",
        ),
        (vec!["eval".into(), "--games".into(), "0".into()], "--games"),
        (
            vec![
                "compare".into(),
                "--weights".into(),
                weights("nneonneo.ron"),
            ],
            "exactly two",
        ),
        (vec!["play".into(), "--depth".into(), "99".into()], "depth"),
    ];
    for (args, expect) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
    }
}
