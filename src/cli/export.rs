//! `tune2048 export`: weights, or any player's tuned values, in a format
//! other programs read.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::cli::input_error;
use tune2048::atomic_file;
use tune2048::export::{self, ExportFormat};
use tune2048::network::value::Network;
use tune2048::network::ziap;
use tune2048::player::values::ParamValues;
use tune2048::tune::folder::files;

/// The values file to export, when `source` is one: a run folder without
/// built-in weights (an external player's), or a `best-params.json`.
fn values_source(source: &std::path::Path) -> Option<PathBuf> {
    if source.is_dir() {
        let values = source.join(files::BEST_PARAMS);
        return (!source.join(files::BEST).exists() && values.is_file()).then_some(values);
    }
    let is_values = std::fs::read_to_string(source)
        .ok()
        .and_then(|t| serde_json::from_str::<ParamValues>(&t).ok())
        .is_some();
    is_values.then(|| source.to_path_buf())
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A weights file (.ron, or .json from `export --format json`), a run
    /// folder (its best.ron, or an external player's best-params.json), or
    /// a best-params.json; for `--format ziap`, a learned network (.nt or
    /// .ntp).
    pub source: PathBuf,
    /// The output format.
    #[arg(long, value_enum)]
    pub format: Format,
    /// Write here instead of to stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `--format`'s values: [`ExportFormat`]'s, named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The project's own weights file.
    Ron,
    /// A JSON object with the same field names.
    Json,
    /// A header for C and C++ (the reference program's names where they match).
    C,
    /// A Rust `const` item of type `tune2048::heuristic::Weights`.
    Rust,
    /// The line protocol's `set NAME VALUE` lines, one per parameter.
    Set,
    /// A learned network as ziap/2048-tdl's weights file (binary: needs
    /// `--out`), for that program built with the structure of its tuples.
    Ziap,
}

impl From<Format> for ExportFormat {
    fn from(format: Format) -> ExportFormat {
        match format {
            Format::Ron => ExportFormat::Ron,
            Format::Json => ExportFormat::Json,
            Format::C => ExportFormat::C,
            Format::Rust => ExportFormat::Rust,
            Format::Set => ExportFormat::Set,
            Format::Ziap => unreachable!("a network is exported by `network_to_ziap`"),
        }
    }
}

/// `--format ziap`: the network `args.source` as ziap/2048-tdl's weights
/// file, written to `--out` whole or not at all.
fn network_to_ziap(args: &Args) -> anyhow::Result<ExitCode> {
    let Some(out) = &args.out else {
        return Err(input_error(
            "--format ziap writes a binary weights file: name it with --out",
        ));
    };
    let net = Network::load(&args.source).map_err(input_error)?;
    let bytes = ziap::to_ziap_bytes(&net)
        .map_err(|e| input_error(format!("{}: {e}", args.source.display())))?;
    // ziap/2048-tdl reads it from a folder named after the structure.
    if let Some(folder) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("creating {}", folder.display()))?;
    }
    atomic_file::write(out, &bytes)?;
    let structure = ziap::structure(&net).expect("to_ziap_bytes checked the tuples");
    eprintln!(
        "export: wrote {} ({} bytes); ziap/2048-tdl reads it built with \
         `make STRUCTURE={structure}`, as {structure}/weights.bin in the folder it runs in",
        out.display(),
        bytes.len()
    );
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.format == Format::Ziap {
        return network_to_ziap(&args);
    }
    let format = ExportFormat::from(args.format);
    let name = args.source.display().to_string();
    let text = match values_source(&args.source) {
        Some(path) => {
            let values = ParamValues::load(&path)?;
            match format {
                ExportFormat::Set => values.to_set_lines(),
                ExportFormat::Json => values.to_json(),
                ExportFormat::C => values.to_c_header(&name),
                ExportFormat::Ron | ExportFormat::Rust => {
                    return Err(input_error(format!(
                        "{}: tuned values of `{}` export as set, json or c; ron and rust \
                         are for the built-in player's weights",
                        path.display(),
                        values.player
                    )))
                }
            }
        }
        None => {
            let weights = export::load_source(&args.source).map_err(input_error)?;
            export::render(&weights, format, &name)
        }
    };
    match &args.out {
        Some(path) => atomic_file::write(path, text.as_bytes())?,
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .context("writing to stdout")?,
    }
    Ok(ExitCode::SUCCESS)
}
