//! Lines to and from a [`Child`]: writes that give up at their deadline
//! (the pipe is non-blocking, and a full pipe is waited on with `poll(2)`),
//! and reads of whole lines with `poll(2)` and a deadline.

use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::time::{Duration, Instant};

use super::{Child, ChildError, Deadline, MAX_LINE};

/// How long a read checks for an answer before it blocks.
const SPIN: Duration = Duration::from_micros(100);

/// Makes our end of the program's stdin non-blocking, so that a write to a
/// full pipe returns at once instead of waiting for the program to read.
pub(super) fn set_nonblocking(stdin: &impl AsRawFd) -> std::io::Result<()> {
    let fd = stdin.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own, reading then setting its
    // status flags; the program's end of the pipe is a file of its own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

impl Child {
    /// Writes `text` (whole lines, each ending in a newline) by `deadline`.
    /// A program that ended or closed its input is not an error here: the
    /// next read says what happened. One that stops reading, so that the
    /// pipe stays full past the deadline, is: [`ChildError::WriteTimedOut`],
    /// and every later write gives it again (a line may be cut).
    pub fn send(&mut self, text: &str, deadline: Deadline) -> Result<(), ChildError> {
        if let Some(e) = &self.stuck {
            return Err(e.clone());
        }
        let Some(stdin) = &mut self.stdin else {
            return Ok(());
        };
        let mut bytes = text.as_bytes();
        while !bytes.is_empty() {
            match stdin.write(bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let left = deadline.at.saturating_duration_since(Instant::now());
                    if left.is_zero() || !wait_for(stdin.as_raw_fd(), libc::POLLOUT, left)? {
                        let e = ChildError::WriteTimedOut(deadline.limit);
                        self.stdin = None;
                        self.stuck = Some(e.clone());
                        return Err(e);
                    }
                }
                // A broken pipe, most likely: the program is gone.
                Err(_) => {
                    self.stdin = None;
                    break;
                }
            }
        }
        Ok(())
    }

    /// The next line (without its line end), if it comes by `deadline`.
    /// After the output ends or goes wrong, every read gives that again.
    pub fn receive(&mut self, deadline: Deadline) -> Result<String, ChildError> {
        self.receive_spinning(deadline, SPIN)
    }

    /// [`Child::receive`] for a caller that has sent the program more work
    /// than this answer: the program will be busy after it, so a late
    /// wake-up costs nothing, and the wait blocks at once instead of
    /// spinning on a core the program could use.
    pub fn receive_queued(&mut self, deadline: Deadline) -> Result<String, ChildError> {
        self.receive_spinning(deadline, Duration::ZERO)
    }

    fn receive_spinning(
        &mut self,
        deadline: Deadline,
        spin: Duration,
    ) -> Result<String, ChildError> {
        let result = self.next_line(deadline, spin);
        if let Err(e) = &result {
            if !matches!(e, ChildError::TimedOut(_)) {
                self.ended = Some(e.clone());
            }
        }
        result
    }

    fn next_line(&mut self, deadline: Deadline, spin: Duration) -> Result<String, ChildError> {
        loop {
            if let Some(e) = &self.ended {
                return Err(e.clone());
            }
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > MAX_LINE {
                    return Err(ChildError::TooLong);
                }
                return String::from_utf8(line).map_err(|_| ChildError::NotUtf8);
            }
            if self.buffer.len() > MAX_LINE {
                return Err(ChildError::TooLong);
            }
            let left = deadline.at.saturating_duration_since(Instant::now());
            if !self.readable(left, spin)? {
                return Err(ChildError::TimedOut(deadline.limit));
            }
            let mut chunk = [0u8; 1024];
            match self.stdout.read(&mut chunk) {
                Ok(0) => {
                    // Lines before the end were returned; what is left is a
                    // last line without its newline.
                    if self.buffer.is_empty() {
                        let how = self.exit_status();
                        return Err(ChildError::Ended(how));
                    }
                    self.buffer.push(b'\n');
                }
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(ChildError::Io(e.to_string())),
            }
        }
    }

    /// Whether the program wrote more than the lines read so far: output
    /// read into the buffer with them, or waiting in the pipe (its end, too).
    pub fn has_more(&self) -> bool {
        !self.buffer.is_empty()
            || self.ended.is_some()
            || poll(self.stdout.as_raw_fd(), libc::POLLIN, 0).unwrap_or(false)
    }

    /// Waits until stdout has something to read (data or its end), or `wait`
    /// passes. It checks without blocking for the first `spin` ([`SPIN`] for
    /// a lone question): a program's answer usually comes sooner, and a
    /// blocked thread's wake-up costs tens of microseconds on a virtual
    /// machine.
    fn readable(&self, wait: Duration, spin: Duration) -> Result<bool, ChildError> {
        let fd = self.stdout.as_raw_fd();
        let start = Instant::now();
        while start.elapsed() < spin.min(wait) {
            if poll(fd, libc::POLLIN, 0)? {
                return Ok(true);
            }
            // SAFETY: sched_yield(2) has no preconditions; it lets a program
            // that shares this core run first.
            unsafe {
                libc::sched_yield();
            }
        }
        wait_for(fd, libc::POLLIN, wait.saturating_sub(start.elapsed()))
    }
}

/// Polls `fd` for `events` until it is ready or `wait` passes: whether it is.
fn wait_for(fd: RawFd, events: libc::c_short, wait: Duration) -> Result<bool, ChildError> {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ms = left.as_millis().min(i32::MAX as u128) as i32;
        // Round up, so that a wait under a millisecond is not a busy loop.
        let ms = if ms == 0 && !left.is_zero() { 1 } else { ms };
        if poll(fd, events, ms)? {
            return Ok(true);
        }
        if Instant::now() >= deadline {
            return Ok(false);
        }
    }
}

/// One `poll(2)` of `fd` for `ms` milliseconds: whether it is ready (or
/// closed, or in error: the read or write that follows says which).
fn poll(fd: RawFd, events: libc::c_short, ms: i32) -> Result<bool, ChildError> {
    let mut pollfd = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd, for a descriptor we own.
    let n = unsafe { libc::poll(&mut pollfd, 1, ms) };
    if n < 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() != ErrorKind::Interrupted {
            return Err(ChildError::Io(e.to_string()));
        }
    }
    Ok(n > 0)
}
