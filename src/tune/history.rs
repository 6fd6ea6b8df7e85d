//! A run folder's history, read one way for everything that shows a run
//! (`plot`, `report`, the live page): the journal's records by the policy of
//! [`journal::Contents`], and the chart timeline made of them. A folder that
//! kept no journal (runs curated before journals were kept) is read from
//! `generations.csv` instead, which holds the generations and validations
//! but no candidates, reselection or stop record.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::folder::files;
use super::journal::{self, BadLine, Record};
use super::stop::StopReason;

/// A generation's population statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationPoint {
    pub generation: u32,
    pub sigma: f64,
    pub best: f64,
    pub median: f64,
    pub mean: f64,
    /// Candidates evaluated.
    pub evaluations: u32,
    /// Games played in the run so far, validation included.
    pub games: u64,
    /// Wall time of the run at the generation's end (over resumes).
    pub elapsed_s: f64,
}

/// The distribution mean of a generation, evaluated on fresh seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationPoint {
    pub generation: u32,
    /// The normalized coordinates of the mean, in the config's parameter
    /// order (empty where the folder does not record them).
    pub x: Vec<f64>,
    pub fitness: f64,
    pub ci95: [f64; 2],
}

/// The run generation by generation (a later record of the same generation,
/// as after a resume, replaces an earlier one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// The base player's fitness.
    pub baseline: Option<f64>,
    pub generations: Vec<GenerationPoint>,
    pub validations: Vec<ValidationPoint>,
}

/// How a run ended, from its journal's stop record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ending {
    pub reason: StopReason,
    pub generations: u32,
    pub games: u64,
    pub base_fitness: f64,
}

impl Ending {
    /// "wall-time budget spent after 39 generations, 167600 games".
    pub fn describe(&self) -> String {
        format!(
            "{} after {} generations, {} games",
            self.reason.describe(),
            self.generations,
            self.games
        )
    }
}

/// Which file a history was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Journal,
    /// No journal: `generations.csv` (generations and validations only).
    GenerationsCsv,
}

/// Everything a run folder says about its course.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub source: Source,
    /// The journal's records (none from `generations.csv`).
    pub records: Vec<Record>,
    pub timeline: Timeline,
    /// The line number of a torn last journal line, left out.
    pub torn: Option<usize>,
    /// Journal lines that are not records, left out.
    pub bad: Vec<BadLine>,
}

/// A folder whose history cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error(
        "{0}: not a run folder (it has neither {journal} nor {csv})",
        journal = files::JOURNAL,
        csv = files::GENERATIONS
    )]
    NotARun(PathBuf),
    #[error("{path}: cannot be read")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Parse {
        path: PathBuf,
        line: u64,
        message: String,
    },
}

impl History {
    /// Reads the history of the run folder `dir`: its journal, else its
    /// `generations.csv`.
    pub fn read(dir: &Path) -> Result<History, HistoryError> {
        let journal_path = dir.join(files::JOURNAL);
        if journal_path.is_file() {
            let contents = journal::read(&journal_path).map_err(|source| HistoryError::Read {
                path: journal_path,
                source,
            })?;
            return Ok(History::of_journal(contents));
        }
        let csv_path = dir.join(files::GENERATIONS);
        if csv_path.is_file() {
            let text = std::fs::read_to_string(&csv_path).map_err(|source| HistoryError::Read {
                path: csv_path.clone(),
                source,
            })?;
            let timeline =
                timeline_from_csv(&text).map_err(|(line, message)| HistoryError::Parse {
                    path: csv_path,
                    line,
                    message,
                })?;
            return Ok(History {
                source: Source::GenerationsCsv,
                records: Vec::new(),
                timeline,
                torn: None,
                bad: Vec::new(),
            });
        }
        Err(HistoryError::NotARun(dir.to_path_buf()))
    }

    /// The history held by journal contents.
    pub fn of_journal(contents: journal::Contents) -> History {
        History {
            source: Source::Journal,
            timeline: timeline_from_records(&contents.records),
            records: contents.records,
            torn: contents.torn,
            bad: contents.bad,
        }
    }

    /// What this history leaves out by design, in words naming the files:
    /// a torn last journal line, and everything a folder without a journal
    /// lacks. (Bad lines are the readers' own business: some refuse them.)
    pub fn left_out(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.torn.is_some() {
            notes.push(format!(
                "the last line of {} is cut short (a write in progress, or a crash): it was left out",
                files::JOURNAL
            ));
        }
        if self.source == Source::GenerationsCsv {
            notes.push(format!(
                "{} is missing: the generations come from {} (no parameter trajectories, base level, reselection or stop record)",
                files::JOURNAL,
                files::GENERATIONS
            ));
        }
        notes
    }

    /// How the run ended, if its journal says so.
    pub fn ending(&self) -> Option<Ending> {
        match journal::stop_record(&self.records)? {
            &Record::Stop {
                reason,
                generations,
                games,
                base_fitness,
            } => Some(Ending {
                reason,
                generations,
                games,
                base_fitness,
            }),
            _ => None,
        }
    }
}

