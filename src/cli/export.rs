//! `tune2048 export`: weights in a format other solvers read.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::atomic_file;
use crate::cli::input_error;
use crate::export::{self, Format};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A weights file (.ron, or .json from `export --format json`) or a run
    /// folder (its best.ron).
    pub source: PathBuf,
    /// The output format.
    #[arg(long, value_enum)]
    pub format: Format,
    /// Write here instead of to stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let weights = export::load_source(&args.source).map_err(input_error)?;
    let text = export::render(&weights, args.format, &args.source.display().to_string());
    match &args.out {
        Some(path) => atomic_file::write(path, text.as_bytes())?,
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .context("writing to stdout")?,
    }
    Ok(ExitCode::SUCCESS)
}
