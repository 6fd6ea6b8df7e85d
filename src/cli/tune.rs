//! `tune2048 tune CONFIG` and `tune2048 resume RUN_DIR`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::input_error;
use crate::selfplay::thread_pool;
use crate::tune::config::{self, TuneConfig};
use crate::tune::driver::{self, StopReason};
use crate::tune::finish::compare_final;
use crate::tune::folder::{files, utc_rfc3339, RunFolder};
use crate::tune::observer::Progress;

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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Everything about the config is checked before a folder exists.
    let config = config::load(&args.config).map_err(input_error)?;
    if args.threads == Some(0) {
        return Err(input_error("--threads must be at least 1"));
    }
    let folder = RunFolder::create(&args.out, &config.name)?;
    let base = folder.path(files::BASE);
    folder.write_atomic(files::BASE, config.base_weights.to_ron().as_bytes())?;
    folder.write_atomic(
        files::CONFIG,
        config.to_ron_with_base(Path::new(files::BASE)).as_bytes(),
    )?;
    let threads = args.threads.or(config.threads.map(|t| t as usize));
    let meta = serde_json::json!({
        "name": config.name,
        "version": env!("CARGO_PKG_VERSION"),
        "config": args.config.display().to_string(),
        "base_weights": config.base_weights_path.display().to_string(),
        "seed": config.seed,
        "threads": threads.unwrap_or_else(rayon::current_num_threads),
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "started": utc_rfc3339(std::time::SystemTime::now()),
        "params": config.params.iter().map(|p| p.name).collect::<Vec<_>>(),
    });
    folder.write_atomic(files::META, serde_json::to_string_pretty(&meta)?.as_bytes())?;
    debug_assert!(base.exists());
    eprintln!("run folder: {}", folder.dir().display());
    execute(&config, &folder, threads)
}

pub fn resume(args: ResumeArgs) -> anyhow::Result<ExitCode> {
    let folder = RunFolder::open(&args.run_dir)?;
    if folder.path(files::FINAL).exists() {
        eprintln!(
            "{} is finished already (it has {}).",
            folder.dir().display(),
            files::FINAL
        );
        return Ok(ExitCode::SUCCESS);
    }
    let config = config::load(&folder.path(files::CONFIG)).map_err(input_error)?;
    if args.threads == Some(0) {
        return Err(input_error("--threads must be at least 1"));
    }
    eprintln!("resuming {}", folder.dir().display());
    execute(
        &config,
        &folder,
        args.threads.or(config.threads.map(|t| t as usize)),
    )
}

fn execute(
    config: &TuneConfig,
    folder: &RunFolder,
    threads: Option<usize>,
) -> anyhow::Result<ExitCode> {
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupt.clone();
        // A second Ctrl-C kills at once: the journal keeps everything finished.
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing this generation (Ctrl-C again to stop now)");
        });
    }
    let pool = thread_pool(threads)?;
    let observer = Progress::default();
    let result = pool.install(|| driver::run(config, folder, &observer, &interrupt))?;
    crate::tune::write_generations_csv(folder)?;
    if result.stop == StopReason::Interrupted {
        eprintln!(
            "stopped after generation {}; continue with: tune2048 resume {}",
            result.generations.saturating_sub(1),
            folder.dir().display()
        );
        return Ok(ExitCode::from(130));
    }
    let best = result
        .best
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("the run finished without any generation"))?;
    let mut lines = vec![
        format!("run: {}", folder.dir().display()),
        format!(
            "stopped: {} after {} generations, {} games",
            result.stop.describe(),
            result.generations,
            result.games
        ),
        format!(
            "best ({}, {}): fitness {:.2} [{:.2}, {:.2}]; base {:.2}",
            best.label,
            // An averaged contender was never validated; its reselection games score it.
            if best.is_one_generation() {
                "validated"
            } else {
                "scored on the reselection games"
            },
            best.fitness.value,
            best.fitness.ci95[0],
            best.fitness.ci95[1],
            result.baseline.map_or(f64::NAN, |b| b.value)
        ),
    ];
    if let (Some((f, contenders)), Some(r)) = (best.reselected, config.reselect) {
        lines.push(format!(
            "reselected from {contenders} contenders on {} fresh games: fitness {:.2} [{:.2}, {:.2}]",
            r.games, f.value, f.ci95[0], f.ci95[1]
        ));
    }
    if config.final_games > 0 {
        let report = pool.install(|| compare_final(config, folder, &best.weights, &observer))?;
        let p = &report.paired;
        lines.push(format!(
            "final, {} paired games: best mean score {:.0} vs base {:.0}: ratio {:.3}, diff {:.0} [{:.0}, {:.0}], p = {:.2e}, wins/losses/ties {}/{}/{}",
            report.games, report.best.mean_score, report.base.mean_score, p.ratio, p.mean_diff, p.ci95[0], p.ci95[1], p.p_value, p.wins, p.losses, p.ties
        ));
    }
    lines.push(format!(
        "best weights: {}",
        folder.path(files::BEST).display()
    ));
    let text = lines.join("\n") + "\n";
    folder.write_atomic(files::SUMMARY, text.as_bytes())?;
    crate::tune::refresh_plots(folder);
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
