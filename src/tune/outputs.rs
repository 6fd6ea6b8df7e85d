//! The observers that own a run folder's files: the journal, `best.ron`,
//! `generations.csv`, and at the end `final.json` and `summary.txt`. Each names its file in its errors.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::config::TuneConfig;
use super::end::End;
use super::folder::{files, RunFolder};
use super::journal::{self, Record};
use super::observer::{Observer, ObserverError};
use super::state::{GenerationRow, RunResult, RunState};
use super::stop::StopReason;
use crate::player::values::ParamValues;
use crate::player::Player;
use crate::search::SETTING_NAMES;

/// A write to a run-folder file failed.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {action} failed")]
pub struct OutputError {
    pub file: String,
    pub action: &'static str,
    #[source]
    pub source: std::io::Error,
}

fn failed<'a>(
    file: &'a str,
    action: &'static str,
) -> impl FnOnce(std::io::Error) -> ObserverError + 'a {
    move |source| {
        Box::new(OutputError {
            file: file.to_string(),
            action,
            source,
        })
    }
}

/// The test hook of [`JournalFile`]: with `TUNE2048_TEST_PAUSE_AFTER_RECORD=K`
/// in its environment, a tuner stops for good right after appending (and
/// syncing) its K-th journal record of this process, so that a test can kill
/// it at a known point. Read once when the journal opens; unset, it costs a
/// comparison per record.
pub const PAUSE_AFTER_RECORD: &str = "TUNE2048_TEST_PAUSE_AFTER_RECORD";

/// Appends every new record to the journal; syncs it at each generation's
/// end, after the final choice's records, and at the end of the run.
pub struct JournalFile {
    name: String,
    writer: Mutex<journal::Writer>,
    /// Records appended by this process.
    appended: AtomicU64,
    /// [`PAUSE_AFTER_RECORD`], if set.
    pause_after: Option<u64>,
}

impl JournalFile {
    /// The journal of `folder`, cut back to its `valid_len` bytes.
    pub fn open(folder: &RunFolder, valid_len: u64) -> std::io::Result<JournalFile> {
        let path = folder.path(files::JOURNAL);
        Ok(JournalFile::new(
            path.display().to_string(),
            journal::Writer::open(&path, valid_len)?,
        ))
    }

    /// A journal writing into `writer`; `name` names it in errors.
    pub fn new(name: String, writer: journal::Writer) -> JournalFile {
        JournalFile {
            name,
            writer: Mutex::new(writer),
            appended: AtomicU64::new(0),
            pause_after: std::env::var(PAUSE_AFTER_RECORD)
                .ok()
                .and_then(|k| k.trim().parse().ok()),
        }
    }

