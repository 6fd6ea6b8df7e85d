//! A player program as a child process: lines written straight to its
//! stdin, its stdout read with `poll(2)` and a deadline (no thread between
//! us and the program, so a round trip costs two context switches), and the
//! tail of its stderr kept for error messages by a thread of its own.
//!
//! The program leads a process group of its own; stopping it kills the whole
//! group, so a shell script's children go too. On Linux it is also killed
//! if the thread that started it ends without stopping it (a worker thread
//! of ours that dies), and every live program is listed in a registry that
//! [`stop_all`] empties at exit.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line accepted from a program, in bytes.
pub const MAX_LINE: usize = 4096;
/// How long a read checks for an answer before it blocks.
const SPIN: Duration = Duration::from_micros(100);
/// Lines of a program's stderr kept for messages, and the longest kept.
const TAIL_LINES: usize = 12;
const TAIL_WIDTH: usize = 300;

/// Why a program gave no line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    TimedOut(Duration),
    Ended(String),
    TooLong,
    NotUtf8,
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::TimedOut(limit) => {
                write!(f, "no answer within the limit of {} s", limit.as_secs_f64())
            }
            ReadError::Ended(how) => write!(f, "the program ended ({how})"),
            ReadError::TooLong => write!(f, "a line longer than {MAX_LINE} bytes"),
            ReadError::NotUtf8 => f.write_str("a line that is not UTF-8"),
            ReadError::Io(e) => write!(f, "cannot talk to the program: {e}"),
        }
    }
}

/// Process groups of the programs running now.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Kills every program still running (and its group): for the end of the
/// process, when worker threads may not have stopped theirs.
pub fn stop_all() {
    let live = std::mem::take(&mut *LIVE.lock().unwrap_or_else(|e| e.into_inner()));
    for group in live {
        // SAFETY: kill(2) only sends a signal, to a group we made.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// The last lines a program wrote to stderr, and whether it closed it.
#[derive(Default)]
struct Tail {
    lines: VecDeque<String>,
    closed: bool,
}

/// A running program.
pub struct Process {
    child: std::process::Child,
    group: i32,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Bytes read from stdout and not yet returned as lines.
    buffer: Vec<u8>,
    tail: Arc<Mutex<Tail>>,
    ended: Option<ReadError>,
}

impl Process {
    /// Starts `command` (the program, then its arguments).
    pub fn spawn(command: &[String]) -> std::io::Result<Process> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe; it only asks the kernel to
        // kill this child when the thread that started it ends.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = cmd.spawn()?;
        let group = i32::try_from(child.id()).map_err(std::io::Error::other)?;
        LIVE.lock().unwrap_or_else(|e| e.into_inner()).push(group);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let tail = Arc::new(Mutex::new(Tail::default()));
        let keeper = Arc::clone(&tail);
        std::thread::Builder::new()
            .name("player-stderr".into())
            .spawn(move || keep_tail(stderr, &keeper))?;
        Ok(Process {
            child,
            group,
            stdin,
            stdout,
            buffer: Vec::with_capacity(256),
            tail,
            ended: None,
        })
    }

    /// Writes `text` (whole lines, each ending in a newline). A program that
    /// stopped reading is not an error here: the next read says what happened.
    pub fn send(&mut self, text: &str) {
        if let Some(stdin) = &mut self.stdin {
            if stdin.write_all(text.as_bytes()).is_err() {
                self.stdin = None;
            }
        }
    }

    /// The next line (without its line end), if it comes within `limit`.
    pub fn receive(&mut self, limit: Duration) -> Result<String, ReadError> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > MAX_LINE {
                    return Err(ReadError::TooLong);
                }
                return String::from_utf8(line).map_err(|_| ReadError::NotUtf8);
            }
            if self.buffer.len() > MAX_LINE {
                return Err(ReadError::TooLong);
            }
            if let Some(e) = &self.ended {
                return Err(e.clone());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if !self.readable(left)? {
                return Err(ReadError::TimedOut(limit));
            }
            let mut chunk = [0u8; 1024];
            match self.stdout.read(&mut chunk) {
                Ok(0) => {
                    let how = self.exit_status();
                    self.ended = Some(ReadError::Ended(how));
                }
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::Io(e.to_string())),
            }
        }
    }

    /// Whether the program wrote more than the lines read so far: output
    /// read into the buffer with them, or waiting in the pipe (its end, too).
    pub fn has_more(&self) -> bool {
        !self.buffer.is_empty() || self.poll(0).unwrap_or(false)
    }

    /// Waits until stdout has something to read (data or its end), or `wait` passes.
    /// It checks without blocking for the first [`SPIN`]: a program's answer
    /// usually comes sooner, and a blocked thread's wake-up costs tens of
    /// microseconds on a virtual machine.
    fn readable(&self, wait: Duration) -> Result<bool, ReadError> {
        let start = Instant::now();
        let deadline = start + wait;
        while start.elapsed() < SPIN.min(wait) {
            if self.poll(0)? {
                return Ok(true);
            }
            // SAFETY: sched_yield(2) has no preconditions; it lets a program
            // that shares this core run first.
            unsafe {
                libc::sched_yield();
            }
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let ms = left.as_millis().min(i32::MAX as u128) as i32;
            // Round up, so that a wait under a millisecond is not a busy loop.
            let ms = if ms == 0 && !left.is_zero() { 1 } else { ms };
            if self.poll(ms)? {
                return Ok(true);
            }
            if Instant::now() >= deadline {
                return Ok(false);
            }
        }
    }

    /// One `poll(2)` of stdout for `ms` milliseconds: whether it is readable.
    fn poll(&self, ms: i32) -> Result<bool, ReadError> {
        let mut fd = libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for a descriptor we own.
        let n = unsafe { libc::poll(&mut fd, 1, ms) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(ReadError::Io(e.to_string()));
            }
        }
        Ok(n > 0)
    }

    /// How the program ended, in words, once its output closed (it usually
    /// exits at once, so wait a little for its status).
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(300);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return "it closed its output".into(),
            }
        }
    }

    /// The last lines the program wrote to stderr, waiting up to `wait` for
    /// it to close (after a crash or a kill, the last lines are on their way).
    pub fn stderr_tail(&self, wait: Duration) -> Vec<String> {
        let until = Instant::now() + wait;
        loop {
            let tail = self.tail.lock().unwrap_or_else(|e| e.into_inner());
            if tail.closed || Instant::now() >= until {
                return tail.lines.iter().cloned().collect();
            }
            drop(tail);
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Asks the program to quit (`farewell`, then its stdin closed), gives it
    /// `grace` to exit, then kills its whole group and reaps it.
    pub fn stop(&mut self, farewell: Option<&str>, grace: Duration) {
        if let Some(line) = farewell {
            self.send(line);
        }
        self.stdin = None;
        let until = Instant::now() + grace;
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        // SAFETY: kill(2) only sends a signal, to the group we made; any of
        // the program's children still in it go with it.
        unsafe {
            libc::kill(-self.group, libc::SIGKILL);
        }
        let _ = self.child.wait();
        LIVE.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&g| g != self.group);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop(None, Duration::ZERO);
    }
}

