//! `tune2048 place` through the real executable: searches, their transcripts
//! checked by `--verify`, and bad transcripts.

use std::path::Path;
use std::process::Output;

use crate::util::{bin, text, TempDir};

/// `place ARGS`, run in `dir`.
fn place(dir: &Path, args: &[&str]) -> Output {
    bin()
        .arg("place")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// `place --verify FILE --target T --size N` on `contents`.
fn verify(dir: &Path, contents: &[u8], target: &str, size: &str) -> Output {
    let file = dir.join("t.txt");
    std::fs::write(&file, contents).unwrap();
    place(
        dir,
        &[
            "--verify",
            file.to_str().unwrap(),
            "--target",
            target,
            "--size",
            size,
        ],
    )
}

#[test]
fn two_by_two_exact_maximum_is_16_and_its_transcript_verifies() {
    let dir = TempDir::new("place-2x2");
    let out = place(&dir, &["--size", "2", "--out", "t.txt"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("the largest reachable tile is 16"), "{err}");
    let transcript = std::fs::read_to_string(dir.join("t.txt")).unwrap();
    assert!(transcript.contains("reached 16 in "), "{transcript}");
    let ok = place(
        &dir,
        &["--verify", "t.txt", "--target", "16", "--size", "2"],
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
}

#[test]
fn four_by_four_planner_reaches_2048_and_verifies() {
    let dir = TempDir::new("place-4x4");
    let out = place(&dir, &["--target", "2048", "--out", "t.txt"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ok = place(&dir, &["--verify", "t.txt", "--target", "2048"]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert!(text(&ok.stdout).contains("largest tile 2048"));
    // The same transcript falls short of 4096.
    let short = place(&dir, &["--verify", "t.txt", "--target", "4096"]);
    assert_eq!(short.status.code(), Some(1));
    let err = text(&short.stderr);
    assert!(
        err.contains("target 4096 not reached: the largest tile is 2048"),
        "{err}"
    );
}

#[test]
fn running_out_of_time_exits_1_with_the_best_tiles_transcript() {
    let dir = TempDir::new("place-time");
    let out = place(
        &dir,
        &[
            "--target",
            "65536",
            "--time-limit",
            "0.05",
            "--out",
            "t.txt",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    let best = err
        .split("the best tile reached is ")
        .nth(1)
        .unwrap_or_else(|| panic!("{err}"))
        .trim();
    let ok = place(&dir, &["--verify", "t.txt", "--target", best]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
}

#[test]
fn bad_transcripts_exit_1_naming_the_line() {
    let dir = TempDir::new("place-bad");
    let cases: [(&str, &str); 4] = [
        (
            "1 1 D\n2 1 D\nreached 4 in 2 turns\n",
            "error: line 2: row 2, column 1 is occupied",
        ),
        (
            "1 1 D\n1 3 D\nreached 4 in 2 turns\n",
            "error: line 2: row 1, column 3 is outside the 2×2 board",
        ),
        (
            "1 1 D\n1 1 L\nreached 4 in 2 turns\n",
            "error: line 2: the move L changes nothing",
        ),
        (
            "1 1 D\n1 2 D\nreached 4 in 2 turns\n",
            "error: line 3: target 4 not reached: the largest tile is 2",
        ),
    ];
    for (contents, message) in cases {
        let out = verify(&dir, contents.as_bytes(), "4", "2");
        assert_eq!(out.status.code(), Some(1), "{contents:?}");
        assert_eq!(text(&out.stderr), format!("{message}\n"), "{contents:?}");
    }
}

#[test]
fn files_that_are_not_transcripts_exit_2_naming_the_line() {
    let dir = TempDir::new("place-not");
    let cases: [(&[u8], &str); 5] = [
        (
            b"1 1 D\n1 1 UP\n",
            "error: line 2: unknown direction `UP` (expected U, D, L or R)",
        ),
        (
            b"1 1 D\n1 1 D\n",
            "error: line 3: the transcript ends without its last line `reached T in K turns`",
        ),
        (
            b"1 1 D\n1 1",
            "error: line 2: expected `row col DIR` or `reached T in K turns`, found `1 1`",
        ),
        (b"1 x D\n", "error: line 1: `x` is not a column number"),
        (
            b"1 1 D\nreached 2 in 1 turns\nmore\n",
            "error: line 3: unexpected text after the `reached` line",
        ),
    ];
    for (contents, message) in cases {
        let out = verify(&dir, contents, "2", "2");
        assert_eq!(out.status.code(), Some(2), "{contents:?}");
        assert_eq!(text(&out.stderr), format!("{message}\n"), "{contents:?}");
    }
    let out = verify(&dir, b"\xff\xfe\n", "2", "2");
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("panicked"));
}

#[test]
fn bad_flags_exit_2() {
    let dir = TempDir::new("place-flags");
    for (args, message) in [
        (
            &["--target", "48"][..],
            "error: --target must be a power of two from 2, not 48\n",
        ),
        (
            &["--size", "2", "--target", "64"][..],
            "error: --target 64 is out of reach: no 2×2 game can pass 2^4 = 16\n",
        ),
        (
            &["--size", "5"][..],
            "error: --target is needed for sizes above 3\n",
        ),
    ] {
        let out = place(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stderr), message, "{args:?}");
    }
    let out = place(&dir, &["--size", "9", "--target", "4"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `tests/data/place-3x3-512.txt` is what `place --size 3` printed: the exact
/// search's shortest game to 512, the bound of the 3×3 board.
#[test]
fn the_exact_3x3_transcript_to_512_verifies() {
    let dir = TempDir::new("place-3x3");
    let file = crate::util::repo_path("tests/data/place-3x3-512.txt");
    let file = file.to_str().unwrap();
    let ok = place(&dir, &["--verify", file, "--target", "512", "--size", "3"]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout),
        "ok: 263 turns, legal, largest tile 512 (target 512)\n"
    );
    // On a 4×4 board the same turns are another game, which fails somewhere.
    let other = place(&dir, &["--verify", file, "--target", "512", "--size", "4"]);
    assert_eq!(other.status.code(), Some(1));
}
