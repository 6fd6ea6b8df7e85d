//! `tune2048 tune CONFIG` and `tune2048 resume RUN_DIR`: the run folder, its
//! observers and the final comparison around [`driver::run`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::workers::Workers;
use crate::adversarial::duel::Opponent;
use crate::bank::content_hash;
use crate::evaluation::Evaluator;
use crate::plot::observer::Charts;
use crate::report::observer::LiveReport;
use crate::tune::config::{self, BankStarts, Game, TuneConfig};
use crate::tune::driver;
use crate::tune::finish::{compare_final, FinalReport};
use crate::tune::folder::{files, utc_rfc3339, RunFolder};
use crate::tune::journal;
use crate::tune::lock::FolderLock;
use crate::tune::meta::RunMeta;
use crate::tune::observer::{Observers, Progress};
use crate::tune::outputs::{BestFile, GenerationsCsv, JournalFile};
use crate::tune::replay::Replay;
use crate::tune::state::RunResult;
use crate::tune::stop::StopReason;

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
    let evaluator = workers.evaluator(threads)?;
    let folder = RunFolder::create(&args.out, &config.name)?;
    let _lock = FolderLock::acquire(&folder)?;
    if let Some(weights) = config.base.weights() {
        folder.write_atomic(files::BASE, weights.to_ron().as_bytes())?;
    }
    if let Some(bank) = &config.bank {
        copy_bank(bank, &folder)?;
    }
    if let Game::Gpcc(duel) = &config.variant {
        for (i, o) in duel.opponents.iter().enumerate() {
            if let Opponent::Weights { weights, .. } = o {
                folder.write_atomic(&files::opponent(i), weights.to_ron().as_bytes())?;
            }
        }
    }
    folder.write_atomic(
        files::CONFIG,
        config
            .to_ron_in_folder(
                Path::new(files::BASE),
                Path::new(files::BANK),
                files::opponent,
            )
            .as_bytes(),
    )?;
    let meta = RunMeta {
        name: Some(config.name.clone()),
        version: env!("CARGO_PKG_VERSION").to_string(),
        config: args.config.display().to_string(),
        base_weights: config
            .base_weights_path
            .as_ref()
            .map_or_else(|| config.base.describe(), |p| p.display().to_string()),
        seed: config.seed,
        threads: evaluator.threads(),
        processes: evaluator.processes(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        started: utc_rfc3339(std::time::SystemTime::now()),
        params: config.params.iter().map(|p| p.name.to_string()).collect(),
    };
    meta.write(&folder)?;
    eprintln!("run folder: {}", folder.dir().display());
    execute(&config, &folder, &*evaluator, workers)
}

/// Copies the bank into the run folder, unless it changed since the config
/// was read (the folder's config records the hash the games were drawn from).
fn copy_bank(bank: &BankStarts, folder: &RunFolder) -> anyhow::Result<()> {
    let bytes = std::fs::read(&bank.path)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the bank file: {e}", bank.path.display()))?;
    if content_hash(&bytes) != bank.hash {
        anyhow::bail!(
            "{}: the bank file changed while the run started",
            bank.path.display()
        );
    }
    Ok(folder.write_atomic(files::BANK, &bytes)?)
}