/// Keeps the last [`TAIL_LINES`] lines of `stderr` until it closes.
fn keep_tail(stderr: std::process::ChildStderr, tail: &Mutex<Tail>) {
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

fn describe(status: std::process::ExitStatus) -> String {
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("killed by signal {signal}");
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Process {
        Process::spawn(&["sh".to_string(), "-c".to_string(), script.to_string()]).unwrap()
    }

    const LONG: Duration = Duration::from_secs(30);

    #[test]
    fn lines_come_back_and_the_end_and_the_stderr_are_reported() {
        let mut p = sh("read x; echo \"got $x\"; printf 'a\\r\\nb\\n'; echo oops >&2; exit 3");
        p.send("hi\n");
        assert_eq!(p.receive(LONG).unwrap(), "got hi");
        assert_eq!(p.receive(LONG).unwrap(), "a");
        assert_eq!(p.receive(LONG).unwrap(), "b");
        let err = p.receive(LONG).unwrap_err();
        assert_eq!(err, ReadError::Ended("exit status 3".into()));
        assert_eq!(p.receive(LONG).unwrap_err(), err);
        assert_eq!(p.stderr_tail(LONG), vec!["oops".to_string()]);
    }

    #[test]
    fn a_silent_program_times_out_and_its_group_is_killed() {
        let mut p = sh("sleep 100 & echo started; wait");
        assert_eq!(p.receive(LONG).unwrap(), "started");
        let start = Instant::now();
        let err = p.receive(Duration::from_millis(100)).unwrap_err();
        assert_eq!(err, ReadError::TimedOut(Duration::from_millis(100)));
        assert!(start.elapsed() >= Duration::from_millis(100));
        p.stop(Some("quit\n"), Duration::ZERO);
        // The background sleep held stderr too; with the group gone it closes.
        p.stderr_tail(LONG);
        assert!(p.tail.lock().unwrap().closed);
        assert!(LIVE.lock().unwrap().iter().all(|&g| g != p.group));
    }

    #[test]
    fn overlong_and_binary_lines_are_refused() {
        let mut p = sh(&format!("head -c {} /dev/zero | tr '\\0' x", 2 * MAX_LINE));
        assert_eq!(p.receive(LONG), Err(ReadError::TooLong));
        let mut p = sh("printf '\\377\\n'");
        assert_eq!(p.receive(LONG), Err(ReadError::NotUtf8));
    }
}
