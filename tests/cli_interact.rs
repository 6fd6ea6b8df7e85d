//! `interact` (BOJ 28489 protocol) and the local `judge`, through the binary.

use crate::util::{bin, bin_path, run, run_with_stdin, text, weights, TempDir};

/// `interact`'s answers at depth 1 with no clock to `input`, run in `dir`
/// with `player`.
fn answers(dir: &std::path::Path, player: &[&str], input: &str) -> String {
    let out = run_with_stdin(
        bin()
            .current_dir(dir)
            .args(["interact", "--depth", "1", "--untimed"])
            .args(player),
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// With no player named, `interact` plays the twos network: from the file in
/// a checkout, and from its built-in copy anywhere else.
#[test]
fn the_default_player_is_the_shipped_twos_network() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let net = repo.join("configs/networks/twos.ntp");
    let net = net.to_str().unwrap();
    // One game against the named file, the cells chosen as it goes so that
    // each is empty; then its whole input again, with no player named.
    use std::io::{BufRead, BufReader, Write};
    use tune2048::engine::{Board, Direction};
    let mut child = bin()
        .current_dir(repo)
        .args(["interact", "--depth", "1", "--untimed", "--network", net])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (mut input, mut steps) = (String::new(), Vec::new());
    let mut board = Board::EMPTY;
    for turn in 0..60usize {
        let empty: Vec<usize> = (0..16).filter(|&c| board.rank(c) == 0).collect();
        let cell = empty[(turn * 7 + 3) % empty.len()];
        board = board.place(cell, 1).unwrap();
        input.push_str(&format!("{}\n", cell + 1));
        writeln!(stdin, "{}", cell + 1).unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        let dir = match answer.trim() {
            "UP" => Direction::Up,
            "DOWN" => Direction::Down,
            "LEFT" => Direction::Left,
            "RIGHT" => Direction::Right,
            other => panic!("answer `{other}`"),
        };
        board = board.shift(dir);
        steps.push(answer.trim().to_string());
    }
    writeln!(stdin, "-1").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    input.push_str("-1\n");
    let named = steps.join("\n") + "\n";
    assert_eq!(answers(repo, &[], &input), named);
    let elsewhere = TempDir::new("interact-builtin");
    assert_eq!(answers(&elsewhere.join(""), &[], &input), named);
}

/// `interact` at depth 2 with no clock and the reference weights, so that a
/// given input always gets the same answers (the inputs below were chosen
/// against them: the cells they name are empty when they are given).
fn interact(input: &str) -> std::process::Output {
    run_with_stdin(
        bin().args([
            "interact",
            "--weights",
            &weights("twos.ron"),
            "--depth",
            "2",
            "--untimed",
        ]),
        input.as_bytes(),
    )
}

#[test]
fn answers_one_direction_per_position_and_stops_at_minus_one() {
    let out = interact("10\n4\n6\n15\n8\n-1\n3\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), 5, "{text}");
    assert!(
        answers
            .iter()
            .all(|a| ["UP", "DOWN", "LEFT", "RIGHT"].contains(a)),
        "{text}"
    );
}

#[test]
fn malformed_or_impossible_lines_exit_2_naming_the_line() {
    for (input, expect) in [
        ("3\n17\n", "protocol line 2: cell 17 is outside 1..=16"),
        (
            "abc\n",
            "protocol line 1: expected a cell 1..=16 or -1, found `abc`",
        ),
        ("0\n", "protocol line 1: cell 0 is outside"),
    ] {
        let out = interact(input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}: {stderr}");
        assert!(stderr.contains(expect), "{input:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A position that is occupied at the time it is given.
    let out = interact("1\n");
    let first = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // After any first move from a lone 2 at cell 1, the 2 sits in a corner or on an edge;
    // re-using its new cell is an impossible placement.
    let cell = match first.as_str() {
        "UP" | "LEFT" => 1,
        "RIGHT" => 4,
        "DOWN" => 13,
        other => panic!("unexpected answer {other}"),
    };
    let out = interact(&format!("1\n{cell}\n"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(&format!("protocol line 2: cell {cell} is already occupied")));
}

/// `(max tile, moves)` of each line `game N: max tile T  M moves  S s` of the
/// judge's report.
fn judged_games(report: &str) -> Vec<(u32, u32)> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("game"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "tile").unwrap();
            assert_eq!(words[i + 3], "moves", "{l}");
            (words[i + 1].parse().unwrap(), words[i + 2].parse().unwrap())
        })
        .collect()
}

/// `judge --games GAMES --seed 3` with `judge_args`, around `interact` at
/// depth 1 with no clock and `player_args`; the judge's time limit is far
/// above what the games take.
fn judge_untimed(games: u32, judge_args: &[&str], player_args: &[&str]) -> std::process::Output {
    let games = games.to_string();
    let mut args = vec![
        "judge",
        "--games",
        &games,
        "--seed",
        "3",
        "--time-limit",
        "3600",
    ];
    args.extend(judge_args);
    let interact = weights("interact.ron");
    args.extend(["--", bin_path(), "interact", "--depth", "1", "--untimed"]);
    args.extend(["--weights", &interact]);
    args.extend(player_args);
    run(&args)
}

/// The judge's placements come from its seed and the player searches every
/// move to depth 1 with no clock (`--untimed`), so each game is the same on
/// any machine: the test pins the tiles and move counts. The judge's own
/// time limit is set far above what the games take, so a slow or busy
/// machine cannot fail them either.
#[test]
fn the_local_judge_plays_interact_to_the_end() {
    let dir = TempDir::new("judge-csv");
    let csv = dir.join("games.csv");
    let out = judge_untimed(2, &["--csv", csv.to_str().unwrap()], &[]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("0 failed"), "{report}");
    assert_eq!(judged_games(&report), JUDGED, "{report}");
    // The CSV holds the same games, one row each, with the seeds `eval` uses.
    let rows = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = rows.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        ["game", "seed", "max_tile", "moves", "seconds", "error"]
    );
    assert_eq!(rows.len(), 1 + JUDGED.len());
    for (i, (row, (tile, moves))) in rows[1..].iter().zip(JUDGED).enumerate() {
        let seed = tune2048::seeds::game_seed(3, i as u64).to_string();
        assert_eq!(
            row[..4],
            [&i.to_string(), &seed, &tile.to_string(), &moves.to_string()]
        );
        assert_eq!(row[5], "", "{row:?}");
    }
}

/// `--trace` writes a row per move, and the judge lets the player exit by
/// itself after `-1`, so the trace, written at the end, is whole.
#[test]
fn a_judged_game_leaves_a_whole_trace() {
    let dir = TempDir::new("judge-trace");
    let trace = dir.join("trace.csv");
    let out = judge_untimed(1, &[], &["--trace", trace.to_str().unwrap()]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert_eq!(judged_games(&report), JUDGED[..1], "{report}");
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("move,tile_sum,empty,depth,allotment_ms,spent_ms")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), JUDGED[0].1 as usize);
    for (i, row) in rows.iter().enumerate() {
        // Before move i + 1 the judge has placed i + 1 twos and no merge
        // lost any of their sum.
        assert_eq!(row[0], (i + 1).to_string());
        assert_eq!(row[1], (2 * (i + 1)).to_string());
        assert!(row[2].parse::<u32>().unwrap() < 16);
        assert_eq!((row[3], row[4]), ("1", ""), "{row:?}");
        assert!(row[5].parse::<f64>().unwrap() >= 0.0);
    }
}

