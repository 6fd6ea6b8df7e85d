//! Where a command's batches are played: on this process's threads, or,
//! when built with the `mpi` feature and started by an MPI launcher, on
//! every process of the job (`on_job`: rank 0 runs the command, the other
//! ranks serve its games until it is done). [`Workers::evaluator`] is the
//! evaluator over whichever it is. It sits above both `evaluation` (the
//! seam and the local pool) and `cluster` (the MPI evaluator), which
//! imports the seam.

#[cfg(feature = "mpi")]
use crate::evaluation::EvaluationError;
use crate::evaluation::{Evaluator, LocalEvaluator};

/// The processes that play a command's games.
pub enum Workers {
    /// This process alone.
    Local,
    /// Every rank of an MPI job; this process is rank 0.
    #[cfg(feature = "mpi")]
    Cluster(crate::cluster::Cluster),
}

impl Workers {
    /// An evaluator with `threads` threads in this process (`None`: one per
    /// core; a thread count of 0 is the caller's to refuse).
    pub fn evaluator(
        &self,
        threads: Option<usize>,
    ) -> Result<Box<dyn Evaluator + '_>, crate::evaluation::EvaluationError> {
        match self {
            Workers::Local => Ok(Box::new(LocalEvaluator::new(threads)?)),
            #[cfg(feature = "mpi")]
            Workers::Cluster(cluster) => Ok(Box::new(cluster.evaluator(threads)?)),
        }
    }

    /// Whether other processes play too: when one of them dies, the MPI
    /// launcher ends this one.
    pub fn is_cluster(&self) -> bool {
        !matches!(self, Workers::Local)
    }
}

/// Environment variables that MPI launchers set in the processes they start
/// (Open MPI's mpirun, MPICH's Hydra, Slurm's srun with PMI or PMIx).
const LAUNCHER_VARS: [&str; 4] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"];

/// Whether an MPI launcher started this process.
pub fn launched_by_mpi() -> bool {
    LAUNCHER_VARS.iter().any(|v| std::env::var_os(v).is_some())
}

/// Runs `command` on every process of the MPI job that started this one:
/// rank 0 runs it (and prints the job's shape on stderr), the other ranks
/// serve its games and return `None`. `threads` is this process's thread
/// count. A worker that fails ends the job: rank 0 would wait for its games.
#[cfg(feature = "mpi")]
pub fn on_job<T, E: From<EvaluationError>>(
    threads: Option<usize>,
    command: impl FnOnce(&Workers) -> Result<T, E>,
) -> Result<Option<T>, E> {
    let cluster = crate::cluster::Cluster::init(threads)?;
    if cluster.rank() != 0 {
        if let Err(e) = cluster.serve(threads) {
            cluster.abort(&e.to_string());
        }
        return Ok(None);
    }
    eprintln!("{}", cluster.describe());
    if cluster.size() == 1 {
        // A job of one process: nothing to hand out.
        return command(&Workers::Local).map(Some);
    }
    command(&Workers::Cluster(cluster)).map(Some)
}

/// Makes every thread of this process allocate from one malloc arena, for
/// the commands whose memory must not grow with their number of games
/// (`eval`, `compare`). With glibc's default of an arena per thread, memory
/// freed by the main thread after a chunk of games goes back to the worker's
/// arena and fragments it: the peak crept up 15% from 10^4 to 10^7 games.
/// With one arena it stays flat. Call it before the worker threads exist.
pub fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of glibc's allocator; a value
    // it refuses is reported by its return value, which changes nothing.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
