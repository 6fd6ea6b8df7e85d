//! A worker rank's games for threads that play in lock step: the jobs rank 0
//! has granted and no thread has taken yet, and the way their results go
//! back to the thread that talks MPI.

use std::collections::VecDeque;
use std::sync::{mpsc, Condvar, Mutex};

use crate::evaluation::Source;
use crate::player::PlayerError;
use crate::selfplay::GameResult;

/// A finished game (by job) or a failed one, for the MPI thread.
pub(super) type Outcome = (usize, Result<GameResult, Box<PlayerError>>);

/// Jobs granted and not yet taken, shared by a worker's threads.
pub(super) struct Granted {
    state: Mutex<State>,
    ready: Condvar,
    results: mpsc::Sender<Outcome>,
}

struct State {
    jobs: VecDeque<usize>,
    /// No more jobs will come.
    closed: bool,
}

impl Granted {
    pub(super) fn new(results: mpsc::Sender<Outcome>) -> Granted {
        Granted {
            state: Mutex::new(State {
                jobs: VecDeque::new(),
                closed: false,
            }),
            ready: Condvar::new(),
            results,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("no thread panicked")
    }

    /// Jobs rank 0 granted.
    pub(super) fn push(&self, jobs: std::ops::Range<usize>) {
        self.state().jobs.extend(jobs);
        self.ready.notify_all();
    }

    /// No more jobs will come: the threads play what is queued and stop.
    pub(super) fn close(&self) {
        self.state().closed = true;
        self.ready.notify_all();
    }
}

impl Source for Granted {
    fn take(&self) -> Option<usize> {
        let mut state = self.state();
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait(state).expect("no thread panicked");
        }
    }

    fn take_now(&self) -> Option<usize> {
        self.state().jobs.pop_front()
    }

    fn store(&self, job: usize, result: GameResult) {
        // The MPI thread stops listening only after a failure.
        let _ = self.results.send((job, Ok(result)));
    }

    fn fail(&self, error: Box<PlayerError>) {
        {
            let mut state = self.state();
            state.jobs.clear();
            state.closed = true;
        }
        self.ready.notify_all();
        let _ = self.results.send((usize::MAX, Err(error)));
    }
}
