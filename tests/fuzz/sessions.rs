//! Mutated sessions through the binary's stdin: `interact` (BOJ 28489) and
//! `gpcc-player` (GPCC). Every run must exit 0 (the session was fine) or 2
//! (a bad line, named), never panic, and finish within [`SESSION_LIMIT`].

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{env_number, mutate, name_hash, report_failure};
use crate::util::bin;

/// The longest one session may take: each answer is searched under a
/// small node or ply limit, so a session takes well under a second.
const SESSION_LIMIT: Duration = Duration::from_secs(30);

/// Sessions per protocol: `TUNE2048_FUZZ_SESSIONS`, or a short pass.
fn sessions() -> u64 {
    env_number("TUNE2048_FUZZ_SESSIONS", 12)
}

/// Runs `args` on every mutated session, checking the exit code, stderr
/// and time; panics listing every failure.
fn through_binary(name: &'static str, args: &[&str], corpus: Vec<Vec<u8>>) {
    let donors = super::lines_of(&corpus);
    let seed = super::base_seed() ^ name_hash(name);
    let start = Instant::now();
    let count = sessions();
    let mut failures = Vec::new();
    for index in 0..count {
        let input = mutate::input(seed, index, &corpus, &donors);
        if let Err(why) = one_session(bin().args(args), &input) {
            failures.push(report_failure(name, index, &input, &why));
        }
    }
    println!(
        "fuzz {name}: {count} sessions through the binary in {:.2} s, {} failures",
        start.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One run: stdin fed from a thread (the program may stop reading early),
/// killed if it outlives [`SESSION_LIMIT`].
fn one_session(cmd: &mut Command, input: &[u8]) -> Result<(), String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > SESSION_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {} s", SESSION_LIMIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = feeder.join();
    let stderr = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    if stderr.contains("panicked") {
        return Err(format!("panicked: {stderr}"));
    }
    match status.code() {
        Some(0) => Ok(()),
        Some(2) if stderr.contains("protocol line ") => Ok(()),
        code => Err(format!("exit {code:?}, stderr: {stderr}")),
    }
}

#[test]
fn interact_sessions_through_the_binary() {
    let weights = crate::util::weights("interact.ron");
    through_binary(
        "interact-binary",
        &[
            "interact",
            "--weights",
            &weights,
            "--depth",
            "2",
            "--move-nodes",
            "64",
        ],
        super::targets::interact_sessions(16),
    );
}

#[test]
fn gpcc_sessions_through_the_binary() {
    through_binary(
        "gpcc-binary",
        &["gpcc-player", "--player", "eval1", "--plies", "1"],
        super::targets::gpcc_sessions(),
    );
}
