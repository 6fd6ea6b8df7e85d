//! `interact` (BOJ 28489 protocol) and the local `judge`, through the binary.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tune2048")
}

fn interact(input: &str) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(["interact", "--depth", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
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

#[test]
fn the_local_judge_plays_interact_to_the_end() {
    let out = Command::new(bin())
        .args([
            "judge",
            "--games",
            "2",
            "--seed",
            "3",
            "--",
            bin(),
            "interact",
            "--depth",
            "1",
            "--move-ms",
            "0.05",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("0 failed"), "{text}");
    // Depth-1 play on the twos variant reaches 1024 easily.
    let tiles: Vec<u32> = text
        .lines()
        .filter(|l| l.starts_with("game"))
        .map(|l| {
            l.split("max tile")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(tiles.len(), 2);
    assert!(tiles.iter().all(|&t| t >= 1024), "{tiles:?}");
}

#[test]
fn the_judge_rejects_an_illegal_answer() {
    // A player that always answers UP makes an illegal move sooner or later.
    let out = Command::new(bin())
        .args([
            "judge",
            "--games",
            "1",
            "--",
            "sh",
            "-c",
            "while read p; do [ \"$p\" = -1 ] && exit 0; echo UP; done",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("UP is illegal here"), "{text}");
}
