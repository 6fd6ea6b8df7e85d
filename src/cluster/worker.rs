//! A worker rank: it waits for a batch, asks rank 0 for games a few at a
//! time, plays them on all its threads and reports each game as it ends.
//! Every MPI call is made from the thread that started MPI; the games run on
//! the worker's rayon pool: one task a game, or, for an external player that
//! plays games in lock step, one task a thread that takes the granted games
//! as its lines need them ([`Granted`]).

use std::sync::mpsc;

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use super::fault::Fault;
use super::granted::{Granted, Outcome};
use super::wire::{decode, encode, Grant, Order, Report, TAG_GRANT, TAG_ORDER, TAG_REPORT};
use crate::evaluation::{Batch, EvaluationError};
use crate::selfplay::GameResult;

/// Games a worker holds (playing or queued) per thread: one playing and one
/// waiting, so no thread idles while a report travels to rank 0 and back. A
/// thread in lock step holds twice what its lines take, for the same reason.
const GAMES_PER_THREAD: usize = 2;

/// Serves batches until rank 0 orders a shutdown.
pub fn serve(
    world: &SimpleCommunicator,
    pool: &rayon::ThreadPool,
    mut fault: Option<Fault>,
) -> Result<(), EvaluationError> {
    let root = world.process_at_rank(0);
    loop {
        let (bytes, _) = root.receive_vec_with_tag::<u8>(TAG_ORDER);
        match decode::<Order>(&bytes, 0)? {
            Order::Shutdown => return Ok(()),
            Order::Play { id, batch } => play_batch(world, pool, id, &batch, &mut fault)?,
        }
    }
}

/// What a worker has of one batch.
struct Holding {
    id: u64,
    capacity: usize,
    in_flight: usize,
    /// Rank 0 has no jobs left for this batch.
    exhausted: bool,
    done: Vec<(usize, GameResult)>,
}

impl Holding {
    /// A report of the games done since the last one.
    fn report(&mut self, want: usize, finished: bool) -> Report {
        Report {
            batch: self.id,
            results: std::mem::take(&mut self.done),
            want,
            finished,
            error: None,
        }
    }
}

/// Plays this worker's share of one batch, then sends its last report.
fn play_batch(
    world: &SimpleCommunicator,
    pool: &rayon::ThreadPool,
    id: u64,
    batch: &Batch,
    fault: &mut Option<Fault>,
) -> Result<(), EvaluationError> {
    if let Some(f) = fault.as_mut() {
        f.next_batch();
    }
    let prepared = pool.install(|| batch.prepare());
    let (tx, rx) = mpsc::channel::<Outcome>();
    let threads = pool.current_num_threads();
    let lock_step = crate::evaluation::lock_step(batch, &prepared);
    let mut held = Holding {
        id,
        capacity: GAMES_PER_THREAD * threads * lock_step.unwrap_or(1),
        in_flight: 0,
        exhausted: false,
        done: Vec::new(),
    };
    let granted = lock_step.map(|_| Granted::new(tx.clone()));
    pool.in_place_scope(|scope| -> Result<(), EvaluationError> {
        let mut hand_out = |jobs: std::ops::Range<usize>| match &granted {
            Some(granted) => granted.push(jobs),
            None => {
                for job in jobs {
                    let (tx, prepared) = (tx.clone(), &prepared);
                    scope.spawn(move |_| {
                        let _ = tx.send((job, batch.play(prepared, job)));
                    });
                }
            }
        };
        if let Some(granted) = &granted {
            for _ in 0..threads {
                let prepared = &prepared;
                scope.spawn(move |_| crate::evaluation::work(batch, prepared, granted));
            }
        }
        let served = exchange(world, &mut held, &rx, fault.as_ref(), &mut hand_out);
        // The threads in lock step stop once the queue is empty.
        if let Some(granted) = &granted {
            granted.close();
        }
        served
    })
}

/// Asks rank 0 for games while the worker holds fewer than it can, hands
/// them out, and reports the results as they come, until rank 0 has no
/// more and every game held is done.
fn exchange(
    world: &SimpleCommunicator,
    held: &mut Holding,
    results: &mpsc::Receiver<Outcome>,
    fault: Option<&Fault>,
    hand_out: &mut dyn FnMut(std::ops::Range<usize>),
) -> Result<(), EvaluationError> {
    let root = world.process_at_rank(0);
    loop {
        if !held.exhausted && held.in_flight < held.capacity {
            let want = held.capacity - held.in_flight;
            root.send_with_tag(&encode(&held.report(want, false))[..], TAG_REPORT);
            let (bytes, _) = root.receive_vec_with_tag::<u8>(TAG_GRANT);
            let grant: Grant = decode(&bytes, 0)?;
            held.exhausted = grant.first >= grant.end;
            held.in_flight += grant.end.saturating_sub(grant.first);
            hand_out(grant.first..grant.end);
        } else if held.in_flight > 0 {
            let first = results.recv().expect("a game in flight sends its result");
            let got: Vec<_> = std::iter::once(first).chain(results.try_iter()).collect();
            held.in_flight -= got.len();
            let mut played = Vec::with_capacity(got.len());
            for (job, result) in got {
                match result {
                    Ok(r) => played.push((job, r)),
                    // Rank 0 ends the job with this message; the games
                    // still in flight end with their programs.
                    Err(e) => {
                        let mut report = held.report(0, true);
                        report.error = Some(e.to_string());
                        root.send_with_tag(&encode(&report)[..], TAG_REPORT);
                        return Err(EvaluationError::Player(e));
                    }
                }
            }
            if let Some(f) = fault {
                f.game_done();
            }
            held.done.extend(played);
            if held.exhausted {
                root.send_with_tag(&encode(&held.report(0, false))[..], TAG_REPORT);
            }
        } else {
            root.send_with_tag(&encode(&held.report(0, true))[..], TAG_REPORT);
            return Ok(());
        }
    }
}
