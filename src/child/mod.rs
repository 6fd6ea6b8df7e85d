//! A program run as a child process and spoken to line by line, with a
//! deadline on every read and every write: the one process runner of the
//! crate, used by the BOJ 28489 judge ([`crate::interact::judge`]), the GPCC
//! referee (`tune2048 gpcc-referee`) and external players
//! ([`crate::player::external`]).
//!
//! - this file: starting a program ([`Child::spawn`]), stopping it (its whole
//!   process group is killed, so a shell script's children go too, then it is
//!   reaped), the registry of live programs that [`stop_all`] empties at exit,
//!   and the errors;
//! - `io.rs`: lines written to its stdin without blocking past a
//!   [`Deadline`] (a program that stops reading cannot hang us), and lines
//!   read from its stdout with `poll(2)` and a deadline (no thread between us
//!   and the program, so a round trip costs two context switches);
//! - `tail.rs`: the last lines of its stderr, kept by a thread of its own for
//!   error messages (when stderr is not simply shared with ours).
//!
//! On Linux a program is also killed if the thread that started it ends
//! without stopping it (a worker thread of ours that dies).

mod io;
mod tail;

use std::process::{ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tail::Tail;

/// The longest line accepted from a program, in bytes.
pub const MAX_LINE: usize = 4096;

/// The longest time limit accepted, in seconds (about 31 years): an
/// `Instant` this far ahead never overflows.
pub const MAX_LIMIT_SECS: f64 = 1e9;

/// A time limit from a flag's seconds: positive, finite and at most
/// [`MAX_LIMIT_SECS`]; `None` otherwise.
pub fn time_limit(secs: f64) -> Option<Duration> {
    (secs > 0.0 && secs <= MAX_LIMIT_SECS).then(|| Duration::from_secs_f64(secs))
}

/// When a read or a write must be done by, and the limit it stands for (which
/// the error names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub at: Instant,
    pub limit: Duration,
}

impl Deadline {
    /// `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + limit,
            limit,
        }
    }
}

/// Why a program gave no line, or took none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChildError {
    /// No line came before the deadline (of this limit).
    #[error("no answer within the limit of {} s", .0.as_secs_f64())]
    TimedOut(Duration),
    /// The program did not take what was written before the deadline: it
    /// stopped reading.
    #[error("the program did not read its input within the limit of {} s", .0.as_secs_f64())]
    WriteTimedOut(Duration),
    /// Its output ended; how the program ended, in words.
    #[error("the program ended ({0})")]
    Ended(String),
    #[error("a line longer than {MAX_LINE} bytes")]
    TooLong,
    #[error("a line that is not UTF-8")]
    NotUtf8,
    #[error("cannot talk to the program: {0}")]
    Io(String),
}

impl ChildError {
    /// The error as a referee reports a question left unanswered (`judge`,
    /// `gpcc-referee`): an ended program "ended without answering".
    pub fn unanswered(&self) -> String {
        match self {
            ChildError::Ended(how) => format!("the program ended without answering ({how})"),
            other => other.to_string(),
        }
    }
}

/// What becomes of a program's stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// Shared with ours: the user sees it as it comes.
    Inherit,
    /// Piped, its last lines kept for [`Child::stderr_tail`].
    Tail,
}

/// Process groups of the programs running now.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<i32>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every program still running (and its group): for the end of the
/// process, when worker threads may not have stopped theirs.
pub fn stop_all() {
    for group in std::mem::take(&mut *live()) {
        // SAFETY: kill(2) only sends a signal, to a group we made.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// A running program.
pub struct Child {
    process: std::process::Child,
    /// Its process group (its own pid: it leads a group of its own).
    group: i32,
    /// `None` once closed, or once the program stopped reading.
    stdin: Option<ChildStdin>,
    /// Set when a write missed its deadline: every later write gives it again.
    stuck: Option<ChildError>,
    stdout: ChildStdout,
    /// Bytes read from stdout and not yet returned as lines.
    buffer: Vec<u8>,
    /// Set once the output ended or went wrong: later reads give it again.
    ended: Option<ChildError>,
    /// Its stderr's last lines (`None`: stderr is shared with ours).
    tail: Option<Arc<Mutex<Tail>>>,
    /// Set once it was killed and reaped.
    stopped: bool,
}

impl Child {
    /// Starts `command` (the program, then its arguments) in a process group
    /// of its own, its stdin and stdout piped.
    pub fn spawn(command: &[String], stderr: Stderr) -> std::io::Result<Child> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
        cmd.stderr(match stderr {
            Stderr::Inherit => Stdio::inherit(),
            Stderr::Tail => Stdio::piped(),
        });
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
        let mut process = cmd.spawn()?;
        let group = i32::try_from(process.id()).map_err(std::io::Error::other)?;
        live().push(group);
        let stdin = process.stdin.take().expect("stdin is piped");
        io::set_nonblocking(&stdin)?;
        let stdout = process.stdout.take().expect("stdout is piped");
        let tail = match process.stderr.take() {
            Some(stderr) => Some(tail::keep(stderr)?),
            None => None,
        };
        Ok(Child {
            process,
            group,
            stdin: Some(stdin),
            stuck: None,
            stdout,
            buffer: Vec::with_capacity(256),
            ended: None,
            tail,
            stopped: false,
        })
    }

    /// The last lines the program wrote to stderr, waiting up to `wait` for
    /// it to close (after a crash or a kill, the last lines are on their
    /// way); none when its stderr is shared with ours.
    pub fn stderr_tail(&self, wait: Duration) -> Vec<String> {
        self.tail
            .as_ref()
            .map_or_else(Vec::new, |tail| tail::last_lines(tail, wait))
    }

    /// How the program ended, in words, once its output closed (it usually
    /// exits at once, so wait a little for its status).
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(300);
        loop {
            match self.process.try_wait() {
                Ok(Some(status)) => return describe(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return "its output closed".into(),
            }
        }
    }

    /// Closes the program's input and gives it `grace` to exit by itself (to
    /// write what it keeps till the end, say), then kills its whole group
    /// and reaps it. Stopping twice does nothing more.
    pub fn stop(&mut self, grace: Duration) {
        self.stdin = None;
        if self.stopped {
            return;
        }
        let until = Instant::now() + grace;
        while matches!(self.process.try_wait(), Ok(None)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        // SAFETY: kill(2) only sends a signal, to the group we made (its
        // leader is not reaped yet, so the group id is still ours); any of
        // the program's children still in it go with it.
        if unsafe { libc::kill(-self.group, libc::SIGKILL) } != 0 {
            let _ = self.process.kill();
        }
        let _ = self.process.wait();
        self.stopped = true;
        live().retain(|&g| g != self.group);
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stop(Duration::ZERO);
    }
}

/// How a program ended, in words: `exit status N` or `killed by signal N`.
pub fn describe(status: ExitStatus) -> String {
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("killed by signal {signal}");
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

#[cfg(test)]
mod tests;
