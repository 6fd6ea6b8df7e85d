//! `tune2048 report RUN_DIR… [--out FILE]`: a run's story as one
//! self-contained HTML page; several runs are overlaid on one page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::input_error;
use tune2048::report::{self, RunReport};
use tune2048::tune::folder::files;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run folders written by `tune`; with two or more, one page compares them.
    #[arg(value_name = "RUN_DIR", required = true)]
    pub runs: Vec<PathBuf>,
    /// The page to write (default: report.html in the run folder; with
    /// several runs, report.html here).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The files a run writes as it starts or as it goes: a folder with none of
/// them is no run's, and gets no page (a typed path that names some other
/// folder would otherwise get a page of nothing but notes).
const RUN_FILES: [&str; 4] = [
    files::META,
    files::CONFIG,
    files::JOURNAL,
    files::GENERATIONS,
];

/// Where the page goes when `--out` is not given.
fn default_out(runs: &[PathBuf]) -> PathBuf {
    match runs {
        [one] => one.join(files::REPORT),
        _ => PathBuf::from(files::REPORT),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut reports = Vec::new();
    for dir in &args.runs {
        if !dir.is_dir() {
            return Err(input_error(format!("{}: not a folder", dir.display())));
        }
        if !RUN_FILES.iter().any(|f| dir.join(f).is_file()) {
            return Err(input_error(format!(
                "{}: not a run folder (it has none of {})",
                dir.display(),
                RUN_FILES.join(", ")
            )));
        }
        reports.push(RunReport::load(dir));
    }
    let out = args.out.unwrap_or_else(|| default_out(&args.runs));
    report::write(&reports, &out)?;
    for r in &reports {
        for note in &r.notes {
            let (report::model::Note::Pending(t) | report::model::Note::Problem(t)) = note;
            eprintln!("{}: {t}", r.dir.display());
        }
    }
    println!("{}", Path::new(&out).display());
    Ok(ExitCode::SUCCESS)
}
