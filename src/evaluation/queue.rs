//! A batch's games handed out one at a time to whichever thread is free,
//! for batches with external players that play games in lock step: a
//! thread that takes a game of such a player keeps taking that player's
//! games (up to the program's `lockstep` in flight, see
//! [`crate::player::external::play_many`]) until the next game belongs to
//! another player; it then plays its games in flight to their end and
//! starts that player's. Results are kept by job, so they never depend on
//! which thread played a game, nor with which others.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{Batch, Spec};
use crate::player::external::{self, Job, Jobs};
use crate::player::{PlayerError, Prepared};
use crate::selfplay::GameResult;

/// The jobs of one batch and their results, shared by the threads.
pub(super) struct Queue<'a> {
    pub(super) batch: &'a Batch,
    pub(super) prepared: &'a [Prepared<'a>],
    pub(super) on_game: &'a (dyn Fn(&GameResult) + Sync),
    next: AtomicUsize,
    results: Mutex<Vec<Option<GameResult>>>,
    failed: Mutex<Option<Box<PlayerError>>>,
}

/// Whether `batch` has an external player that plays games in lock step.
pub(super) fn wanted(batch: &Batch, prepared: &[Prepared]) -> bool {
    matches!(batch.spec, Spec::Solo(_))
        && prepared
            .iter()
            .any(|p| matches!(p, Prepared::External(program, _) if program.lockstep > 1))
}

impl<'a> Queue<'a> {
    pub(super) fn new(
        batch: &'a Batch,
        prepared: &'a [Prepared<'a>],
        on_game: &'a (dyn Fn(&GameResult) + Sync),
    ) -> Queue<'a> {
        Queue {
            batch,
            prepared,
            on_game,
            next: AtomicUsize::new(0),
            results: Mutex::new(vec![None; prepared.len() * batch.seeds.len()]),
            failed: Mutex::new(None),
        }
    }

    fn count(&self) -> usize {
        self.prepared.len() * self.batch.seeds.len()
    }

    /// The next job nobody has taken.
    fn take(&self) -> Option<usize> {
        let job = self.next.fetch_add(1, Ordering::SeqCst);
        (job < self.count()).then_some(job)
    }

    fn store(&self, job: usize, result: GameResult) {
        (self.on_game)(&result);
        self.results.lock().expect("no thread panicked")[job] = Some(result);
    }

    /// Records a failed game and hands out no more jobs.
    fn fail(&self, error: Box<PlayerError>) {
        self.next.store(usize::MAX / 2, Ordering::SeqCst);
        self.failed
            .lock()
            .expect("no thread panicked")
            .get_or_insert(error);
    }

    /// One thread's work: jobs until none is left (or one failed).
    pub(super) fn work(&self) {
        let per_set = self.batch.seeds.len();
        let mut carry = None;
        while let Some(job) = carry.take().or_else(|| self.take()) {
            let player = job / per_set;
            let played = match (&self.prepared[player], &self.batch.spec) {
                (Prepared::External(program, values), Spec::Solo(spec)) => {
                    let mut jobs = PlayerJobs {
                        queue: self,
                        player,
                        first: Some(job),
                        carry: &mut carry,
                    };
                    external::play_many(program, values, spec, &mut jobs)
                }
                _ => self
                    .batch
                    .play(self.prepared, job)
                    .map(|r| self.store(job, r)),
            };
            if let Err(e) = played {
                return self.fail(e);
            }
        }
    }

    /// The results in job order, or the first error.
    pub(super) fn finish(self) -> Result<Vec<GameResult>, Box<PlayerError>> {
        if let Some(e) = self.failed.into_inner().expect("no thread panicked") {
            return Err(e);
        }
        Ok(self
            .results
            .into_inner()
            .expect("no thread panicked")
            .into_iter()
            .map(|r| r.expect("every job was played"))
            .collect())
    }
}

/// One player's jobs as one thread takes them: the job it started with,
/// then the next ones while they are this player's. A job of another player
/// is carried over to the thread's next turn.
struct PlayerJobs<'q, 'a> {
    queue: &'q Queue<'a>,
    player: usize,
    first: Option<usize>,
    /// Set once a job of another player came; no more are taken then.
    carry: &'q mut Option<usize>,
}

impl Jobs for PlayerJobs<'_, '_> {
    fn next(&mut self) -> Option<Job> {
        let per_set = self.queue.batch.seeds.len();
        let job = match self.first.take() {
            Some(job) => job,
            None if self.carry.is_some() => return None,
            None => self.queue.take()?,
        };
        if job / per_set != self.player {
            *self.carry = Some(job);
            return None;
        }
        let s = job % per_set;
        Some(Job {
            id: job,
            seed: self.queue.batch.seeds[s],
            start: self.queue.batch.start(s),
        })
    }

    fn done(&mut self, id: usize, result: GameResult) {
        self.queue.store(id, result);
    }
}
