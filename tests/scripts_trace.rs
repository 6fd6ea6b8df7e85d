//! `scripts/trace.py`, the summary of `interact --trace` files that the judge
//! page cites: time spent against time allotted, and the depths searched.

use std::process::Command;

use crate::util::{repo_path, text, TempDir};

fn trace_py(args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(repo_path("scripts/trace.py"))
        .args(args)
        .output()
        .expect("python3 runs scripts/trace.py")
}

#[test]
fn sums_each_span_of_moves() {
    let dir = TempDir::new("trace");
    let path = dir.join("trace.csv");
    std::fs::write(
        &path,
        "move,tile_sum,empty,depth,allotment_ms,spent_ms\n\
         1,2,15,4,1.5,0.25\n\
         2,4,14,5,1.5,0.75\n\
         3,6,13,5,1.0,0.5\n",
    )
    .unwrap();
    let path = path.display().to_string();
    let out = trace_py(&["--span", "2", &path]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<Vec<&str>> = stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(
        stdout.contains("3 moves, 0.00 s spent in searches"),
        "{stdout}"
    );
    // moves, tile sum at the span's start, ms spent, ms allotted, mean empty, depths.
    assert_eq!(lines[2], ["1-2", "2", "1", "3", "14.5", "4:1", "5:1"]);
    assert_eq!(lines[3], ["3-3", "6", "0", "1", "13.0", "5:1"]);
}

#[test]
fn a_file_that_is_not_a_trace_is_named_in_the_error() {
    let out = trace_py(&[&repo_path("README.md").display().to_string()]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("README.md: not an interact trace"),
        "{stderr}"
    );
    let out = trace_py(&["--span", "0", "x.csv"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("Usage"));
}
