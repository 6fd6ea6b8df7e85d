//! A batch's games handed out one at a time to whichever thread is free,
//! for batches with external players that play games in lock step: a
//! thread that takes a game of such a player keeps taking that player's
//! games (up to the program's `lockstep` in flight, see
//! [`crate::player::external::play_many`]) until the next game belongs to
//! another player, or none is at hand; it then plays its games in flight
//! to their end and starts the next. Results are kept by job, so they never
//! depend on which thread played a game, nor with which others.
//!
//! The games come from a [`Source`]: this process's [`Queue`] of a whole
//! batch, or an MPI worker's share as rank 0 grants it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{Batch, Spec};
use crate::player::external::{self, Job, Jobs};
use crate::player::{PlayerError, Prepared};
use crate::selfplay::GameResult;

/// The jobs of one batch and their results, shared by the threads of this
/// process.
pub(super) struct Queue<'a> {
    pub(super) batch: &'a Batch,
    pub(super) prepared: &'a [Prepared<'a>],
    pub(super) on_game: &'a (dyn Fn(usize, &GameResult) + Sync),
    next: AtomicUsize,
    results: Mutex<Vec<Option<GameResult>>>,
    failed: Mutex<Option<Box<PlayerError>>>,
}

/// The most games a thread holds in flight where `batch` has an external
/// player that plays games in lock step (two lines of its `lockstep`
/// boards), or `None`: then every game is played on its own.
pub fn lock_step(batch: &Batch, prepared: &[Prepared]) -> Option<usize> {
    if !matches!(batch.spec, Spec::Solo(_)) {
        return None;
    }
    prepared
        .iter()
        .filter_map(|p| match p {
            Prepared::External(program, _) if program.lockstep > 1 => Some(2 * program.lockstep),
            _ => None,
        })
        .max()
}

/// Where the threads of one batch take their games (by job: player ×
/// seed, as [`Batch::play`] counts them) and leave their results.
pub trait Source: Sync {
    /// The next job, waiting for one where more may come; `None` when no
    /// more will.
    fn take(&self) -> Option<usize>;
    /// The next job if one is at hand now: [`Source::take`] for a source
    /// that never waits.
    fn take_now(&self) -> Option<usize> {
        self.take()
    }
    /// A finished game.
    fn store(&self, job: usize, result: GameResult);
    /// A failed game: no more jobs are handed out.
    fn fail(&self, error: Box<PlayerError>);
}

/// One thread's work on `batch`: jobs from `source` until none is left (or
/// one failed).
pub fn work(batch: &Batch, prepared: &[Prepared], source: &dyn Source) {
    let per_set = batch.seeds.len();
    let mut carry = None;
    while let Some(job) = carry.take().or_else(|| source.take()) {
        let player = job / per_set;
        let played = match (&prepared[player], &batch.spec) {
            (Prepared::External(program, values), Spec::Solo(spec)) => {
                let mut jobs = PlayerJobs {
                    batch,
                    source,
                    player,
                    first: Some(job),
                    carry: &mut carry,
                };
                external::play_many(program, values, spec, &mut jobs)
            }
            _ => batch.play(prepared, job).map(|r| source.store(job, r)),
        };
        if let Err(e) = played {
            return source.fail(e);
        }
    }
}

impl<'a> Queue<'a> {
    pub(super) fn new(
        batch: &'a Batch,
        prepared: &'a [Prepared<'a>],
        on_game: &'a (dyn Fn(usize, &GameResult) + Sync),
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

impl Source for Queue<'_> {
    /// The next job nobody has taken.
    fn take(&self) -> Option<usize> {
        let job = self.next.fetch_add(1, Ordering::SeqCst);
        (job < self.count()).then_some(job)
    }

    fn store(&self, job: usize, result: GameResult) {
        (self.on_game)(job, &result);
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
}

/// One player's jobs as one thread takes them: the job it started with,
/// then the next ones at hand while they are this player's. A job of
/// another player is carried over to the thread's next turn.
struct PlayerJobs<'q> {
    batch: &'q Batch,
    source: &'q dyn Source,
    player: usize,
    first: Option<usize>,
    /// Set once a job of another player came; no more are taken then.
    carry: &'q mut Option<usize>,
}

impl Jobs for PlayerJobs<'_> {
    fn next(&mut self) -> Option<Job> {
        let per_set = self.batch.seeds.len();
        let job = match self.first.take() {
            Some(job) => job,
            None if self.carry.is_some() => return None,
            None => self.source.take_now()?,
        };
        if job / per_set != self.player {
            *self.carry = Some(job);
            return None;
        }
        let s = job % per_set;
        Some(Job {
            id: job,
            seed: self.batch.seeds[s],
            start: self.batch.start(s),
        })
    }

    fn done(&mut self, id: usize, result: GameResult) {
        self.source.store(id, result);
    }
}
