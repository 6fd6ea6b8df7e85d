//! `tune2048 maxtile` through the real executable.

use std::process::Output;

use crate::util::{bin, run_with_stdin, text};

/// `maxtile ARGS` with `stdin`, run outside the checkout: it needs no files.
fn maxtile(args: &[&str], stdin: &str) -> Output {
    run_with_stdin(
        bin()
            .arg("maxtile")
            .args(args)
            .current_dir(std::env::temp_dir()),
        stdin.as_bytes(),
    )
}

#[test]
fn reference_test_vector_prints_16() {
    let out = maxtile(&[], "3\n2 2 2\n4 4 4\n8 8 8\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "16\n");
    let out = maxtile(&["--moves", "1"], "3\n2 2 2\n4 4 4\n8 8 8\n");
    assert_eq!(text(&out.stdout), "16\n");
    let out = maxtile(&["--moves", "0"], "3\n2 2 2\n4 4 4\n8 8 8\n");
    assert_eq!(text(&out.stdout), "8\n");
}

/// The golden cases: `(input, answer)` pairs of `tests/data/boj12100-cases.txt`.
fn golden_cases() -> Vec<(String, u64)> {
    let mut cases = Vec::new();
    let mut input = String::new();
    for line in include_str!("data/boj12100-cases.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        if let Some(answer) = line.strip_prefix('=') {
            cases.push((std::mem::take(&mut input), answer.trim().parse().unwrap()));
        } else {
            input += line;
            input.push('\n');
        }
    }
    cases
}

#[test]
fn golden_cases_through_the_binary() {
    let cases = golden_cases();
    // A spread of sizes: first, last, and every seventh case.
    for (i, (input, answer)) in cases.iter().enumerate() {
        if i % 7 != 0 && i + 1 != cases.len() {
            continue;
        }
        let out = maxtile(&[], input);
        assert!(out.status.success(), "case {i}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), format!("{answer}\n"), "case {i}");
    }
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_line() {
    let cases = [
        (
            "4\n2 2 2 2\n2 2 2\n",
            "error: line 3: expected 4 numbers, found 3",
        ),
        (
            "5\n0 0 0 0 3\n",
            "error: line 2, column 5: 3 is not 0 or a power of two from 2 to 1024",
        ),
        ("25\n", "error: line 1: N must be 1..=20, found 25"),
        (
            "2\n2 0\n0 0\n8\n",
            "error: line 4: unexpected text after the board",
        ),
        (
            "",
            "error: empty input: expected N (1..=20) on the first line",
        ),
        (
            "1\n0\n",
            "error: the board has no tile: at least one cell must hold 2 to 1024",
        ),
        (
            "3\n2 2 2\n",
            "error: line 3: expected row 2 of 3, found the end of the input",
        ),
    ];
    for (input, message) in cases {
        let out = maxtile(&[], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        assert_eq!(text(&out.stderr), format!("{message}\n"), "{input:?}");
        assert!(out.stdout.is_empty(), "{input:?}");
    }
}

#[test]
fn invalid_utf8_is_bad_input_not_a_panic() {
    let out = run_with_stdin(bin().arg("maxtile"), b"2\n\xff\xfe\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
