//! `tune2048 plot`: charts of run folders or of an `eval --csv` file.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::input_error;
use tune2048::plot::{self, Format, PlotError};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run folders (a learning folder of `learn` gets its learning curves:
    /// score against games and seconds, reach rates, rate); with two or
    /// more tuning runs, their fitness curves are also overlaid in
    /// compare-fitness.png/svg, and two or more learning folders' scores in
    /// learning-compare-games and -seconds.
    #[arg(value_name = "RUN_DIR", required_unless_present = "eval")]
    pub runs: Vec<PathBuf>,
    /// Chart an `eval --csv` file instead of run folders.
    #[arg(long, value_name = "FILE.csv", conflicts_with = "runs")]
    pub eval: Option<PathBuf>,
    /// Folder for the charts.
    #[arg(long, default_value = "plots")]
    pub out: PathBuf,
    /// Image format.
    #[arg(long, value_enum, default_value_t = ImageFormat::Both)]
    pub format: ImageFormat,
}

/// `--format`'s values: [`Format`]'s, named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ImageFormat {
    Png,
    Svg,
    Both,
}

impl From<ImageFormat> for Format {
    fn from(format: ImageFormat) -> Format {
        match format {
            ImageFormat::Png => Format::Png,
            ImageFormat::Svg => Format::Svg,
            ImageFormat::Both => Format::Both,
        }
    }
}

fn classify(err: PlotError) -> anyhow::Error {
    if err.is_input() {
        input_error(err)
    } else {
        anyhow::Error::new(err)
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = Format::from(args.format);
    let mut written = Vec::new();
    if let Some(csv) = &args.eval {
        written.extend(plot::plot_eval(csv, &args.out, format).map_err(classify)?);
    } else {
        for dir in &args.runs {
            if plot::is_learning_folder(dir) {
                written.extend(plot::plot_learning(dir, &args.out, format).map_err(classify)?);
                continue;
            }
            let mut warnings = Vec::new();
            let files = plot::plot_run(dir, &args.out, format, &mut warnings).map_err(classify)?;
            for warning in warnings {
                eprintln!("warning: {warning}");
            }
            if files.is_empty() {
                eprintln!("{}: nothing to draw yet", dir.display());
            }
            written.extend(files);
        }
        let tuning: Vec<PathBuf> = args
            .runs
            .iter()
            .filter(|d| !plot::is_learning_folder(d))
            .cloned()
            .collect();
        if tuning.len() > 1 {
            written.extend(plot::plot_compare(&tuning, &args.out, format).map_err(classify)?);
        }
        let learning: Vec<PathBuf> = args
            .runs
            .iter()
            .filter(|d| plot::is_learning_folder(d))
            .cloned()
            .collect();
        if learning.len() > 1 {
            written.extend(
                plot::plot_learning_compare(&learning, &args.out, format).map_err(classify)?,
            );
        }
    }
    for path in &written {
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
