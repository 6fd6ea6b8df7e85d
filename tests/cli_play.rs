//! `play`, `eval` and `compare` through the binary.

use std::path::PathBuf;

use tune2048::engine::Variant;
use tune2048::evaluation::chunked::CHUNK_GAMES;
use tune2048::heuristic::{Heuristic, Weights};
use tune2048::search::{Depth, SearchParams};
use tune2048::seeds::game_seed;
use tune2048::selfplay::{play_one, GameSpec};
use tune2048::stats::{GameStat, Summary};

use crate::util::{bin, repo_path, run, text, weights, TempDir};

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
fn eval_first_plays_the_later_games_of_the_seed() {
    let dir = TempDir::new("evalfirst");
    let csv = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let mut args = vec!["eval", "--depth", "1", "--seed", "31"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--csv", path.to_str().unwrap()]);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (std::fs::read_to_string(&path).unwrap(), out.stderr)
    };
    let (whole, _) = csv("whole.csv", &["--games", "9"]);
    let (head, _) = csv("head.csv", &["--games", "4"]);
    let (tail, stderr) = csv("tail.csv", &["--first", "4", "--games", "5"]);
    assert!(
        String::from_utf8_lossy(&stderr).contains("5 games (4..9) from seed 31"),
        "{}",
        String::from_utf8_lossy(&stderr)
    );
    // The pieces, headers dropped from the second, are the whole sample, games
    // numbered alike.
    let joined: Vec<&str> = head.lines().chain(tail.lines().skip(1)).collect();
    assert_eq!(joined, whole.lines().collect::<Vec<_>>());
    assert!(tail.lines().nth(1).unwrap().starts_with("4,"), "{tail}");
    // A range past the last game index is refused before any game is played.
    let out = run(&["eval", "--first", "4294967295", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--first 4294967295"));
}

#[test]
fn one_game_is_summed_up_without_an_interval() {
    let out = run(&["eval", "--games", "1", "--depth", "0"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("(one game: no interval)"), "{said}");
    assert!(!said.contains("95% CI"), "{said}");
    let out = run(&[
        "compare",
        "--weights",
        &weights("nneonneo.ron"),
        "--weights",
        &weights("default.ron"),
        "--games",
        "1",
        "--depth",
        "0",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("(one game: no interval), ratio"), "{said}");
    assert!(!said.contains("t-test"), "{said}");
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

/// `--prob-cutoff` wins over a `--settings` file's cutoff (it was once
/// dropped without a word): with both, `eval` plays the flag's cutoff, the
/// same games as the flag alone and not those of the file alone.
#[test]
fn eval_prob_cutoff_wins_over_the_settings_file() {
    let dir = TempDir::new("cutoff-settings");
    let settings = dir.join("s.ron");
    std::fs::write(&settings, "(prob_cutoff: 0.001)\n").unwrap();
    let settings = settings.to_str().unwrap();
    let scores = |extra: &[&str]| {
        let mut args = vec!["eval", "--games", "4", "--depth", "2", "--move-limit", "80"];
        args.extend(["--threads", "2", "--json"]);
        args.extend(extra);
        let out = run(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (json["mean_score"].clone(), json["median_score"].clone())
    };
    let both = scores(&["--prob-cutoff", "0.5", "--settings", settings]);
    assert_eq!(both, scores(&["--prob-cutoff", "0.5"]));
    assert_ne!(both, scores(&["--settings", settings]));
    // The file still sets the cutoff when no flag does.
    assert_eq!(
        scores(&["--settings", settings]),
        scores(&["--prob-cutoff", "0.001"])
    );
}

/// What `eval --depth 0 --seed 1` with `weights` wrote before games were
/// streamed: the CSV text of games 0..n, built from the library's games,
/// and their summary.
fn played_whole(weights: &str, n: u32) -> (String, Summary) {
    let w = Weights::load(&repo_path("configs/weights").join(weights)).unwrap();
    let h = Heuristic::new(&w);
    let spec = GameSpec::new(
        Variant::CLASSIC,
        SearchParams::new(Depth::Fixed(0), Variant::CLASSIC),
    );
    let mut csv = String::from("game,seed,score,max_tile,moves,outcome\n");
    let mut stats = Vec::new();
    for i in 0..n {
        let r = play_one(&spec, &h, game_seed(1, i.into()));
        let rec = r.record;
        csv += &format!(
            "{i},{},{},{},{},{}\n",
            r.seed,
            rec.score,
            rec.max_tile,
            rec.moves,
            rec.outcome.name()
        );
        stats.push(GameStat {
            score: rec.score,
            max_tile: rec.max_tile,
            moves: rec.moves,
        });
    }
    (csv, Summary::from_games(&stats, 0.0))
}

#[test]
fn streamed_games_equal_the_games_played_whole() {
    // Past one chunk, so that rows and sums cross a chunk's end.
    let n = CHUNK_GAMES + 37;
    let (want_csv, want) = played_whole("default.ron", n);
    let dir = TempDir::new("stream");
    let csv = dir.join("games.csv");
    let games = n.to_string();
    let eval = |threads: &str, csv: &std::path::Path| {
        let out = run(&[
            "eval",
            "--games",
            &games,
            "--depth",
            "0",
            "--threads",
            threads,
            "--json",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let json = eval("2", &csv);
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), want_csv);
    // Exact sums: the mean is the same double; the median is exact below
    // its limit; reach shares are counts over n.
    assert_eq!(json["games"].as_u64(), Some(u64::from(n)));
    assert_eq!(json["mean_score"].as_f64(), Some(want.mean_score));
    assert_eq!(json["median_score"].as_f64(), Some(want.median_score));
    assert_eq!(json["mean_moves"].as_f64(), Some(want.mean_moves));
    assert!(json.get("median_rel_error").is_none(), "{json}");
    for (tile, share) in &want.reach {
        assert_eq!(json["reach"][tile].as_f64(), Some(*share), "{tile}");
    }
    // Welford's spread against the two-pass formula.
    let sd = json["sd_score"].as_f64().unwrap();
    let scores: Vec<f64> = want_csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    let two_pass = tune2048::stats::sample_sd(&scores);
    assert!((sd - two_pass).abs() <= 1e-9 * two_pass, "{sd} {two_pass}");
    // The same file and numbers on one thread.
    let one_csv = dir.join("one.csv");
    let one = eval("1", &one_csv);
    assert_eq!(
        std::fs::read(&one_csv).unwrap(),
        std::fs::read(&csv).unwrap()
    );
    for key in ["mean_score", "sd_score", "ci95", "median_score", "reach"] {
        assert_eq!(one[key], json[key], "{key}");
    }
    // No temporary file is left beside the CSV.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn compare_streams_each_side_as_eval_does() {
    let dir = TempDir::new("comparestream");
    let csv = dir.join("pair.csv");
    let out = run(&[
        "compare",
        "--weights",
        &weights("nneonneo.ron"),
        "--weights",
        &weights("default.ron"),
        "--games",
        "40",
        "--depth",
        "0",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (a, sa) = played_whole("nneonneo.ron", 40);
    let (b, sb) = played_whole("default.ron", 40);
    assert_eq!(std::fs::read_to_string(dir.join("pair.a.csv")).unwrap(), a);
    assert_eq!(std::fs::read_to_string(dir.join("pair.b.csv")).unwrap(), b);
    assert_eq!(json["a"]["mean_score"].as_f64(), Some(sa.mean_score));
    assert_eq!(json["b"]["mean_score"].as_f64(), Some(sb.mean_score));
    assert_eq!(
        json["mean_diff"].as_f64(),
        Some(sb.mean_score - sa.mean_score)
    );
    let decided = ["wins", "losses", "ties"].map(|k| json[k].as_u64().unwrap());
    assert_eq!(decided.iter().sum::<u64>(), 40);
}

/// Rows of games in a CSV file (its lines past the column line; a partial
/// file's first line names its games).
fn rows(path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let skip = if text.starts_with('#') { 2 } else { 1 };
    text.lines().skip(skip).count()
}

/// Runs the binary with `args` and kills it (SIGKILL) once each of
/// `partials` holds `at_least` rows. Returns the rows each held when the
/// process was gone.
fn kill_once_written(args: &[&str], partials: &[PathBuf], at_least: usize) -> Vec<usize> {
    let mut child = bin()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while partials.iter().any(|p| rows(p) < at_least) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed: give it more games"
        );
        assert!(started.elapsed().as_secs() < 120, "no rows came");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    partials.iter().map(|p| rows(p)).collect()
}

#[test]
fn a_killed_eval_resumes_to_the_unbroken_runs_file_and_summary() {
    let dir = TempDir::new("resume");
    let csv = dir.join("games.csv");
    let partial = dir.join("games.csv.partial");
    // Games of seed `seed`, `games` of them, written to `csv`.
    let games_of = |seed: &str, games: &str, csv: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--depth",
            "2",
            "--games",
            games,
            "--seed",
            seed,
            "--threads",
            "2",
            "--json",
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let eval = |seed: &str, games: &str, csv: &std::path::Path, extra: &[&str]| {
        let args = games_of(seed, games, csv, extra);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let killed = games_of("5", "40", &csv, &[]);
    let killed: Vec<&str> = killed.iter().map(String::as_str).collect();
    let held = kill_once_written(&killed, std::slice::from_ref(&partial), 8)[0];
    assert!(!csv.exists());
    assert!((8..40).contains(&held), "{held}");

    // Without --resume its games are not overwritten.
    let out = eval("5", "40", &csv, &[]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("games.csv.partial: holds the games of a run that stopped"),
        "{err}"
    );
    assert!(err.contains("--resume"), "{err}");
    // Other games are refused, with the line and what differs.
    let out = eval("6", "40", &csv, &["--resume"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("games.csv.partial, line 1: its games are not these: they differ in seed"),
        "{err}"
    );
    // So are fewer games than it holds.
    let out = eval("5", "4", &csv, &["--resume"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "holds {held} games from game 0, more than the 4 asked for"
        )),
        "{err}"
    );
    assert_eq!(rows(&partial), held);

    // More games than the stopped run asked for: the sample grows.
    let resumed = eval("5", "48", &csv, &["--resume"]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let err = text(&resumed.stderr);
    assert!(
        err.contains(&format!("resumed: games 0..{held} kept from")),
        "{err}"
    );
    assert!(!partial.exists());
    let whole_csv = dir.join("whole.csv");
    let whole = eval("5", "48", &whole_csv, &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        std::fs::read_to_string(&whole_csv).unwrap()
    );
    let json = |out: &std::process::Output| {
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (resumed, whole) = (json(&resumed), json(&whole));
    for key in [
        "games",
        "mean_score",
        "sd_score",
        "ci95",
        "median_score",
        "reach",
        "mean_moves",
    ] {
        assert_eq!(resumed[key], whole[key], "{key}");
    }
    // Nothing is left to resume.
    let out = eval("5", "48", &csv, &["--resume"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no stopped run of these games"));
}

#[test]
fn a_killed_compare_resumes_both_sides_from_the_same_game() {
    let dir = TempDir::new("compareresume");
    let csv = dir.join("pair.csv");
    let args = |csv: &std::path::Path| {
        [
            "compare",
            "--weights",
            &weights("nneonneo.ron"),
            "--weights",
            &weights("default.ron"),
            "--depth",
            "2",
            "--games",
            "30",
            "--threads",
            "2",
            "--json",
            "--csv",
            csv.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let killed: Vec<String> = args(&csv);
    let killed: Vec<&str> = killed.iter().map(String::as_str).collect();
    // Both sides go on from the first game either file lacks (the other's
    // rows past it are dropped and played again).
    let partials = ["a", "b"].map(|side| dir.join(format!("pair.{side}.csv.partial")));
    let held = kill_once_written(&killed, &partials, 3);
    let held = held.into_iter().min().unwrap();
    let resumed: Vec<String> = args(&csv).into_iter().chain(["--resume".into()]).collect();
    let resumed: Vec<&str> = resumed.iter().map(String::as_str).collect();
    let resumed = run(&resumed);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let err = text(&resumed.stderr);
    assert!(
        err.contains(&format!("resumed: games 0..{held} kept from")),
        "{err}"
    );
    let whole_csv = dir.join("whole.csv");
    let whole: Vec<String> = args(&whole_csv);
    let whole = run(&whole.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    for side in ["a", "b"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(format!("pair.{side}.csv"))).unwrap(),
            std::fs::read_to_string(dir.join(format!("whole.{side}.csv"))).unwrap(),
            "{side}"
        );
    }
    let json = |out: &std::process::Output| {
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (resumed, whole) = (json(&resumed), json(&whole));
    for key in ["mean_diff", "ci95", "p_value", "wins", "losses", "ties"] {
        assert_eq!(resumed[key], whole[key], "{key}");
    }
    assert_eq!(resumed["b"]["mean_score"], whole["b"]["mean_score"]);
}

/// Peak resident memory of a running process (Linux: VmHWM), in KiB.
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
#[test]
fn absurd_game_counts_run_in_flat_memory_or_are_refused() {
    // 4 x 10^9 games: once 41.6 GB of results were allocated up front (an
    // abort); now the games stream. Let it play a while, watch its peak.
    let mut child = bin()
        .args([
            "eval",
            "--games",
            "4000000000",
            "--depth",
            "0",
            "--threads",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut peaks = Vec::new();
    for _ in 0..6 {
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(child.try_wait().unwrap().is_none(), "eval ended early");
        peaks.push(peak_kib(child.id()).unwrap());
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Some 10 MB on the machine measured; 64 MiB leaves room for other
    // allocators and is a thousandth of what the games would take whole.
    assert!(peaks.iter().all(|&p| p < 64 * 1024), "{peaks:?}");
    // Counts past what --games holds are refused by the parser, exit 2.
    let out = run(&["eval", "--games", "5000000000", "--depth", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--games"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn eval_under_a_budget_says_how_deep_its_moves_were_searched() {
    let eval = |extra: &[&str]| -> String {
        let mut args = vec!["eval", "--games", "4", "--seed", "8"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let mix = |text: &str| -> Option<String> {
        let line = text
            .lines()
            .find(|l| l.contains("moves searched to depth"))?;
        Some(line.to_string())
    };
    let budget = ["--depth", "3", "--move-nodes", "3000"];
    let one = eval(&[&budget[..], &["--threads", "1"]].concat());
    let line = mix(&one).expect(&one);
    // "eval: moves searched to depth 1 a%, 2 b%, 3 c%": depths within the
    // cap, shares that add up to the whole.
    let shares: Vec<(u32, f64)> = line
        .split("depth ")
        .nth(1)
        .unwrap()
        .split(", ")
        .map(|part| {
            let (depth, share) = part.split_once(' ').unwrap();
            let share = share.trim_end_matches('%').parse().unwrap();
            (depth.parse().unwrap(), share)
        })
        .collect();
    assert!(shares.len() >= 2, "{line}");
    assert!(shares.iter().all(|&(d, _)| d <= 3), "{line}");
    let total: f64 = shares.iter().map(|&(_, s)| s).sum();
    assert!((total - 100.0).abs() < 0.2, "{line}");
    // A budget in moves tried depends on the position alone: the same mix on
    // two threads.
    let two = eval(&[&budget[..], &["--threads", "2"]].concat());
    assert_eq!(mix(&two).as_deref(), Some(line.as_str()));
    // At a fixed depth there is nothing to say.
    assert_eq!(mix(&eval(&["--depth", "1"])), None);
}

#[test]
fn eval_json_and_compare_under_a_budget_count_moves_by_depth() {
    let stdout = |args: &[&str]| -> String {
        let out = run(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let games = ["--games", "3", "--seed", "9", "--threads", "2"];
    let budget = ["--depth", "3", "--move-nodes", "2000"];
    let json: serde_json::Value = serde_json::from_str(&stdout(
        &[&["eval", "--json"][..], &games, &budget].concat(),
    ))
    .unwrap();
    let counts: Vec<u64> = serde_json::from_value(json["moves_by_depth"].clone()).unwrap();
    // Every move played is counted once, at a depth within the cap.
    let moves = json["mean_moves"].as_f64().unwrap() * 3.0;
    assert_eq!(counts.iter().sum::<u64>() as f64, moves.round(), "{json}");
    assert!(counts[4..].iter().all(|&n| n == 0), "{counts:?}");
    assert!(
        counts[1..4].iter().filter(|&&n| n > 0).count() >= 2,
        "{counts:?}"
    );
    // At a fixed depth every move is searched to it: nothing to count.
    let fixed: serde_json::Value = serde_json::from_str(&stdout(
        &[&["eval", "--json", "--depth", "1"][..], &games].concat(),
    ))
    .unwrap();
    assert!(fixed.get("moves_by_depth").is_none(), "{fixed}");

    // compare counts each side's moves, in text and in JSON; a side alike
    // in both its moves and its mix matches eval's counts.
    let default = weights("default.ron");
    let weights = ["--weights", default.as_str()];
    let sides = [&weights[..], &weights[..]].concat();
    let text = stdout(&[&["compare"][..], &sides, &games, &budget].concat());
    for side in ["A", "B"] {
        let prefix = format!("{side}: moves searched to depth ");
        assert!(text.lines().any(|l| l.starts_with(&prefix)), "{text}");
    }
    let paired: serde_json::Value = serde_json::from_str(&stdout(
        &[&["compare", "--json"][..], &sides, &games, &budget].concat(),
    ))
    .unwrap();
    assert_eq!(
        paired["a"]["moves_by_depth"], json["moves_by_depth"],
        "{paired}"
    );
    assert_eq!(
        paired["b"]["moves_by_depth"], json["moves_by_depth"],
        "{paired}"
    );
}
