//! The one progress bar over games, shared by `tune` (a bar per phase of a
//! generation), `eval`/`compare` and `bank`: the phase or player, the bar,
//! games done of all, games per second and the time left.
//!
//! On a terminal the bar redraws in place. Where stderr is a file or a pipe
//! (a script's log, `nohup`), a bar that redraws would be lost, so the same
//! line is written as a line of its own at most once a
//! [`LOG_EVERY`] instead: a run of an hour says how far it has come.

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How often a bar over games is written to a stderr that is not a
/// terminal. A run shorter than this writes no line at all.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// The style of every bar over games: `prefix [=====>    ] 12/40 games
/// 3.1/s  ETA 9s`, the prefix right-aligned in 14 columns.
fn games_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>14} [{bar:30}] {pos}/{len} games  {per_sec}  ETA {eta}")
        .expect("valid template")
        .progress_chars("=> ")
}

/// A bar over `games` games labelled `prefix`, drawn on stderr: in place on
/// a terminal, as a line every [`LOG_EVERY`] anywhere else.
pub fn games_bar(games: u64, prefix: &str) -> ProgressBar {
    let target = if io::stderr().is_terminal() {
        ProgressDrawTarget::stderr_with_hz(4)
    } else {
        ProgressDrawTarget::term_like_with_hz(Box::new(Lines::new(io::stderr(), LOG_EVERY)), 4)
    };
    let bar = ProgressBar::with_draw_target(Some(games), target);
    bar.set_style(games_style());
    bar.set_prefix(prefix.to_string());
    bar
}

/// A terminal for `indicatif` that cannot move its cursor: each drawing of
/// the bar is gathered and, where `every` has passed since the last line
/// written (or since the bar began), written to `out` as one line, its
/// padding trimmed. Cursor moves and clears do nothing.
struct Lines<W> {
    every: Duration,
    state: Mutex<LinesState<W>>,
}

struct LinesState<W> {
    out: W,
    drawn: String,
    last: Instant,
}

impl<W> Lines<W> {
    fn new(out: W, every: Duration) -> Self {
        Lines {
            every,
            state: Mutex::new(LinesState {
                out,
                drawn: String::new(),
                last: Instant::now(),
            }),
        }
    }
}

impl<W> std::fmt::Debug for Lines<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines").field("every", &self.every).finish()
    }
}

impl<W: Write + Send> TermLike for Lines<W> {
    fn width(&self) -> u16 {
        100
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)?;
        self.write_str("\n")
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        let mut state = self.state.lock().expect("progress lines lock");
        state.drawn.push_str(s);
        Ok(())
    }

    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }

    /// The end of one drawing: write it if it is time.
    fn flush(&self) -> io::Result<()> {
        let mut state = self.state.lock().expect("progress lines lock");
        let drawn = std::mem::take(&mut state.drawn);
        let now = Instant::now();
        if now.duration_since(state.last) < self.every {
            return Ok(());
        }
        let lines: Vec<&str> = drawn
            .split(['\r', '\n'])
            .map(|line| line.trim())
            .filter(|line| !line.is_empty())
            .collect();
        if lines.is_empty() {
            return Ok(());
        }
        state.last = now;
        for line in lines {
            writeln!(state.out, "{line}")?;
        }
        state.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose bytes the test can read after the bar has them.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn bar_on(out: &Shared, every: Duration) -> ProgressBar {
        let lines = Lines::new(out.clone(), every);
        let bar =
            ProgressBar::with_draw_target(Some(40), ProgressDrawTarget::term_like(Box::new(lines)));
        bar.set_style(games_style());
        bar.set_prefix("eval");
        bar
    }

    #[test]
    fn a_bar_off_a_terminal_is_written_as_whole_lines_once_it_is_time() {
        let out = Shared::default();
        let bar = bar_on(&out, Duration::ZERO);
        bar.inc(12);
        bar.inc(1);
        let text = out.text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(!lines.is_empty(), "{text:?}");
        for line in &lines {
            assert!(line.starts_with("eval ["), "{line:?}");
            assert_eq!(*line, line.trim(), "padding is trimmed");
        }
        assert!(lines.last().unwrap().contains(" 13/40 games"), "{text:?}");
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn a_run_shorter_than_the_interval_writes_nothing() {
        let out = Shared::default();
        let bar = bar_on(&out, Duration::from_secs(3600));
        for _ in 0..40 {
            bar.inc(1);
        }
        bar.finish_and_clear();
        assert_eq!(out.text(), "");
    }
}
