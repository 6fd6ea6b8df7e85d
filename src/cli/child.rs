//! A player program run as a child process, spoken to line by line with a
//! deadline on every answer: the `judge` and the `gpcc-referee` share it.
//!
//! A reader thread turns the child's stdout into lines on a channel, so a
//! read can wait with a time-out (`recv_timeout`) whatever the child does:
//! stay silent, write a line without end, or die; a writer thread feeds its
//! stdin, so a child that does not read cannot block us either. Stopping a child kills its
//! whole process group (on Unix the child leads a group of its own), so a
//! shell script's own children go too, and then reaps it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line accepted from a child, in bytes.
pub const MAX_LINE: usize = 4096;

/// The longest time limit accepted, in seconds (about 31 years): an
/// `Instant` this far ahead never overflows.
pub const MAX_LIMIT_SECS: f64 = 1e9;

/// A time limit from a flag's seconds: positive, finite and at most
/// [`MAX_LIMIT_SECS`]; `None` otherwise.
pub fn time_limit(secs: f64) -> Option<Duration> {
    (secs > 0.0 && secs <= MAX_LIMIT_SECS).then(|| Duration::from_secs_f64(secs))
}

/// Why a child gave no line.
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    #[error("no answer within the time limit")]
    TimedOut,
    #[error("the program ended without answering ({0})")]
    Ended(String),
    #[error("a line longer than {MAX_LINE} bytes")]
    TooLong,
    #[error("a line that is not UTF-8")]
    NotUtf8,
    #[error("cannot read the program's output: {0}")]
    Read(String),
}

/// What the reader thread passes on: a line, or why there are no more.
enum Read1 {
    Line(String),
    Eof,
    TooLong,
    NotUtf8,
    Failed(String),
}

/// A running player program.
pub struct Child {
    process: std::process::Child,
    /// Lines for the writer thread; `None` once the child stopped reading.
    input: Option<Sender<String>>,
    lines: Receiver<Read1>,
    /// Set once the output ended: later reads give this again.
    closed: Option<ChildError>,
}

