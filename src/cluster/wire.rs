//! The messages between the ranks of an MPI job: serde types sent as JSON
//! bytes, each kind under its own MPI tag. Every message goes between rank 0
//! and one worker, never between workers.

use mpi::Tag;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::evaluation::{Batch, EvaluationError};
use crate::lock::host_name;
use crate::selfplay::GameResult;

/// Worker → rank 0, once at start: [`Hello`].
pub const TAG_HELLO: Tag = 1;
/// Rank 0 → worker, while the worker waits for work: [`Order`].
pub const TAG_ORDER: Tag = 2;
/// Worker → rank 0, during a batch: [`Report`].
pub const TAG_REPORT: Tag = 3;
/// Rank 0 → worker, the answer to a report that asked for games: [`Grant`].
pub const TAG_GRANT: Tag = 4;

/// A worker introduces itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Hello {
    /// Its machine's name.
    pub host: String,
    /// Worker threads of that rank.
    pub threads: usize,
    /// Cores the rank may run on (its CPU affinity).
    pub cores_allowed: usize,
    /// Cores of its machine.
    pub cores_online: usize,
}

impl Hello {
    /// This process's introduction, with `threads` threads (`None`: one per
    /// allowed core).
    pub fn of_this_process(threads: Option<usize>) -> Hello {
        let allowed = std::thread::available_parallelism().map_or(1, |n| n.get());
        // SAFETY: sysconf only reads a system constant.
        let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
        Hello {
            host: host_name(),
            threads: threads.unwrap_or(allowed),
            cores_allowed: allowed,
            cores_online: usize::try_from(online).unwrap_or(allowed).max(allowed),
        }
    }
}

/// What rank 0 asks of an idle worker.
#[derive(Debug, Serialize, Deserialize)]
pub enum Order {
    /// Play games of this batch: ask for them with reports.
    Play { id: u64, batch: Batch },
    /// No more batches: leave.
    Shutdown,
}

/// A worker's finished games of batch `batch`, and how many more it can take.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Report {
    pub batch: u64,
    /// (job index, result); job `j` is weight set `j / seeds`, seed `j % seeds`.
    pub results: Vec<(usize, GameResult)>,
    /// Games wanted; rank 0 answers a report with a [`Grant`] exactly when
    /// this is above 0.
    pub want: usize,
    /// The worker has nothing left of this batch: its last report for it.
    pub finished: bool,
    /// The worker could not play the batch.
    pub error: Option<String>,
}

/// Jobs `first..end` for the worker; an empty range means the batch has no
/// jobs left to hand out.
#[derive(Debug, Serialize, Deserialize)]
pub struct Grant {
    pub first: usize,
    pub end: usize,
}

/// A message's bytes.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Every field is a number, a string or a finite weight: JSON holds them all.
    serde_json::to_vec(message).expect("wire messages serialize")
}

/// A message read back; `from` names the sender in the error.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], from: i32) -> Result<T, EvaluationError> {
    serde_json::from_slice(bytes).map_err(|e| EvaluationError::Worker {
        worker: format!("MPI rank {from}"),
        message: format!("unreadable message ({e}); are all ranks the same tune2048 build?"),
    })
}