/// The timeline of journal records, in journal order.
pub fn timeline_from_records<'a>(records: impl IntoIterator<Item = &'a Record>) -> Timeline {
    let mut baseline = None;
    let mut generations = BTreeMap::new();
    let mut validations = BTreeMap::new();
    for record in records {
        match record {
            Record::Baseline { fitness, .. } => baseline = Some(*fitness),
            Record::Stop { base_fitness, .. } => baseline = baseline.or(Some(*base_fitness)),
            Record::Validation { generation, scored } => {
                validations.insert(
                    *generation,
                    ValidationPoint {
                        generation: *generation,
                        x: scored.x.clone(),
                        fitness: scored.fitness,
                        ci95: scored.fitness_ci95,
                    },
                );
            }
            &Record::Generation {
                generation,
                sigma,
                best,
                median,
                mean,
                evaluations,
                games,
                elapsed_s,
            } => {
                let point = GenerationPoint {
                    generation,
                    sigma,
                    best,
                    median,
                    mean,
                    evaluations,
                    games,
                    elapsed_s,
                };
                generations.insert(generation, point);
            }
            _ => {}
        }
    }
    Timeline {
        baseline,
        generations: generations.into_values().collect(),
        validations: validations.into_values().collect(),
    }
}

/// The generations (and validations, where recorded) of `generations.csv`,
/// its columns found by name. An error gives the line and what is wrong.
pub fn timeline_from_csv(text: &str) -> Result<Timeline, (u64, String)> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| (1, e.to_string()))?.clone();
    if header.is_empty() || header.iter().all(str::is_empty) {
        return Err((1, "no header: an empty file".to_string()));
    }
    let column = |name: &str| header.iter().position(|c| c == name);
    let required = [
        "generation",
        "evaluations",
        "games",
        "best",
        "median",
        "mean",
        "sigma",
        "elapsed_s",
    ];
    let mut columns = [0; 8];
    for (slot, name) in columns.iter_mut().zip(required) {
        *slot = column(name).ok_or((1, format!("no `{name}` column in the header")))?;
    }
    let validation = match (
        column("val_fitness"),
        column("val_ci_lo"),
        column("val_ci_hi"),
    ) {
        (Some(f), Some(lo), Some(hi)) => Some([f, lo, hi]),
        _ => None,
    };
    let mut timeline = Timeline::default();
    for row in reader.records() {
        let row = row.map_err(|e| (e.position().map_or(0, |p| p.line()), e.to_string()))?;
        let line = row.position().map_or(0, |p| p.line());
        let number = |i: usize| -> Result<f64, (u64, String)> {
            let cell = row.get(i).unwrap_or("");
            cell.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or((line, format!("`{}` is not a number: {cell:?}", &header[i])))
        };
        let count = |i: usize, max: f64| -> Result<f64, (u64, String)> {
            let v = number(i)?;
            if v < 0.0 || v > max || v.fract() != 0.0 {
                return Err((line, format!("`{}` is not a count: {v}", &header[i])));
            }
            Ok(v)
        };
        let [g, evaluations, games, best, median, mean, sigma, elapsed_s] = columns;
        let generation = count(g, f64::from(u32::MAX))? as u32;
        timeline.generations.push(GenerationPoint {
            generation,
            evaluations: count(evaluations, f64::from(u32::MAX))? as u32,
            games: count(games, 2f64.powi(53))? as u64,
            best: number(best)?,
            median: number(median)?,
            mean: number(mean)?,
            sigma: number(sigma)?,
            elapsed_s: number(elapsed_s)?,
        });
        // A generation without validation leaves its cells empty.
        if let Some([f, lo, hi]) = validation {
            if row.get(f).is_some_and(|c| !c.is_empty()) {
                timeline.validations.push(ValidationPoint {
                    generation,
                    x: Vec::new(),
                    fitness: number(f)?,
                    ci95: [number(lo)?, number(hi)?],
                });
            }
        }
    }
    Ok(timeline)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "generation,evaluations,games,best,median,mean,sigma,val_fitness,val_ci_lo,val_ci_hi,elapsed_s\n\
        0,9,4800,45292.09,39858.5,29475.7,0.46,46544.7,44900.3,48189.0,2.630\n\
        1,9,9000,48036.72,40789.5,36775.5,0.44,,,,5.864\n";

    #[test]
    fn generations_csv_reads_by_column_name() {
        let t = timeline_from_csv(CSV).unwrap();
        assert_eq!(t.baseline, None);
        assert_eq!(t.generations.len(), 2);
        assert_eq!(t.generations[1].games, 9000);
        assert_eq!(t.generations[1].elapsed_s, 5.864);
        assert_eq!(t.validations.len(), 1);
        assert_eq!(t.validations[0].ci95, [44900.3, 48189.0]);
    }

    #[test]
    fn generations_csv_errors_name_the_line() {
        let missing = CSV.replace("sigma,", "s,");
        assert_eq!(
            timeline_from_csv(&missing).unwrap_err(),
            (1, "no `sigma` column in the header".to_string())
        );
        let bad = CSV.replace("9000", "90x0");
        assert_eq!(
            timeline_from_csv(&bad).unwrap_err(),
            (3, "`games` is not a number: \"90x0\"".to_string())
        );
        let short = CSV.replace(",5.864", "");
        assert_eq!(timeline_from_csv(&short).unwrap_err().0, 3);
        assert_eq!(timeline_from_csv("").unwrap_err().0, 1);
        let fraction = CSV.replace("4800", "4800.5");
        assert_eq!(
            timeline_from_csv(&fraction).unwrap_err(),
            (2, "`games` is not a count: 4800.5".to_string())
        );
    }

    #[test]
    fn a_resumed_generation_replaces_the_earlier_record() {
        let generation = |g: u32, best: f64| Record::Generation {
            generation: g,
            sigma: 0.5,
            best,
            median: 0.0,
            mean: 0.0,
            evaluations: 4,
            games: 10,
            elapsed_s: 1.0,
        };
        let records = [generation(0, 1.0), generation(1, 2.0), generation(1, 3.0)];
        let t = timeline_from_records(&records);
        assert_eq!(t.generations.len(), 2);
        assert_eq!(t.generations[1].best, 3.0);
    }
}