impl Child {
    /// Starts `program` with `args`, its stdin and stdout piped, its stderr
    /// shared with ours.
    pub fn spawn(program: &str, args: &[String]) -> std::io::Result<Child> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut process = command.spawn()?;
        let stdin = process.stdin.take().expect("stdin is piped");
        let stdout = process.stdout.take().expect("stdout is piped");
        Ok(Child {
            process,
            input: Some(writer(stdin)),
            lines: reader(stdout),
            closed: None,
        })
    }

    /// Queues `line` and a newline for the child. A child that stopped
    /// reading is not an error here: what it wrote before, or its silence,
    /// is what the next [`Child::receive`] reports.
    pub fn send(&mut self, line: &str) {
        if let Some(input) = &self.input {
            if input.send(format!("{line}\n")).is_err() {
                self.input = None;
            }
        }
    }

    /// The next line (without its line end), if it comes before `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Result<String, ChildError> {
        if let Some(err) = &self.closed {
            return Err(again(err));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        let err = match self.lines.recv_timeout(wait) {
            Ok(Read1::Line(line)) => return Ok(line),
            Err(RecvTimeoutError::Timeout) => return Err(ChildError::TimedOut),
            Ok(Read1::Eof) | Err(RecvTimeoutError::Disconnected) => {
                ChildError::Ended(self.exit_status())
            }
            Ok(Read1::TooLong) => ChildError::TooLong,
            Ok(Read1::NotUtf8) => ChildError::NotUtf8,
            Ok(Read1::Failed(e)) => ChildError::Read(e),
        };
        self.closed = Some(again(&err));
        Err(err)
    }

    /// How the program ended, in words, after its output closed: it usually
    /// exits at once, so wait a little for the status.
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.process.try_wait() {
                Ok(Some(status)) => return describe(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return "its output closed".into(),
            }
        }
    }

    /// Closes the child's input and gives it `grace` to exit by itself (to
    /// write what it keeps till the end, say) before [`Child::stop`].
    pub fn finish(&mut self, grace: Duration) {
        self.input = None;
        let until = Instant::now() + grace;
        while let Ok(None) = self.process.try_wait() {
            if Instant::now() >= until {
                break;
            }
            thread::sleep(Duration::from_millis(2));
        }
        self.stop();
    }

    /// Closes the child's input, kills it (its whole group) and reaps it.
    pub fn stop(&mut self) {
        self.input = None;
        if let Ok(None) = self.process.try_wait() {
            kill(&mut self.process);
        }
        let _ = self.process.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Lines the reader thread may get ahead of the referee: a child that floods
/// its output then waits instead of filling our memory.
const READ_AHEAD: usize = 64;

/// A thread that writes the queued lines to the child's stdin and flushes
/// each, so that a child that does not read never blocks us. It ends when
/// the queue closes (which closes the pipe) or the pipe breaks.
fn writer(mut stdin: ChildStdin) -> Sender<String> {
    let (sender, queue) = mpsc::channel::<String>();
    thread::spawn(move || {
        for line in queue {
            if stdin
                .write_all(line.as_bytes())
                .and_then(|_| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    sender
}

/// A thread that reads the child's stdout line by line onto a bounded
/// channel, until the output ends or goes wrong, or nobody listens.
fn reader(stdout: ChildStdout) -> Receiver<Read1> {
    let (sender, lines) = mpsc::sync_channel(READ_AHEAD);
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let line = read_line(&mut reader);
            let more = matches!(line, Read1::Line(_));
            if sender.send(line).is_err() || !more {
                break;
            }
        }
    });
    lines
}

/// A copy of a sticky error, for the reads after it.
fn again(err: &ChildError) -> ChildError {
    match err {
        ChildError::Ended(s) => ChildError::Ended(s.clone()),
        other => ChildError::Read(other.to_string()),
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes.
fn read_line(reader: &mut impl BufRead) -> Read1 {
    let mut bytes = Vec::new();
    let limit = MAX_LINE as u64 + 1;
    match reader.take(limit).read_until(b'\n', &mut bytes) {
        Ok(0) => return Read1::Eof,
        Ok(_) => {}
        Err(e) => return Read1::Failed(e.to_string()),
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > MAX_LINE {
        return Read1::TooLong;
    }
    String::from_utf8(bytes).map_or(Read1::NotUtf8, Read1::Line)
}

fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("killed by signal {signal}");
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

/// Kills the child's process group, or the child alone where there are none.
fn kill(process: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(process.id()) {
        // SAFETY: kill(2) only sends a signal; the group is the child's own
        // (made at spawn), so nothing outside it is touched.
        if unsafe { libc::kill(-pid, libc::SIGKILL) } == 0 {
            return;
        }
    }
    let _ = process.kill();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Child {
        Child::spawn("sh", &["-c".to_string(), script.to_string()]).unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(30)
    }

    #[test]
    fn lines_come_back_and_the_end_is_reported() {
        let mut c = sh("read x; echo \"got $x\"; printf 'a\\r\\nb'; exit 3");
        c.send("hi");
        assert_eq!(c.receive(soon()).unwrap(), "got hi");
        assert_eq!(c.receive(soon()).unwrap(), "a");
        assert_eq!(c.receive(soon()).unwrap(), "b");
        let err = c.receive(soon()).unwrap_err().to_string();
        assert_eq!(err, "the program ended without answering (exit status 3)");
        // Asked again, it says the same.
        assert_eq!(c.receive(soon()).unwrap_err().to_string(), err);
    }

    #[test]
    fn a_silent_child_times_out_and_is_killed_with_its_children() {
        let mut c = sh("sleep 100; echo late");
        let start = Instant::now();
        // It reads nothing: a megabyte sent still does not block us.
        for _ in 0..10_000 {
            c.send(&"x".repeat(100));
        }
        let deadline = start + Duration::from_millis(200);
        assert!(matches!(c.receive(deadline), Err(ChildError::TimedOut)));
        c.stop();
        // The shell's `sleep` held the pipe too; once the group is gone the
        // output ends at once instead of after 100 s.
        assert!(matches!(c.receive(soon()), Err(ChildError::Ended(_))));
        assert!(start.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn overlong_and_binary_lines_are_refused() {
        let mut c = sh(&format!("head -c {} /dev/zero | tr '\\0' x", 2 * MAX_LINE));
        assert!(matches!(c.receive(soon()), Err(ChildError::TooLong)));
        let mut c = sh("printf '\\377\\n'");
        assert!(matches!(c.receive(soon()), Err(ChildError::NotUtf8)));
    }
}
