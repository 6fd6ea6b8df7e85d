//! A run report: one self-contained HTML page per run folder (or several,
//! overlaid), readable offline in any browser.
//!
//! [`model`] reads a folder into data, noting what is missing rather than
//! failing; [`charts`] draws the `plot` charts as inline SVG; [`html`] writes
//! the page; [`observer`] rewrites `report.html` while a run goes on.

use std::path::Path;

pub mod charts;
pub mod html;
pub mod model;
pub mod observer;
#[cfg(test)]
mod tests;

pub use html::Stamp;
pub use model::{RunReport, Status};

/// The page of `runs`, stamped with the current time.
pub fn render(runs: &[RunReport]) -> String {
    html::page(runs, Stamp::now())
}

/// Writes the page of `runs` to `out`, stamped with the current time.
pub fn write(runs: &[RunReport], out: &Path) -> std::io::Result<()> {
    write_stamped(runs, Stamp::now(), out)
}

/// Writes the page of `runs`, stamped `stamp`, to `out`, atomically (a
/// browser reloading it never sees half a page).
pub fn write_stamped(runs: &[RunReport], stamp: Stamp, out: &Path) -> std::io::Result<()> {
    crate::atomic_file::write(out, html::page(runs, stamp).as_bytes())
}
