//! Rank 0's side of a batch: it hands the batch's games out on request, to
//! its own threads one at a time (an external player's in lock step: as its
//! lines need them) and to each worker rank a few at a time,
//! and gathers the results in job order. Game lengths vary by 10× and more,
//! so no rank gets a fixed share: whoever is free takes the next games.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use mpi::traits::*;

use super::wire::{decode, encode, Grant, Order, Report, TAG_GRANT, TAG_ORDER, TAG_REPORT};
use super::Cluster;
use crate::evaluation::{Batch, BatchResults, EvaluationError, Evaluator};
use crate::player::{PlayerError, Prepared};
use crate::selfplay::GameResult;

/// How long rank 0 sleeps when no report is waiting (its own threads' games
/// come in without MPI, so it polls rather than blocks).
const POLL: Duration = Duration::from_micros(200);

/// An [`Evaluator`] over every rank of the job; lives on rank 0.
pub struct MpiEvaluator<'c> {
    cluster: &'c Cluster,
    pool: rayon::ThreadPool,
    /// Batches sent so far (each batch's id); one batch runs at a time.
    batches: Mutex<u64>,
}

/// One batch's jobs and results, shared by rank 0's threads.
struct Jobs<'a> {
    batch: &'a Batch,
    prepared: Vec<Prepared<'a>>,
    /// The first error of a game of rank 0's (an external player's).
    failed: Mutex<Option<Box<PlayerError>>>,
    next: AtomicUsize,
    results: Mutex<Vec<Option<GameResult>>>,
    filled: AtomicUsize,
}

