//! The live report of a running tuning job: `report.html` in its folder,
//! rewritten at the charts' cadence, at the end, and by a heartbeat.
//!
//! The heartbeat keeps the page's promise ([`super::html::Stamp`]): while
//! the run is live, a page is never older than the heartbeat, however long
//! a generation (or the final comparison) takes. A background thread
//! rewrites it when nothing else has for that long. A page whose promise
//! has passed, by a margin, tells its reader that the writer is gone.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use super::html::{Stamp, HEARTBEAT_SECONDS};
use super::model::{RunReport, Status};
use crate::tune::config::TuneConfig;
use crate::tune::folder::files;
use crate::tune::observer::{Observer, ObserverError};
use crate::tune::state::{RunResult, RunState};
use crate::tune::stop::StopReason;

/// Rewrites a run folder's `report.html` when the run starts, every `every`
/// generations, when it stops, and at least every heartbeat while it is
/// live. A page that cannot be written is reported on stderr and does not
/// stop the run.
pub struct LiveReport {
    page: Arc<Page>,
    every: u32,
    heartbeat: Mutex<Option<JoinHandle<()>>>,
}

/// The page and what the heartbeat needs to rewrite it.
struct Page {
    dir: PathBuf,
    beat: Duration,
    last: Mutex<Last>,
    wake: Condvar,
}

/// The last write, under the lock that serialises writes.
struct Last {
    /// The status written, while the run is live (`None`: not live).
    live: Option<Status>,
    /// When it was written.
    at: Instant,
    /// The owner is dropped: the heartbeat ends.
    closed: bool,
}

impl Page {
    /// Writes the page with `status` (`None`: the folder's own). Called with
    /// the lock held, so that writes never overtake one another.
    fn write(&self, last: &mut Last, status: Option<Status>) {
        let mut report = RunReport::load(&self.dir);
        if let Some(status) = status {
            report.status = status;
        }
        let stamp = Stamp {
            written: SystemTime::now(),
            heartbeat: self.beat,
        };
        let path = self.dir.join(files::REPORT);
        if let Err(e) = super::write_stamped(std::slice::from_ref(&report), stamp, &path) {
            eprintln!("warning: could not write {}: {e}", path.display());
        }
        last.live = report.status.is_live().then_some(report.status);
        last.at = Instant::now();
    }

    /// The heartbeat: rewrites a live page that nothing else rewrote for
    /// `beat`, until the owner is dropped.
    fn beat(&self) {
        let mut last = self.last.lock().expect("report lock");
        while !last.closed {
            let due = last.at + self.beat;
            let now = Instant::now();
            match &last.live {
                Some(status) if now >= due => {
                    let status = status.clone();
                    self.write(&mut last, Some(status));
                }
                Some(_) => {
                    last = self
                        .wake
                        .wait_timeout(last, due - now)
                        .expect("report lock")
                        .0
                }
                None => last = self.wake.wait(last).expect("report lock"),
            }
        }
    }
}

impl LiveReport {
    /// The report of the run folder `dir`, rewritten every `every` generations.
    pub fn new(dir: PathBuf, every: u32) -> LiveReport {
        LiveReport::with_heartbeat(dir, every, Duration::from_secs(HEARTBEAT_SECONDS))
    }

    /// As [`LiveReport::new`], rewritten at least every `beat` while live.
    pub fn with_heartbeat(dir: PathBuf, every: u32, beat: Duration) -> LiveReport {
        LiveReport {
            page: Arc::new(Page {
                dir,
                beat,
                last: Mutex::new(Last {
                    live: None,
                    at: Instant::now(),
                    closed: false,
                }),
                wake: Condvar::new(),
            }),
            every: every.max(1),
            heartbeat: Mutex::new(None),
        }
    }

    /// Writes the page now, with `status` in place of what the folder says
    /// (`None`: the folder's own, as once the run has ended). A live page
    /// starts the heartbeat, if it is not beating yet.
    pub fn write(&self, status: Option<Status>) {
        let mut last = self.page.last.lock().expect("report lock");
        self.page.write(&mut last, status);
        let live = last.live.is_some();
        drop(last);
        self.page.wake.notify_all();
        let mut heartbeat = self.heartbeat.lock().expect("heartbeat lock");
        if live && heartbeat.is_none() {
            let page = Arc::clone(&self.page);
            let spawned = std::thread::Builder::new()
                .name("report-heartbeat".into())
                .spawn(move || page.beat());
            match spawned {
                Ok(handle) => *heartbeat = Some(handle),
                Err(e) => eprintln!(
                    "warning: no heartbeat for {} ({e}): its page may call the run stopped between rewrites",
                    self.page.dir.join(files::REPORT).display()
                ),
            }
        }
    }
}

impl Drop for LiveReport {
    fn drop(&mut self) {
        if let Ok(mut last) = self.page.last.lock() {
            last.closed = true;
        }
        self.page.wake.notify_all();
        if let Some(handle) = self.heartbeat.get_mut().ok().and_then(Option::take) {
            let _ = handle.join();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::html::fields;

    fn written(dir: &std::path::Path) -> String {
        let page = std::fs::read_to_string(dir.join(files::REPORT)).unwrap();
        fields(&page)
            .into_iter()
            .find(|(k, _)| k == "written")
            .map(|(_, v)| v)
            .unwrap()
    }

    #[test]
    fn the_heartbeat_rewrites_a_live_page_and_stops_with_the_run() {
        let dir = std::env::temp_dir().join(format!("tune2048-heartbeat-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let page = dir.join(files::REPORT);
        let live = LiveReport::with_heartbeat(dir.clone(), 1, Duration::from_millis(300));
        live.write(Some(Status::Running));
        let first = written(&dir);
        let before = std::fs::metadata(&page).unwrap().modified().unwrap();
        // The page is stamped to the second: wait for a stamp that differs.
        let start = Instant::now();
        while written(&dir) == first {
            assert!(start.elapsed() < Duration::from_secs(20), "no heartbeat");
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(std::fs::read_to_string(&page).unwrap().contains("Running"));
        // A page that is not live is not rewritten.
        live.write(Some(Status::Interrupted));
        let after = std::fs::metadata(&page).unwrap().modified().unwrap();
        assert!(after > before);
        std::thread::sleep(Duration::from_millis(1000));
        assert_eq!(std::fs::metadata(&page).unwrap().modified().unwrap(), after);
        drop(live);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
