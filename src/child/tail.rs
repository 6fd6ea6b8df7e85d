//! The last lines a program wrote to stderr, kept by a thread of its own
//! until the stream closes, for the messages about that program.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::ChildStderr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines of a program's stderr kept for messages, and the longest kept.
const TAIL_LINES: usize = 12;
const TAIL_WIDTH: usize = 300;

/// The last lines a program wrote to stderr, and whether it closed it.
#[derive(Default)]
pub(super) struct Tail {
    pub(super) lines: VecDeque<String>,
    pub(super) closed: bool,
}

/// Starts the thread that keeps the tail of `stderr`.
pub(super) fn keep(stderr: ChildStderr) -> std::io::Result<Arc<Mutex<Tail>>> {
    let tail = Arc::new(Mutex::new(Tail::default()));
    let keeper = Arc::clone(&tail);
    std::thread::Builder::new()
        .name("player-stderr".into())
        .spawn(move || keep_tail(stderr, &keeper))?;
    Ok(tail)
}

/// The lines kept, once `tail` closed or `wait` passed.
pub(super) fn last_lines(tail: &Mutex<Tail>, wait: Duration) -> Vec<String> {
    let until = Instant::now() + wait;
    loop {
        let tail = tail.lock().unwrap_or_else(|e| e.into_inner());
        if tail.closed || Instant::now() >= until {
            return tail.lines.iter().cloned().collect();
        }
        drop(tail);
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Keeps the last [`TAIL_LINES`] lines of `stderr` until it closes.
fn keep_tail(stderr: ChildStderr, tail: &Mutex<Tail>) {
    let mut reader = BufReader::new(stderr);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match reader
            .by_ref()
            .take(64 * 1024)
            .read_until(b'\n', &mut bytes)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&bytes);
                let line: String = text.trim_end().chars().take(TAIL_WIDTH).collect();
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.lines.len() == TAIL_LINES {
                    t.lines.pop_front();
                }
                t.lines.push_back(line);
            }
        }
    }
    tail.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
}
