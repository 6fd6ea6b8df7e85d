//! The charts of a running tuning job, redrawn into its folder.

use std::path::PathBuf;

use super::{plot_run, Format};
use crate::tune::observer::{Observer, ObserverError};
use crate::tune::state::RunState;

/// Redraws a run folder's charts (PNG) every `every` generations. A chart
/// that cannot be drawn is reported on stderr and does not stop the run.
pub struct Charts {
    dir: PathBuf,
    every: u32,
}

impl Charts {
    pub fn new(dir: PathBuf, every: u32) -> Charts {
        Charts {
            dir,
            every: every.max(1),
        }
    }

    /// Draws every chart of the folder now.
    pub fn draw(&self) {
        // A torn last line is the writer's own record in progress: no warning.
        if let Err(e) = plot_run(&self.dir, &self.dir, Format::Png, &mut Vec::new()) {
            eprintln!(
                "warning: could not draw the charts of {}: {e}",
                self.dir.display()
            );
        }
    }
}

impl Observer for Charts {
    fn on_generation(&self, state: &RunState) -> Result<(), ObserverError> {
        if state.generations().is_multiple_of(self.every) {
            self.draw();
        }
        Ok(())
    }
}