impl Jobs<'_> {
    fn count(&self) -> usize {
        self.batch.players.len() * self.batch.seeds.len()
    }

    /// Takes up to `want` jobs that nobody has taken.
    fn take(&self, want: usize) -> std::ops::Range<usize> {
        let first = self
            .next
            .fetch_add(want, Ordering::SeqCst)
            .min(self.count());
        first..(first + want).min(self.count())
    }

    fn store(&self, job: usize, result: GameResult, on_game: &(dyn Fn(usize, &GameResult) + Sync)) {
        on_game(job, &result);
        self.results.lock().expect("no thread panicked")[job] = Some(result);
        self.filled.fetch_add(1, Ordering::SeqCst);
    }

    fn play(&self, job: usize) -> Result<GameResult, Box<PlayerError>> {
        self.batch.play(&self.prepared, job)
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

/// Rank 0's threads' side of [`Jobs`], for threads in lock step.
struct Local<'j, 'a> {
    jobs: &'j Jobs<'a>,
    on_game: &'j (dyn Fn(usize, &GameResult) + Sync),
}

impl crate::evaluation::Source for Local<'_, '_> {
    fn take(&self) -> Option<usize> {
        let taken = self.jobs.take(1);
        (!taken.is_empty()).then_some(taken.start)
    }

    fn store(&self, job: usize, result: GameResult) {
        self.jobs.store(job, result, self.on_game);
    }

    fn fail(&self, error: Box<PlayerError>) {
        self.jobs.fail(error);
    }
}

impl<'c> MpiEvaluator<'c> {
    pub(super) fn new(cluster: &'c Cluster, pool: rayon::ThreadPool) -> MpiEvaluator<'c> {
        MpiEvaluator {
            cluster,
            pool,
            batches: Mutex::new(0),
        }
    }

    /// Rank 0's threads play jobs one at a time until none is left, or in
    /// lock step where the batch's external player plays so.
    fn play_local(&self, jobs: &Jobs, on_game: &(dyn Fn(usize, &GameResult) + Sync)) {
        if crate::evaluation::lock_step(jobs.batch, &jobs.prepared).is_some() {
            let local = Local { jobs, on_game };
            self.pool
                .broadcast(|_| crate::evaluation::work(jobs.batch, &jobs.prepared, &local));
            return;
        }
        self.pool.broadcast(|_| loop {
            let taken = jobs.take(1);
            if taken.is_empty() {
                return;
            }
            match jobs.play(taken.start) {
                Ok(result) => jobs.store(taken.start, result, on_game),
                Err(e) => return jobs.fail(e),
            }
        });
    }

    /// Answers the workers' reports until every job is done and every
    /// worker has sent its last report of batch `id`.
    fn serve(
        &self,
        id: u64,
        jobs: &Jobs,
        on_game: &(dyn Fn(usize, &GameResult) + Sync),
    ) -> Result<(), EvaluationError> {
        let world = self.cluster.world.get()?;
        let mut finished = 0;
        while finished < self.cluster.workers() || jobs.filled.load(Ordering::SeqCst) < jobs.count()
        {
            if let Some(e) = jobs.failed.lock().expect("no thread panicked").take() {
                return Err(EvaluationError::Player(e));
            }
            let Some(probed) = world
                .any_process()
                .immediate_matched_probe_with_tag(TAG_REPORT)
            else {
                std::thread::sleep(POLL);
                continue;
            };
            let (bytes, status) = probed.matched_receive_vec::<u8>();
            let from = status.source_rank();
            let report: Report = decode(&bytes, from)?;
            check(&report, id, from)?;
            for (job, result) in report.results {
                if job >= jobs.count() {
                    return Err(lost(
                        from,
                        format!("reported job {job} of {}", jobs.count()),
                    ));
                }
                jobs.store(job, result, on_game);
            }
            if report.want > 0 {
                let range = jobs.take(report.want);
                let grant = Grant {
                    first: range.start,
                    end: range.end,
                };
                world
                    .process_at_rank(from)
                    .send_with_tag(&encode(&grant)[..], TAG_GRANT);
            }
            finished += usize::from(report.finished);
        }
        Ok(())
    }
}

/// A report must belong to the batch under way and carry no error.
fn check(report: &Report, id: u64, from: i32) -> Result<(), EvaluationError> {
    if let Some(error) = &report.error {
        return Err(lost(from, error.clone()));
    }
    if report.batch != id {
        return Err(lost(
            from,
            format!("sent a report of batch {} during batch {id}", report.batch),
        ));
    }
    Ok(())
}

fn lost(rank: i32, message: String) -> EvaluationError {
    EvaluationError::Worker {
        worker: format!("MPI rank {rank}"),
        message,
    }
}

impl Evaluator for MpiEvaluator<'_> {
    fn evaluate(
        &self,
        batch: &Batch,
        on_game: &(dyn Fn(usize, &GameResult) + Sync),
    ) -> Result<BatchResults, EvaluationError> {
        let world = self.cluster.world.get()?;
        let mut batches = self.batches.lock().expect("no thread panicked");
        *batches += 1;
        let id = *batches;
        let order = encode(&Order::Play {
            id,
            batch: batch.clone(),
        });
        for rank in 1..self.cluster.size() {
            world
                .process_at_rank(rank)
                .send_with_tag(&order[..], TAG_ORDER);
        }
        let prepared = self.pool.install(|| batch.prepare());
        let jobs = Jobs {
            batch,
            prepared,
            failed: Mutex::new(None),
            next: AtomicUsize::new(0),
            results: Mutex::new(vec![None; batch.players.len() * batch.seeds.len()]),
            filled: AtomicUsize::new(0),
        };
        let served = std::thread::scope(|scope| {
            let local = scope.spawn(|| self.play_local(&jobs, on_game));
            let served = self.serve(id, &jobs, on_game);
            if served.is_err() {
                // Nothing more goes out; rank 0's threads stop after their game.
                jobs.next.store(usize::MAX / 2, Ordering::SeqCst);
            }
            local.join().expect("rank 0's games do not panic");
            served
        });
        if let Err(e) = served {
            self.cluster.mark_broken();
            return Err(e);
        }
        let flat: Vec<GameResult> = jobs
            .results
            .into_inner()
            .expect("no thread panicked")
            .into_iter()
            .map(|r| r.expect("every job was filled"))
            .collect();
        Ok(BatchResults::from_jobs(
            flat,
            batch.players.len(),
            batch.seeds.len(),
        ))
    }

    fn threads(&self) -> usize {
        self.pool.current_num_threads() + self.cluster.worker_threads()
    }

    fn processes(&self) -> usize {
        self.cluster.workers() + 1
    }
}