pub fn resume(args: ResumeArgs, workers: &Workers) -> anyhow::Result<ExitCode> {
    let folder = RunFolder::open(&args.run_dir)?;
    let _lock = FolderLock::acquire(&folder)?;
    if folder.path(files::FINAL).exists() {
        eprintln!(
            "{} is finished already (it has {}).",
            folder.dir().display(),
            files::FINAL
        );
        return Ok(ExitCode::SUCCESS);
    }
    let config = config::load(&folder.path(files::CONFIG))?;
    let evaluator = workers.evaluator(args.threads.or(config.threads.map(|t| t as usize)))?;
    eprintln!("resuming {}", folder.dir().display());
    execute(&config, &folder, &*evaluator, workers)
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

fn execute(
    config: &TuneConfig,
    folder: &RunFolder,
    evaluator: &dyn Evaluator,
    workers: &Workers,
) -> anyhow::Result<ExitCode> {
    let interrupt = interrupt_flag(folder, workers);
    let (records, valid_len) = journal::read(&folder.path(files::JOURNAL))?;
    let replay = Replay::new(&records);
    let progress = Progress::default();
    let journal = JournalFile::open(folder, valid_len)?;
    let best = BestFile::new(folder.clone(), config);
    let csv = GenerationsCsv::new(folder.clone(), config);
    let charts = Charts::new(folder.dir().to_path_buf(), CHARTS_EVERY);
    let page = LiveReport::new(folder.dir().to_path_buf(), CHARTS_EVERY);
    let observers = Observers(vec![&journal, &best, &csv, &charts, &page, &progress]);
    let result = driver::run(config, &replay, evaluator, &observers, &interrupt)?;
    if result.stop == StopReason::Interrupted {
        charts.draw();
        eprintln!(
            "stopped after generation {}; continue with: tune2048 resume {}",
            result.state.generations().saturating_sub(1),
            folder.dir().display()
        );
        return Ok(ExitCode::from(130));
    }
    let best = result
        .best()
        .ok_or_else(|| anyhow::anyhow!("the run finished without any generation"))?;
    let report = if config.final_games > 0 {
        let report = compare_final(config, &best.player, evaluator, &progress)?;
        folder.write_atomic(
            files::FINAL,
            serde_json::to_string_pretty(&report)?.as_bytes(),
        )?;
        Some(report)
    } else {
        None
    };
    let text = summary(config, folder, &result, report.as_ref());
    folder.write_atomic(files::SUMMARY, text.as_bytes())?;
    charts.draw();
    page.write(None);
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// `summary.txt`: the result in words.
fn summary(
    config: &TuneConfig,
    folder: &RunFolder,
    result: &RunResult,
    report: Option<&FinalReport>,
) -> String {
    let best = result.best().expect("checked by the caller");
    let mut lines = vec![
        format!("run: {}", folder.dir().display()),
        format!(
            "stopped: {} after {} generations, {} games",
            result.stop.describe(),
            result.state.generations(),
            result.state.games
        ),
        format!(
            "best ({}, {}): fitness {:.2} [{:.2}, {:.2}]; base {:.2}",
            best.chosen,
            // An averaged contender was never validated; its reselection games score it.
            if best.is_one_generation() {
                "validated"
            } else {
                "scored on the reselection games"
            },
            best.fitness.value,
            best.fitness.ci95[0],
            best.fitness.ci95[1],
            result.state.baseline.value
        ),
    ];
    if let (Some((f, contenders)), Some(r)) = (best.reselected, config.reselect) {
        lines.push(format!(
            "reselected from {contenders} contenders on {} fresh games: fitness {:.2} [{:.2}, {:.2}]",
            r.games, f.value, f.ci95[0], f.ci95[1]
        ));
    }
    if let Some(report) = report {
        let p = &report.paired;
        lines.push(format!(
            "final, {} paired games: best mean score {:.0} vs base {:.0}: ratio {:.3}, diff {:.0} [{:.0}, {:.0}], p = {:.2e}, wins/losses/ties {}/{}/{}",
            report.games, report.best.mean_score, report.base.mean_score, p.ratio, p.mean_diff, p.ci95[0], p.ci95[1], p.p_value, p.wins, p.losses, p.ties
        ));
    }
    lines.push(match best.player {
        crate::player::Player::Builtin { .. } => {
            format!("best weights: {}", folder.path(files::BEST).display())
        }
        crate::player::Player::External { .. } => {
            format!("best values: {}", folder.path(files::BEST_SET).display())
        }
    });
    lines.join("\n") + "\n"
}
