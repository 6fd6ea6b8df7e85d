//! The GPCC line protocol through the binary: `gpcc-player` on its own,
//! `gpcc-referee` running two copies of it (the same results as in-process
//! `match`), and players that break the protocol.

use std::time::{Duration, Instant};

use crate::util::{bin, bin_path, run, run_with_stdin, text, weights, TempDir};

/// Our player's command line at a fixed depth, for `--a` or `--b`.
fn ours(player: &str, plies: u32) -> String {
    format!(
        "{} gpcc-player --player {player} --plies {plies}",
        bin_path()
    )
}

/// The lines of a match report after its header: one per match (and its
/// faults), then the summary.
fn body(report: &str) -> Vec<&str> {
    report.lines().skip(1).collect()
}

/// Runs `args`, checks that it succeeded without a panic, returns stdout.
fn report(args: &[&str]) -> String {
    let out = run(args);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    text(&out.stdout)
}

#[test]
fn the_referee_with_our_player_equals_in_process_matches() {
    let file = weights("default.ron");
    let dir = TempDir::new("pair");
    let pair = crate::cli_gpcc_tune::player_file(&dir, "default.ron", "nneonneo.ron");
    for (rules, a, b, plies) in [
        ("gpcc2015", "eval1", "eval2", "3"),
        ("gpcc2016", "score", "eval1", "2"),
        ("gpcc2016", file.as_str(), "eval2", "2"),
        ("gpcc2016", "eval2", pair.as_str(), "2"),
    ] {
        let common = [
            "--rules",
            rules,
            "--matches",
            "3",
            "--openings",
            "1",
            "--seed",
            "7",
        ];
        let mut in_process = vec!["match", "--a", a, "--b", b, "--plies", plies];
        in_process.extend(common);
        let plies_n: u32 = plies.parse().unwrap();
        let (cmd_a, cmd_b) = (ours(a, plies_n), ours(b, plies_n));
        let mut refereed = vec!["gpcc-referee", "--a", &cmd_a, "--b", &cmd_b];
        refereed.extend(common);
        let want = report(&in_process);
        let got = report(&refereed);
        assert_eq!(body(&got), body(&want), "{rules} {a} {b}:\n{got}");
        assert_eq!(body(&want).len(), 5, "{want}");
    }
}

#[test]
fn the_player_answers_on_its_turns_only_and_names_a_bad_line() {
    // Two games in a row: attacking first, then defending.
    let input = "rules gpcc2015\nrole attacker\nboard 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
                 score 0\ngo\nend\nrules gpcc2016\nrole defender\n\
                 board 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nscore 0\nplace 16 4\nend\n";
    let out = run_with_stdin(
        bin().args(["gpcc-player", "--player", "eval2", "--plies", "3"]),
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answers = text(&out.stdout);
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), 2, "{answers}");
    assert!(
        lines[0].starts_with("place ") && lines[0].ends_with(" 2"),
        "{answers}"
    );
    assert!(
        ["up", "down", "left", "right"].contains(&lines[1]),
        "{answers}"
    );
    for (input, want) in [
        (
            "go\n",
            "protocol line 1: a game must start with a `rules` line",
        ),
        (
            "rules gpcc2015\nrole defender\nplace 1 4\n",
            "protocol line 3: `place 1 4` is not a legal attacker action",
        ),
        (
            "rules gpcc2015\nhello\n",
            "protocol line 2: `hello` is not a message of the protocol",
        ),
    ] {
        let out = run_with_stdin(
            bin().args(["gpcc-player", "--plies", "1"]),
            input.as_bytes(),
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}: {stderr}");
        assert!(stderr.contains(want), "{input:?}: {stderr}");
    }
}

/// Referees one match of our player (A) against `b` under `rules` with a
/// time limit of 1 s per answer, and returns the report.
fn against(rules: &str, b: &str) -> String {
    let a = ours("eval1", 2);
    let args = ["gpcc-referee", "--rules", rules, "--a", &a, "--b", b];
    report(&[&args[..], &["--matches", "1", "--time-limit", "1"]].concat())
}

