//! The live report of a running tuning job: `report.html` in its folder,
//! rewritten at the charts' cadence and at the end.

use std::path::PathBuf;

use super::model::{RunReport, Status};
use crate::tune::config::TuneConfig;
use crate::tune::folder::files;
use crate::tune::observer::{Observer, ObserverError};
use crate::tune::state::{RunResult, RunState};
use crate::tune::stop::StopReason;

/// Rewrites a run folder's `report.html` when the run starts, every `every`
/// generations and when it stops. A page that cannot be written is
/// reported on stderr and does not stop the run.
pub struct LiveReport {
    dir: PathBuf,
    every: u32,
}

impl LiveReport {
    /// The report of the run folder `dir`, rewritten every `every` generations.
    pub fn new(dir: PathBuf, every: u32) -> LiveReport {
        LiveReport {
            dir,
            every: every.max(1),
        }
    }

    /// Writes the page now, with `status` in place of what the folder says
    /// (`None`: the folder's own, as once the run has ended).
    pub fn write(&self, status: Option<Status>) {
        let mut report = RunReport::load(&self.dir);
        if let Some(status) = status {
            report.status = status;
        }
        let path = self.dir.join(files::REPORT);
        if let Err(e) = super::write(&[report], &path) {
            eprintln!("warning: could not write {}: {e}", path.display());
        }
    }
}

impl Observer for LiveReport {
    fn on_start(&self, _config: &TuneConfig, _replayed: usize) -> Result<(), ObserverError> {
        self.write(Some(Status::Running));
        Ok(())
    }

    fn on_generation(&self, state: &RunState) -> Result<(), ObserverError> {
        if state.generations().is_multiple_of(self.every) {
            self.write(Some(Status::Running));
        }
        Ok(())
    }

    fn on_finish(&self, result: &RunResult) -> Result<(), ObserverError> {
        let status = match result.stop {
            StopReason::Interrupted => Status::Interrupted,
            stop => Status::Finishing(stop.describe().to_string()),
        };
        self.write(Some(status));
        Ok(())
    }
}
