//! A run report: one self-contained HTML page per run folder (or several,
//! overlaid), readable offline in any browser.
//!
//! [`model`] reads a folder into data, noting what is missing rather than
//! failing; [`charts`] draws the `plot` charts as inline SVG; [`html`] writes
//! the page; [`observer`] rewrites `report.html` while a run goes on.

use std::path::Path;
use std::time::SystemTime;

pub mod charts;
pub mod html;
pub mod model;
pub mod observer;
#[cfg(test)]
mod tests;

pub use model::{RunReport, Status};

use crate::tune::folder::utc_rfc3339;

/// The page of `runs`, stamped with the current time.
pub fn render(runs: &[RunReport]) -> String {
    html::page(runs, &utc_rfc3339(SystemTime::now()))
}

/// Writes the page of `runs` to `out`, atomically (a browser reloading it
/// never sees half a page).
pub fn write(runs: &[RunReport], out: &Path) -> std::io::Result<()> {
    crate::atomic_file::write(out, render(runs).as_bytes())
}
