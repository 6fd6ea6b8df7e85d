//! Evaluation across the processes of an MPI job (cargo feature `mpi`).
//!
//! Under `mpirun -np K` or `srun`, every process starts the same command.
//! Rank 0 runs it: it owns CMA-ES, the run folder and all output, and its
//! [`MpiEvaluator`] hands each batch's games out to its own threads and to
//! the other ranks. The other ranks only play: they [`Cluster::serve`] games
//! until rank 0 ends the job. A game's result depends on its seed alone, so a
//! run's results are the same on any number of processes.
//!
//! MPI has no fault tolerance: when a rank dies the launcher ends the whole
//! job. The run's journal is the checkpoint: `resume` continues from it.

mod coordinator;
pub mod fault;
mod granted;
mod wire;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::ThreadId;

use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;

pub use coordinator::MpiEvaluator;

use crate::evaluation::EvaluationError;
use fault::Fault;
use wire::{decode, encode, Hello, Order, TAG_HELLO, TAG_ORDER};

/// This process's place in the MPI job.
pub struct Cluster {
    world: World,
    rank: i32,
    size: i32,
    /// Every rank's introduction (rank 0 first) on rank 0; empty on workers.
    ranks: Vec<Hello>,
    /// An evaluation failed: the ranks cannot be trusted to be in step.
    broken: AtomicBool,
    // Dropped last: finalizes MPI.
    _universe: Universe,
}

impl Cluster {
    /// Starts MPI. Workers introduce themselves to rank 0 with their thread
    /// count (`threads`, else one per core).
    pub fn init(threads: Option<usize>) -> Result<Cluster, EvaluationError> {
        let failed = |message: String| EvaluationError::Worker {
            worker: "MPI".into(),
            message,
        };
        let (universe, level) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| failed("MPI was started already".into()))?;
        if level == Threading::Single {
            return Err(failed("the MPI library gives no thread support".into()));
        }
        let mut cluster = Cluster {
            world: World {
                comm: universe.world(),
                main: std::thread::current().id(),
            },
            rank: universe.world().rank(),
            size: universe.world().size(),
            ranks: Vec::new(),
            broken: AtomicBool::new(false),
            _universe: universe,
        };
        let hello = Hello::of_this_process(threads);
        if cluster.rank() == 0 {
            cluster.ranks.push(hello);
            for rank in 1..cluster.size() {
                let worker = cluster.world.comm.process_at_rank(rank);
                let (bytes, _) = worker.receive_vec_with_tag::<u8>(TAG_HELLO);
                cluster.ranks.push(decode::<Hello>(&bytes, rank)?);
            }
        } else {
            let root = cluster.world.comm.process_at_rank(0);
            root.send_with_tag(&encode(&hello)[..], TAG_HELLO);
        }
        Ok(cluster)
    }

    pub fn rank(&self) -> i32 {
        self.rank
    }

    /// Processes in the job.
    pub fn size(&self) -> i32 {
        self.size
    }

    fn workers(&self) -> usize {
        self.ranks.len().saturating_sub(1)
    }

    fn worker_threads(&self) -> usize {
        self.ranks.iter().skip(1).map(|h| h.threads).sum()
    }

    /// On rank 0: the job in a line (threads of each rank), and a hint for
    /// every machine whose ranks the launcher bound to fewer cores than it
    /// has (Open MPI's mpirun binds each process to a core by default).
    pub fn describe(&self) -> String {
        let threads: Vec<String> = self.ranks.iter().map(|h| h.threads.to_string()).collect();
        let mut text = format!(
            "MPI job: {} processes, threads by rank {}",
            self.size,
            threads.join(" + ")
        );
        let mut hosts: Vec<&str> = self.ranks.iter().map(|h| h.host.as_str()).collect();
        hosts.sort_unstable();
        hosts.dedup();
        for host in hosts {
            let on_host = || self.ranks.iter().filter(|h| h.host == host);
            let allowed: usize = on_host().map(|h| h.cores_allowed).sum();
            let online = on_host().map(|h| h.cores_online).max().unwrap_or(0);
            if allowed < online {
                text.push_str(&format!(
                    "\nnote: the ranks on {host} may run on {allowed} of its {online} cores (the \
                     launcher bound them); `mpirun --bind-to none` lets them use all"
                ));
            }
        }
        text
    }

    /// On rank 0: an evaluator over every rank, with `threads` threads here
    /// (`None`: one per core).
    pub fn evaluator(&self, threads: Option<usize>) -> Result<MpiEvaluator<'_>, EvaluationError> {
        Ok(MpiEvaluator::new(self, pool(threads)?))
    }

    /// On a worker rank: plays the games rank 0 hands out, with `threads`
    /// threads (`None`: one per core), until rank 0 ends the job.
    pub fn serve(&self, threads: Option<usize>) -> Result<(), EvaluationError> {
        let fault = Fault::from_env(self.rank()).map_err(|message| EvaluationError::Worker {
            worker: format!("MPI rank {}", self.rank()),
            message,
        })?;
        worker::serve(self.world.get()?, &pool(threads)?, fault)
    }

    /// Ends every process of the job after printing `why`.
    pub fn abort(&self, why: &str) -> ! {
        eprintln!("error: MPI rank {}: {why}; ending the job", self.rank);
        match self.world.get() {
            Ok(world) => world.abort(1),
            Err(_) => std::process::exit(1),
        }
    }

    fn mark_broken(&self) {
        self.broken.store(true, Ordering::SeqCst);
    }
}

impl Drop for Cluster {
    /// Rank 0 lets the workers go; after a failed evaluation, when workers
    /// may be waiting mid-batch, it ends the job instead.
    fn drop(&mut self) {
        if self.rank() != 0 {
            return;
        }
        if self.broken.load(Ordering::SeqCst) {
            self.abort("an evaluation failed");
        }
        let Ok(world) = self.world.get() else {
            return;
        };
        let order = encode(&Order::Shutdown);
        for rank in 1..self.size() {
            world
                .process_at_rank(rank)
                .send_with_tag(&order[..], TAG_ORDER);
        }
    }
}

/// The world communicator. MPI was started with `Threading::Funneled`: only
/// the thread that started it may make MPI calls, and [`World::get`] checks
/// that it is that thread.
struct World {
    comm: SimpleCommunicator,
    main: ThreadId,
}

// SAFETY: the communicator is a handle that only the main thread uses:
// every MPI call goes through `World::get`, which refuses other threads.
unsafe impl Sync for World {}

impl World {
    fn get(&self) -> Result<&SimpleCommunicator, EvaluationError> {
        if std::thread::current().id() != self.main {
            return Err(EvaluationError::Worker {
                worker: "MPI".into(),
                message: "MPI calls must come from the thread that started MPI".into(),
            });
        }
        Ok(&self.comm)
    }
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, EvaluationError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(Hello::of_this_process(None).threads))
        .build()
        .map_err(|e| EvaluationError::Worker {
            worker: "local thread pool".into(),
            message: e.to_string(),
        })
}