/// A script file in `dir`, run by `sh`, as a referee command.
fn script(dir: &TempDir, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn malformed_and_illegal_answers_lose_with_a_message() {
    let dir = TempDir::new("protocol-bad-answers");
    let chatter = script(
        &dir,
        "chatter.sh",
        "while read l; do echo 'hello there'; done\n",
    );
    let r = against("gpcc2015", &chatter);
    assert!(
        r.contains("match   0: A defends      0, B defends      0: A Win"),
        "{r}"
    );
    assert!(r.contains("  game 1 (A defends): B (attacker) loses: answer 1 `hello there`: `hello there` is not `place CELL VALUE`"), "{r}");
    assert!(
        r.contains("  game 2 (B defends): B (defender) loses: answer 1 `hello there`"),
        "{r}"
    );
    // A 4 under gpcc2015, and a defender that answers like an attacker.
    let four = script(&dir, "four.sh", "while read l; do echo 'place 1 4'; done\n");
    let r = against("gpcc2015", &four);
    assert!(
        r.contains("B (attacker) loses: answer 1 `place 1 4`: gpcc2015 allows only a 2"),
        "{r}"
    );
    assert!(r.contains("B (defender) loses: answer 1 `place 1 4`: the defender must answer up, down, left or right"), "{r}");
    assert!(r.contains("A: 1 wins, 0 draws, 0 losses"), "{r}");
}

#[test]
fn silent_and_crashing_players_lose_and_nothing_hangs() {
    let dir = TempDir::new("protocol-silent");
    let start = Instant::now();
    let r = against("gpcc2016", "sleep 100");
    assert!(
        r.contains("B (attacker) loses: after line 5 `go`: no answer within 1 s"),
        "{r}"
    );
    assert!(r.contains("B (defender) loses: after line 5 `place"), "{r}");
    // A script whose own child keeps the pipe open goes with its group.
    let hold = script(&dir, "hold.sh", "read l; sleep 100\n");
    let r = against("gpcc2016", &hold);
    assert!(r.contains("no answer within 1 s"), "{r}");
    // Only a referee that waits for the players to end takes 100 s.
    assert!(start.elapsed() < Duration::from_secs(60));
    let r = against("gpcc2015", "false");
    assert!(r.contains("B (attacker) loses: after line 5 `go`: the program ended without answering (exit status 1)"), "{r}");
    // Our own player, cut off after two answers: the third never comes.
    // The script passes two answers on, then stops the player and ends, so
    // its output ends however slowly the player would have met the closed
    // pipe (a player left to die of SIGPIPE on its third answer may take
    // longer than the limit on a loaded machine, and then times out).
    let fifo = dir.join("answers");
    let cut = script(
        &dir,
        "cut.sh",
        // `head` would buffer its output; the shell's `echo` does not. A
        // background job's stdin is /dev/null unless given: fd 3 keeps ours.
        &format!(
            "exec 3<&0\nmkfifo {fifo}\n{ours} <&3 >{fifo} &\n\
             {{ read a; echo \"$a\"; read b; echo \"$b\"; }} <{fifo}\nkill $!\n",
            fifo = fifo.display(),
            ours = ours("eval1", 1)
        ),
    );
    let r = against("gpcc2015", &cut);
    assert!(r.contains("B (attacker) loses: after line 7 `"), "{r}");
    assert!(r.contains("the program ended without answering"), "{r}");
}

#[test]
fn the_referee_rejects_bad_flags_and_writes_a_transcript() {
    let dir = TempDir::new("protocol-transcript");
    let log = dir.join("t.txt");
    let (a, b) = (ours("eval1", 1), ours("eval2", 1));
    let log_arg = log.display().to_string();
    let args = [
        "gpcc-referee",
        "--rules",
        "gpcc2015",
        "--a",
        &a,
        "--b",
        &b,
        "--matches",
        "1",
    ];
    let r = report(&[&args[..], &["--transcript", &log_arg, "--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&r).unwrap();
    assert_eq!(v["matches"][0]["faults"].as_array().unwrap().len(), 0);
    let t = std::fs::read_to_string(&log).unwrap();
    let first: Vec<&str> = t.lines().take(2).collect();
    assert_eq!(first, ["A< rules gpcc2015", "A< role defender"], "{t}");
    assert!(t.contains("B< go\nB> place "), "{t}");
    assert_eq!(t.matches("< end").count(), 4, "{t}");
    for bad in [
        &["--time-limit", "0"][..],
        &["--a", ""],
        &["--a", "no-such-program-here"],
    ] {
        let out = run(&[&args[..], bad].concat());
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out.stderr));
    }
}