    /// The test hook [`PAUSE_AFTER_RECORD`]: never returns, with the journal
    /// lock held, so nothing more is recorded.
    fn pause(&self, writer: &mut journal::Writer, k: u64) -> ! {
        let _ = writer.sync();
        eprintln!("{PAUSE_AFTER_RECORD}: paused after journal record {k}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }

    fn sync(&self) -> Result<(), ObserverError> {
        let mut w = self.writer.lock().expect("journal lock");
        w.sync().map_err(failed(&self.name, "syncing the journal"))
    }
}

impl Observer for JournalFile {
    fn on_record(&self, record: &Record) -> Result<(), ObserverError> {
        let mut w = self.writer.lock().expect("journal lock");
        w.append(record)
            .map_err(failed(&self.name, "appending to the journal"))?;
        if let Some(k) = self.pause_after {
            if self.appended.fetch_add(1, Ordering::Relaxed) + 1 == k {
                self.pause(&mut w, k);
            }
        }
        Ok(())
    }

    fn on_generation(&self, _state: &RunState) -> Result<(), ObserverError> {
        self.sync()
    }

    fn on_finish(&self, _result: &RunResult) -> Result<(), ObserverError> {
        self.sync()
    }

    fn on_end(&self, _end: &End) -> Result<(), ObserverError> {
        self.sync()
    }
}

/// Rewrites the best player's files whenever the best changes: its tuned
/// values by name (`best-params.json`), and what the player reads: the
/// built-in player's `best.ron` (and `best-settings.ron` when a setting is
/// tuned), an external player's `best.set`.
pub struct BestFile {
    folder: RunFolder,
    /// The tuned parameters' names, in config order.
    names: Vec<String>,
    /// The run tunes a search setting of the built-in player.
    settings_tuned: bool,
}

impl BestFile {
    pub fn new(folder: RunFolder, config: &TuneConfig) -> BestFile {
        BestFile {
            folder,
            names: config.params.iter().map(|p| p.name.clone()).collect(),
            settings_tuned: config
                .params
                .iter()
                .any(|p| SETTING_NAMES.contains(&p.name.as_str())),
        }
    }

    fn write(&self, state: &RunState) -> Result<(), ObserverError> {
        let Some(best) = &state.best else {
            return Ok(());
        };
        let values = ParamValues {
            player: best.player.describe(),
            params: self
                .names
                .iter()
                .map(|n| (n.clone(), best.player.get(n).expect("a tuned name")))
                .collect(),
        };
        let mut files: Vec<(&str, String)> = vec![(files::BEST_PARAMS, values.to_json())];
        match &best.player {
            Player::Builtin { weights, settings } => {
                files.push((files::BEST, weights.to_ron()));
                if self.settings_tuned {
                    files.push((files::BEST_SETTINGS, settings.to_ron()));
                }
            }
            Player::Network { settings, .. } => {
                files.push((files::BEST_SETTINGS, settings.to_ron()));
            }
            Player::External { .. } => files.push((files::BEST_SET, values.to_set_lines())),
        }
        for (name, text) in files {
            self.folder
                .write_atomic(name, text.as_bytes())
                .map_err(failed(name, "writing"))?;
        }
        Ok(())
    }
}

impl Observer for BestFile {
    fn on_generation(&self, state: &RunState) -> Result<(), ObserverError> {
        if state.last().is_some_and(|r| r.new_best) {
            self.write(state)?;
        }
        Ok(())
    }

    fn on_finish(&self, result: &RunResult) -> Result<(), ObserverError> {
        self.write(&result.state)
    }
}

/// Rewrites `generations.csv` from the run's rows after every generation.
pub struct GenerationsCsv {
    folder: RunFolder,
    /// The tuned parameters' names, in config order.
    names: Vec<String>,
}

/// The first columns of `generations.csv`; a `mean:NAME` column per tuned
/// parameter follows them (its value at the distribution mean).
pub const CSV_HEADER: &str = "generation,evaluations,games,best,median,mean,sigma,val_fitness,val_ci_lo,val_ci_hi,val_mean_score,elapsed_s";

impl GenerationsCsv {
    pub fn new(folder: RunFolder, config: &TuneConfig) -> GenerationsCsv {
        GenerationsCsv {
            folder,
            names: config.params.iter().map(|p| p.name.clone()).collect(),
        }
    }
}

/// The table's text: a header and one line per row, with the tuned
/// parameters (`names`) at the distribution mean.
pub fn generations_csv(rows: &[GenerationRow], names: &[String]) -> String {
    let mut csv = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let means = names.iter().map(|name| format!("mean:{name}"));
    let header: Vec<String> = CSV_HEADER
        .split(',')
        .map(str::to_string)
        .chain(means)
        .collect();
    csv.write_record(&header).expect("writing to memory");
    for r in rows {
        let val = match r.validation {
            Some(v) => [v.value, v.ci95[0], v.ci95[1], v.mean_score].map(|x| x.to_string()),
            None => Default::default(),
        };
        let mut record = vec![
            r.generation.to_string(),
            r.evaluations.to_string(),
            r.games.to_string(),
            r.best.to_string(),
            r.median.to_string(),
            r.mean.to_string(),
            r.sigma.to_string(),
        ];
        record.extend(val);
        record.push(format!("{:.3}", r.elapsed_s));
        record.extend(r.mean_values.iter().map(f64::to_string));
        csv.write_record(&record).expect("writing to memory");
    }
    let bytes = csv.into_inner().expect("writing to memory");
    String::from_utf8(bytes).expect("the fields are text")
}

impl Observer for GenerationsCsv {
    fn on_generation(&self, state: &RunState) -> Result<(), ObserverError> {
        self.folder
            .write_atomic(
                files::GENERATIONS,
                generations_csv(&state.rows, &self.names).as_bytes(),
            )
            .map_err(failed(files::GENERATIONS, "writing"))
    }
}

/// Writes `final.json`, the final comparison, at a run's end. An
/// interrupted run writes none: it is not over. `summary.txt` is written
/// by the command after every other file of the end (the charts and the
/// page too), so that it marks a run whose end is whole.
pub struct FinalFile {
    folder: RunFolder,
}

impl FinalFile {
    pub fn new(folder: RunFolder) -> FinalFile {
        FinalFile { folder }
    }
}

impl Observer for FinalFile {
    fn on_end(&self, end: &End) -> Result<(), ObserverError> {
        let Some(report) = end.report else {
            return Ok(());
        };
        if end.result.stop == StopReason::Interrupted {
            return Ok(());
        }
        let json =
            serde_json::to_string_pretty(report).map_err(|e| Box::new(e) as ObserverError)?;
        self.folder
            .write_atomic(files::FINAL, json.as_bytes())
            .map_err(failed(files::FINAL, "writing"))
    }
}

/// `summary.txt`: the result in words (for people; programs read the
/// journal and `final.json`).
pub fn summary(folder: &RunFolder, end: &End) -> String {
    let (config, result) = (end.config, end.result);
    let mut lines = vec![
        format!("run: {}", folder.dir().display()),
        format!(
            "stopped: {} after {} generations, {} games",
            result.stop.describe(),
            result.state.generations(),
            result.state.games
        ),
    ];
    let Some(best) = result.best() else {
        lines.push("no generation finished: there is no best player".to_string());
        return lines.join("\n") + "\n";
    };
    lines.push(format!(
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
    ));
    if let (Some((f, contenders)), Some(r)) = (best.reselected, config.reselect) {
        lines.push(format!(
            "reselected from {contenders} contenders on {} fresh games: fitness {:.2} [{:.2}, {:.2}]",
            r.games, f.value, f.ci95[0], f.ci95[1]
        ));
    }
    if let Some(report) = end.report {
        let p = &report.paired;
        lines.push(format!(
            "final, {} paired games: best mean score {:.0} vs base {:.0}: ratio {:.3}, diff {:.0} [{:.0}, {:.0}], p = {:.2e}, wins/losses/ties {}/{}/{}",
            report.games, report.best.mean_score, report.base.mean_score, p.ratio, p.mean_diff, p.ci95[0], p.ci95[1], p.p_value, p.wins, p.losses, p.ties
        ));
    }
    lines.push(match best.player {
        Player::Builtin { .. } => format!("best weights: {}", folder.path(files::BEST).display()),
        Player::Network { .. } => format!(
            "best settings: {}",
            folder.path(files::BEST_SETTINGS).display()
        ),
        Player::External { .. } => {
            format!("best values: {}", folder.path(files::BEST_SET).display())
        }
    });
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::objective::Fitness;

    #[test]
    fn generations_csv_is_the_header_and_a_line_per_row() {
        let row = |generation, validation| GenerationRow {
            generation,
            restart: 0,
            evaluations: 8,
            games: 64,
            best: 1500.5,
            median: 1200.0,
            mean: 1e-7,
            sigma: 0.25,
            validation,
            elapsed_s: 2.0 / 3.0,
            new_best: false,
            mean_values: vec![270.5, -3.0],
        };
        let fitness = Fitness {
            value: 1400.0,
            ci95: [1300.25, 1500.75],
            mean_score: 1400.0,
        };
        let rows = [row(0, None), row(1, Some(fitness))];
        let names = ["empty".to_string(), "snake[3]".to_string()];
        let expected = format!(
            "{CSV_HEADER},mean:empty,mean:snake[3]\n\
             0,8,64,1500.5,1200,0.0000001,0.25,,,,,0.667,270.5,-3\n\
             1,8,64,1500.5,1200,0.0000001,0.25,1400,1300.25,1500.75,1400,0.667,270.5,-3\n"
        );
        assert_eq!(generations_csv(&rows, &names), expected);
        assert_eq!(generations_csv(&[], &[]), format!("{CSV_HEADER}\n"));
    }
}
