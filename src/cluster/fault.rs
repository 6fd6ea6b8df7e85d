//! A failure on purpose, for tests of what a lost rank does to a run:
//! `TUNE2048_MPI_FAULT=RANK:GAMES` makes worker rank RANK abort once it has
//! played GAMES games, in the middle of whatever batch it is playing.

/// The environment variable read by [`Fault::from_env`].
pub const FAULT_VAR: &str = "TUNE2048_MPI_FAULT";

/// A countdown to a simulated crash.
#[derive(Debug)]
pub struct Fault {
    rank: i32,
    left: usize,
}

impl Fault {
    /// The fault set for this rank, if any; a malformed value is an error.
    pub fn from_env(rank: i32) -> Result<Option<Fault>, String> {
        let Ok(value) = std::env::var(FAULT_VAR) else {
            return Ok(None);
        };
        let parsed = value
            .split_once(':')
            .and_then(|(r, g)| Some((r.trim().parse::<i32>().ok()?, g.trim().parse().ok()?)));
        match parsed {
            Some((r, games)) if r == rank => Ok(Some(Fault { rank, left: games })),
            Some(_) => Ok(None),
            None => Err(format!("{FAULT_VAR}={value}: expected RANK:GAMES")),
        }
    }

    /// Counts finished games; aborts the process when the count runs out.
    pub fn count(&mut self, games: usize) {
        self.left = self.left.saturating_sub(games);
        if self.left == 0 {
            eprintln!(
                "tune2048: MPI rank {} aborts on purpose ({FAULT_VAR})",
                self.rank
            );
            std::process::abort();
        }
    }
}
