//! Where a command's games are played ([`tune2048::workers`]),
//! from the command line: `tune`, `resume`, `eval` and `compare` play
//! through a [`Workers`]; under MPI only rank 0 runs them, and the other
//! ranks serve games until it is done.

use std::process::ExitCode;

use super::input_error;
use tune2048::evaluation::Evaluator;
use tune2048::workers::launched_by_mpi;
use tune2048::workers::Workers;

/// [`Workers::evaluator`] with `--threads` checked.
pub fn evaluator(
    workers: &Workers,
    threads: Option<usize>,
) -> anyhow::Result<Box<dyn Evaluator + '_>> {
    if threads == Some(0) {
        return Err(input_error("--threads must be at least 1"));
    }
    Ok(workers.evaluator(threads)?)
}

/// Runs `command` on this process alone, or, when an MPI launcher started
/// it (feature `mpi`), on every process of the job: rank 0 runs `command`,
/// the other ranks serve its games. `threads` is this process's thread count.
pub fn with_workers(
    threads: Option<usize>,
    command: impl FnOnce(&Workers) -> anyhow::Result<ExitCode>,
) -> anyhow::Result<ExitCode> {
    if launched_by_mpi() {
        #[cfg(feature = "mpi")]
        {
            if threads == Some(0) {
                return Err(input_error("--threads must be at least 1"));
            }
            let ran = tune2048::workers::on_job(threads, command)?;
            return Ok(ran.unwrap_or(ExitCode::SUCCESS));
        }
        #[cfg(not(feature = "mpi"))]
        return Err(input_error(
            "an MPI launcher started this process, but this tune2048 was built without MPI: \
             every process would run the whole command on its own. Build it with \
             `cargo build --release --features mpi`",
        ));
    }
    let _ = threads;
    command(&Workers::Local)
}