/// What `judge --games 2 --seed 3` gives the depth-1 untimed player with
/// the default weights (`configs/weights/interact.ron`).
const JUDGED: [(u32, u32); 2] = [(4096, 4088), (4096, 3149)];

#[test]
fn the_judge_rejects_an_illegal_answer() {
    // A player that always answers UP makes an illegal move sooner or later.
    let out = run(&[
        "judge",
        "--games",
        "1",
        "--",
        "sh",
        "-c",
        "while read p; do [ \"$p\" = -1 ] && exit 0; echo UP; done",
    ]);
    let text = text(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("UP is illegal here"), "{text}");
}

/// Runs `judge --games 1 --time-limit 1 -- PLAYER…` and returns its report,
/// checking that the game failed and nothing panicked.
fn judge_failing(player: &[&str]) -> String {
    let mut args = vec!["judge", "--games", "1", "--time-limit", "1", "--"];
    args.extend_from_slice(player);
    let out = run(&args);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("1 failed"), "{report}");
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    report
}

/// A silent player loses at the time limit instead of holding the judge
/// for its whole life; the bound below only catches a judge that waits
/// for the player to end (100 s), so a slow machine cannot fail it.
#[test]
fn the_judge_stops_a_silent_player_at_the_time_limit() {
    let start = std::time::Instant::now();
    let report = judge_failing(&["sleep", "100"]);
    assert!(start.elapsed().as_secs() < 60, "{report}");
    assert!(
        report.contains("FAILED: time limit exceeded after 0 moves"),
        "{report}"
    );
    // A shell whose own child keeps the pipe open is stopped with it.
    let start = std::time::Instant::now();
    let report = judge_failing(&["sh", "-c", "read p; sleep 100"]);
    assert!(start.elapsed().as_secs() < 60, "{report}");
    assert!(report.contains("time limit exceeded"), "{report}");
}

#[test]
fn the_judge_reports_a_crash_and_a_malformed_answer() {
    let report = judge_failing(&["false"]);
    assert!(
        report.contains("answer 1: the program ended without answering (exit status 1)"),
        "{report}"
    );
    let report = judge_failing(&["sh", "-c", "read p; echo sideways; sleep 100"]);
    assert!(
        report.contains("answer 1: `sideways` is not UP, DOWN, LEFT or RIGHT"),
        "{report}"
    );
}
