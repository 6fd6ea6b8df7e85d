//! A failure on purpose, for tests of what a lost rank does to a run:
//! `TUNE2048_MPI_FAULT=RANK:BATCH` makes worker rank RANK abort as soon as
//! it has played one game of the BATCH-th batch it is sent (counting from
//! 1), in the middle of that batch whatever the timing.

/// The environment variable read by [`Fault::from_env`].
pub const FAULT_VAR: &str = "TUNE2048_MPI_FAULT";

/// A countdown to a simulated crash.
#[derive(Debug)]
pub struct Fault {
    rank: i32,
    batches_left: u64,
}

impl Fault {
    /// The fault set for this rank, if any; a malformed value is an error.
    pub fn from_env(rank: i32) -> Result<Option<Fault>, String> {
        let Ok(value) = std::env::var(FAULT_VAR) else {
            return Ok(None);
        };
        let parsed = value.split_once(':').and_then(|(r, b)| {
            Some((r.trim().parse::<i32>().ok()?, b.trim().parse::<u64>().ok()?))
        });
        match parsed {
            Some((r, batch)) if batch >= 1 => Ok((r == rank).then_some(Fault {
                rank,
                batches_left: batch,
            })),
            _ => Err(format!(
                "{FAULT_VAR}={value}: expected RANK:BATCH, BATCH from 1"
            )),
        }
    }

    /// A new batch begins.
    pub fn next_batch(&mut self) {
        self.batches_left = self.batches_left.saturating_sub(1);
    }

    /// A game of the current batch ended: aborts in the chosen batch.
    pub fn game_done(&self) {
        if self.batches_left == 0 {
            eprintln!(
                "tune2048: MPI rank {} aborts on purpose ({FAULT_VAR})",
                self.rank
            );
            std::process::abort();
        }
    }
}
