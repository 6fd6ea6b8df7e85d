//! A binary on a CPU it was not built for: SIGILL ends it with a message.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Stdio;

use crate::util::{bin, text};

#[test]
fn an_illegal_instruction_ends_the_process_with_an_explanation() {
    // `interact` waits on stdin between answers; once it has answered, main
    // has run and the handler is in place.
    let mut child = bin()
        .args(["interact", "--depth", "1", "--untimed"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"10\n").unwrap();
    stdin.flush().unwrap();
    let mut answer = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut answer)
        .unwrap();
    assert!(
        ["UP", "DOWN", "LEFT", "RIGHT"].contains(&answer.trim()),
        "{answer}"
    );

    // What a CPU does on an instruction it lacks.
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    assert_eq!(unsafe { libc::kill(pid, libc::SIGILL) }, 0);
    let status = child.wait().unwrap();
    let mut stderr = Vec::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut stderr)
        .unwrap();
    let stderr = text(&stderr);
    drop(stdin);

    assert_eq!(
        status.code(),
        Some(i32::from(tune2048::cpu::EXIT_ILLEGAL_INSTRUCTION)),
        "{status:?}: {stderr}"
    );
    assert!(stderr.contains("illegal instruction (SIGILL)"), "{stderr}");
    assert!(stderr.contains("cargo build --release"), "{stderr}");
    assert!(stderr.contains("target-cpu=x86-64-v3"), "{stderr}");
}
