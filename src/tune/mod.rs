//! CMA-ES tuning jobs: configuration, run folders, journal and resume.

pub mod config;
pub mod driver;
pub mod finish;
pub mod folder;
pub mod journal;
pub mod objective;
pub mod observer;

use folder::{files, RunFolder};
use journal::Record;

/// Rewrites `generations.csv` from the journal (the source of truth).
pub fn write_generations_csv(folder: &RunFolder) -> std::io::Result<()> {
    let (records, _) = journal::read(&folder.path(files::JOURNAL))?;
    let mut csv = String::from("generation,evaluations,games,best,median,mean,sigma,val_fitness,val_ci_lo,val_ci_hi,val_mean_score,elapsed_s\n");
    for r in &records {
        if let Record::Generation {
            generation,
            sigma,
            best,
            median,
            mean,
            evaluations,
            games,
            elapsed_s,
        } = r
        {
            let val = records.iter().find_map(|v| match v {
                Record::Validation {
                    generation: g,
                    fitness,
                    fitness_ci95,
                    mean_score,
                    ..
                } if g == generation => Some(format!(
                    "{fitness},{},{},{mean_score}",
                    fitness_ci95[0], fitness_ci95[1]
                )),
                _ => None,
            });
            let val = val.unwrap_or_else(|| ",,,".to_string());
            csv.push_str(&format!("{generation},{evaluations},{games},{best},{median},{mean},{sigma},{val},{elapsed_s:.3}\n"));
        }
    }
    folder.write_atomic(files::GENERATIONS, csv.as_bytes())
}

/// Redraws the run's charts (PNG) into its folder; a failure is reported, not fatal.
pub fn refresh_plots(folder: &RunFolder) {
    if let Err(e) = crate::plot::plot_run(folder.dir(), folder.dir(), crate::plot::Format::Png) {
        eprintln!(
            "warning: could not draw the charts of {}: {e}",
            folder.dir().display()
        );
    }
}
