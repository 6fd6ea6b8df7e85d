//! `tune2048 tune CONFIG` and `tune2048 resume RUN_DIR`: the run folder
//! (started by [`start::start`]), its observers and the final comparison
//! around [`driver::run`]. The observers are wired here, not in `tune`:
//! charts and the live report live in `plot` and `report`, above `tune`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tune2048::evaluation::Evaluator;
use tune2048::lock::FolderLock;
use tune2048::plot::observer::Charts;
use tune2048::report::observer::LiveReport;
use tune2048::tune::config::{self, TuneConfig};
use tune2048::tune::driver;
use tune2048::tune::end::End;
use tune2048::tune::finish::finish;
use tune2048::tune::folder::start::{self, StartError};
use tune2048::tune::folder::{files, RunFolder};
use tune2048::tune::journal;
use tune2048::tune::observer::{Observers, Progress};
use tune2048::tune::outputs::{summary, BestFile, FinalFile, GenerationsCsv, JournalFile};
use tune2048::tune::replay::Replay;
use tune2048::tune::stop::StopReason;
use tune2048::workers::Workers;

/// Charts and report.html in the run folder are redrawn every this many
/// generations (and at the end).
const CHARTS_EVERY: u32 = 5;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The job's config file (RON), e.g. configs/quick.ron.
    pub config: PathBuf,
    /// Parent folder of the run folder.
    #[arg(long, default_value = "runs")]
    pub out: PathBuf,
    /// Worker threads (default: the config's, else one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Debug, clap::Args)]
pub struct ResumeArgs {
    /// A run folder written by `tune`.
    pub run_dir: PathBuf,
    /// Worker threads (default: the config's, else one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(args: Args, workers: &Workers) -> anyhow::Result<ExitCode> {
    // Everything about the config is checked before a folder exists.
    let config = config::load(&args.config)?;
    let threads = args.threads.or(config.threads.map(|t| t as usize));
    let evaluator = super::workers::evaluator(workers, threads)?;
    let (folder, _lock) =
        start::start(&config, &args.config, &args.out, &*evaluator).map_err(|e| match e {
            // The error itself, so that the exit code sees a folder in use.
            StartError::Io(e) => anyhow::Error::new(e),
            StartError::Lock(e) => anyhow::Error::new(e),
            e => anyhow::anyhow!("{e}"),
        })?;
    eprintln!("run folder: {}", folder.dir().display());
    let replayed = journal::read_for_replay(&folder.path(files::JOURNAL))?;
    execute(&config, &folder, replayed, &*evaluator, workers)
}

pub fn resume(args: ResumeArgs, workers: &Workers) -> anyhow::Result<ExitCode> {
    let folder = RunFolder::open(&args.run_dir)?;
    let _lock = FolderLock::acquire(folder.dir())?;
    let config = config::load(&folder.path(files::CONFIG))?;
    // `summary.txt` is the last file a run's end writes. A run killed
    // after its stop or its final comparison but before it is resumed and
    // ends anew: the journal replays, the final comparison is played again
    // on its own seeds, and every file of the end is written whole.
    if folder.path(files::SUMMARY).exists() {
        return Ok(finished_already(&folder));
    }
    let replayed = journal::read_for_replay(&folder.path(files::JOURNAL))?;
    let evaluator =
        super::workers::evaluator(workers, args.threads.or(config.threads.map(|t| t as usize)))?;
    eprintln!("resuming {}", folder.dir().display());
    execute(&config, &folder, replayed, &*evaluator, workers)
}

fn finished_already(folder: &RunFolder) -> ExitCode {
    eprintln!("{} is finished already.", folder.dir().display());
    ExitCode::SUCCESS
}

/// A flag set by the first Ctrl-C (or SIGTERM); a second one exits at once
/// (the journal keeps everything finished). On an MPI job the first signal
/// exits at once: it usually means that the launcher is ending the job
/// because another rank died, and that rank's games will never come back.
fn interrupt_flag(folder: &RunFolder, workers: &Workers) -> Arc<AtomicBool> {
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    let clustered = workers.is_cluster();
    let dir = folder.dir().display().to_string();
    let _ = ctrlc::set_handler(move || {
        if clustered {
            eprintln!(
                "\nstopped by a signal: the MPI job is ending (a rank died, a connection was lost, \
                 or the job was cancelled). The journal keeps every finished game; continue with: \
                 tune2048 resume {dir}"
            );
            std::process::exit(130);
        }
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing this generation (Ctrl-C again to stop now)");
    });
    interrupt
}

/// Runs (or goes on with) the tuning run in `folder`, whose journal was read
/// as `replayed` (its records and the length of its whole lines), with the
/// folder locked by the caller.
fn execute(
    config: &TuneConfig,
    folder: &RunFolder,
    replayed: (Vec<journal::Record>, u64),
    evaluator: &dyn Evaluator,
    workers: &Workers,
) -> anyhow::Result<ExitCode> {
    let interrupt = interrupt_flag(folder, workers);
    let (records, valid_len) = replayed;
    let replay = Replay::new(&records);
    let progress = Progress::default();
    let journal = JournalFile::open(folder, valid_len)?;
    let best = BestFile::new(folder.clone(), config);
    let csv = GenerationsCsv::new(folder.clone(), config);
    let final_file = FinalFile::new(folder.clone());
    let charts = Charts::new(folder.dir().to_path_buf(), CHARTS_EVERY);
    let page = LiveReport::new(folder.dir().to_path_buf(), CHARTS_EVERY);
    let observers = Observers(vec![
        &journal,
        &best,
        &csv,
        &final_file,
        &charts,
        &page,
        &progress,
    ]);
    let result = driver::run(config, &replay, evaluator, &observers, &interrupt)?;
    let report = finish(config, &result, &replay, evaluator, &observers)?;
    charts.draw();
    if result.stop == StopReason::Interrupted {
        eprintln!(
            "stopped after generation {}; continue with: tune2048 resume {}",
            result.state.generations().saturating_sub(1),
            folder.dir().display()
        );
        return Ok(ExitCode::from(130));
    }
    page.write(None);
    let end = End {
        config,
        result: &result,
        report: report.as_ref(),
    };
    let text = summary(folder, &end);
    // Last: it marks the run's end as whole (see `resume`).
    folder
        .write_atomic(files::SUMMARY, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("{}: writing: {e}", folder.path(files::SUMMARY).display()))?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
