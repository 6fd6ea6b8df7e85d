//! A run folder read into what its report shows. Every piece is optional: a
//! missing, torn or malformed file becomes a [`Note`] that says so, never an
//! error, so a report can be made of any folder at any moment of its run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::heuristic::{Weights, PARAM_NAMES};
use crate::player::values::ParamValues;
use crate::plot::data::{
    folder_name, FinalReport, GenerationPoint, RunData, RunMeta, Timeline, ValidationPoint,
};
use crate::tune::config::{self, TuneConfig};
use crate::tune::folder::files;
use crate::tune::history::{History, HistoryError};
use crate::tune::journal::{Record, Scored};
use crate::tune::stop::StopReason;

/// Bad journal lines named one by one before the rest are only counted.
const BAD_LINES_NAMED: usize = 3;

/// Where a run stands, as far as its report can tell.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// The tuner is running and rewrites the page (live pages only).
    Running,
    /// The generations stopped for this reason; the final comparison is
    /// being played (live pages only).
    Finishing(String),
    /// The run ended: why and after how much (the journal's stop record).
    Finished(String),
    /// Stopped by Ctrl-C after a whole generation; `resume` continues it.
    Interrupted,
    /// Not ended, and the folder has no lock file to tell more (written
    /// by a version before locks).
    Unfinished,
    /// Not ended, and another process holds the folder's lock: the run is
    /// going on.
    Busy,
    /// Not ended, and nobody holds the folder's lock: the process that
    /// wrote it is gone (killed or crashed) without a word.
    Gone,
}

impl Status {
    /// Whether a page in this state should reload itself.
    pub fn is_live(&self) -> bool {
        matches!(self, Status::Running | Status::Finishing(_))
    }
}

/// Something the report lacks, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A piece that a young or unfinished run does not have yet.
    Pending(String),
    /// A file that is there but unreadable or malformed.
    Problem(String),
}

/// One contender of the final choice, scored on the reselection games.
#[derive(Clone, Debug, PartialEq)]
pub struct ContenderRow {
    pub label: String,
    pub fitness: f64,
    pub ci95: [f64; 2],
    pub games: u32,
}

/// Where `best.ron` comes from: the validated mean or contender it equals.
#[derive(Clone, Debug, PartialEq)]
pub struct BestOrigin {
    /// "generation 12", or a reselection contender's label.
    pub label: String,
    pub fitness: f64,
    pub ci95: [f64; 2],
    pub games: u32,
}

/// A generation's validated mean as a ratio to the base weights' fitness.
#[derive(Clone, Debug, PartialEq)]
pub struct RatioPoint {
    pub generation: u32,
    pub elapsed_s: f64,
    pub games: u64,
    pub ratio: f64,
}

/// A player's parameters by name, in the order a report lists them.
pub type Values = Vec<(String, f64)>;

impl RunReport {
    /// The value of parameter `name` in `values`.
    pub fn value(values: &Values, name: &str) -> Option<f64> {
        values.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }
}

/// Everything a report shows about one run folder.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub dir: PathBuf,
    pub status: Status,
    pub meta: Option<RunMeta>,
    /// `config.ron` as written, and parsed when it parses.
    pub config_text: Option<String>,
    pub config: Option<TuneConfig>,
    /// Name, parameter names, journal series and final comparison.
    pub data: RunData,
    pub contenders: Vec<ContenderRow>,
    pub restarts: u32,
    /// The base and best players' parameters by name: the built-in
    /// player's weights (and tuned settings), an external player's values.
    pub base: Option<Values>,
    pub best: Option<Values>,
    pub best_origin: Option<BestOrigin>,
    pub notes: Vec<Note>,
}

/// A file of the folder as text; `None` (with a note) when it is absent or
/// unreadable. `absent` says what its absence means.
fn read_piece(dir: &Path, file: &str, absent: Note, notes: &mut Vec<Note>) -> Option<String> {
    match std::fs::read_to_string(dir.join(file)) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            notes.push(absent);
            None
        }
        Err(e) => {
            notes.push(Note::Problem(format!("{file} cannot be read: {e}")));
            None
        }
    }
}

/// An error with its causes, joined by ": ".
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

impl RunReport {
    /// Reads a run folder, noting whatever is missing or broken. The status
    /// comes from the journal's stop record and the folder's lock; a live
    /// observer overrides it.
    pub fn load(dir: &Path) -> RunReport {
        let mut notes = Vec::new();
        let meta = read_meta(dir, &mut notes);
        let (config_text, config) = read_config(dir, &mut notes);
        let history = read_history(dir, &mut notes);
        let status = read_status(dir, history.as_ref());
        let final_report = read_final(dir, &status, config.as_ref(), &mut notes);
        let (base, best) = read_players(dir, config.as_ref(), &mut notes);
        let (records, timeline) =
            history.map_or_else(Default::default, |h| (h.records, h.timeline));
        let data = RunData {
            name: meta
                .as_ref()
                .and_then(|m| m.name.clone())
                .unwrap_or_else(|| folder_name(dir)),
            params: param_names(meta.as_ref(), config.as_ref()),
            timeline,
            final_report,
        };
        if data.timeline.generations.is_empty() && data.timeline.baseline.is_some() {
            notes.push(Note::Pending("no generation has finished yet".to_string()));
        }
        RunReport {
            dir: dir.to_path_buf(),
            status,
            meta,
            config_text,
            config,
            contenders: contenders(&records),
            restarts: restarts(&records),
            best_origin: best.as_ref().and_then(|b| best_origin(&records, b)),
            data,
            base,
            best,
            notes,
        }
    }

    /// The run's name (`meta.json`'s, else the folder's).
    pub fn name(&self) -> &str {
        &self.data.name
    }

    /// The last finished generation.
    pub fn last_generation(&self) -> Option<&GenerationPoint> {
        self.data.timeline.generations.last()
    }

    /// The validated means as ratios to the base weights' fitness.
    pub fn ratios(&self) -> Vec<RatioPoint> {
        ratio_points(&self.data.timeline)
    }
}

/// `config.ron`'s text, and the config when it loads.
fn read_config(dir: &Path, notes: &mut Vec<Note>) -> (Option<String>, Option<TuneConfig>) {
    let absent = Note::Problem(format!(
        "{} is missing: the run's settings are unknown",
        files::CONFIG
    ));
    let Some(text) = read_piece(dir, files::CONFIG, absent, notes) else {
        return (None, None);
    };
    let config = config::parse_recorded(&text, &dir.join(files::CONFIG))
        .map_err(|e| {
            notes.push(Note::Problem(format!(
                "the config does not load: {}",
                chain(&e)
            )))
        })
        .ok();
    (Some(text), config)
}

/// The folder's history (see [`History`]), with a note for whatever it
/// leaves out; `None`, with a note, when there is none to read.
fn read_history(dir: &Path, notes: &mut Vec<Note>) -> Option<History> {
    match History::read(dir) {
        Ok(history) => {
            if !history.bad.is_empty() {
                let bad: Vec<String> = history.bad.iter().map(ToString::to_string).collect();
                let mut named = bad[..bad.len().min(BAD_LINES_NAMED)].join("; ");
                if bad.len() > BAD_LINES_NAMED {
                    named.push_str(&format!("; and {} more", bad.len() - BAD_LINES_NAMED));
                }
                notes.push(Note::Problem(format!(
                    "{} has {} lines that are not journal records (left out): {named}",
                    files::JOURNAL,
                    bad.len()
                )));
            }
            notes.extend(history.left_out().into_iter().map(Note::Problem));
            Some(history)
        }
        Err(HistoryError::NotARun(_)) => {
            notes.push(Note::Pending(format!(
                "no {} yet: no game has finished (or this is not a run folder)",
                files::JOURNAL
            )));
            None
        }
        Err(e) => {
            notes.push(Note::Problem(chain(&e)));
            None
        }
    }
}

fn read_meta(dir: &Path, notes: &mut Vec<Note>) -> Option<RunMeta> {
    let text = read_piece(
        dir,
        files::META,
        Note::Problem(format!(
            "{} is missing: the run's name, version and start time are unknown",
            files::META
        )),
        notes,
    )?;
    serde_json::from_str(&text)
        .map_err(|e| {
            notes.push(Note::Problem(format!(
                "{} does not parse: {e}",
                files::META
            )))
        })
        .ok()
}

/// The run's status: from the journal's stop record when the run ended,
/// else from the folder's lock. A run that ended before stop records were
/// written (its folder has `final.json` but no stop record) is finished for
/// a reason its files do not record.
fn read_status(dir: &Path, history: Option<&History>) -> Status {
    let held = crate::lock::FolderLock::is_held(dir);
    match history.and_then(History::ending) {
        // A resume that has not finished a generation yet holds the lock.
        Some(ending) if ending.reason == StopReason::Interrupted => {
            if held == Some(true) {
                Status::Busy
            } else {
                Status::Interrupted
            }
        }
        // Ended, though its writer may still hold the lock while it closes.
        Some(ending) => Status::Finished(ending.describe()),
        None if dir.join(files::FINAL).exists() => Status::Finished(
            "for a reason this folder does not record (it predates the journal's stop record)"
                .to_string(),
        ),
        None => match held {
            Some(true) => Status::Busy,
            Some(false) => Status::Gone,
            None => Status::Unfinished,
        },
    }
}

fn read_final(
    dir: &Path,
    status: &Status,
    config: Option<&TuneConfig>,
    notes: &mut Vec<Note>,
) -> Option<FinalReport> {
    let absent = if config.is_some_and(|c| c.final_games == 0) {
        Note::Pending("no final comparison: the config sets final_games to 0".to_string())
    } else if matches!(status, Status::Finished(_)) {
        Note::Problem(format!(
            "{} is missing although the run has finished",
            files::FINAL
        ))
    } else {
        Note::Pending(format!(
            "no {} yet: the final comparison of best against base is played after the last generation",
            files::FINAL
        ))
    };
    let text = read_piece(dir, files::FINAL, absent, notes)?;
    serde_json::from_str(&text)
        .map_err(|e| {
            notes.push(Note::Problem(format!(
                "{} does not parse: {e}",
                files::FINAL
            )))
        })
        .ok()
}

/// The base and best players' values: the built-in player's from `base.ron`
/// and `best.ron`, with its tuned settings (the config's `init` for the
/// base, `best-params.json` for the best); an external player's from the
/// config's `init` and `best-params.json`.
fn read_players(
    dir: &Path,
    config: Option<&TuneConfig>,
    notes: &mut Vec<Note>,
) -> (Option<Values>, Option<Values>) {
    let external = config.is_some_and(|c| c.base_weights_path.is_none());
    let tuned: Values = config.map_or_else(Vec::new, |c| {
        c.params.iter().map(|p| (p.name.clone(), p.init)).collect()
    });
    let best_values = match std::fs::read_to_string(dir.join(files::BEST_PARAMS)) {
        Ok(text) => serde_json::from_str::<ParamValues>(&text)
            .map_err(|e| {
                notes.push(Note::Problem(format!(
                    "{} cannot be read: {e}",
                    files::BEST_PARAMS
                )))
            })
            .ok(),
        Err(_) => None,
    };
    if external {
        let best = best_values.map(|v| v.params.into_iter().collect());
        if best.is_none() && !dir.join(files::BEST_PARAMS).exists() {
            notes.push(Note::Pending(format!(
                "no {} yet: it is written when a generation's validated mean sets a new best",
                files::BEST_PARAMS
            )));
        }
        return (Some(tuned), best);
    }
    let with = |weights: Weights, extra: &Values| -> Values {
        let mut values: Values = PARAM_NAMES
            .iter()
            .map(|&n| (n.to_string(), weights.get(n).expect("a listed name")))
            .collect();
        for (name, v) in extra {
            if !PARAM_NAMES.contains(&name.as_str()) {
                values.push((name.clone(), *v));
            }
        }
        values
    };
    let base = read_weights(dir, files::BASE, "the base weights are unknown", notes)
        .map(|w| with(w, &tuned));
    let settings: Values = best_values.map_or_else(Vec::new, |v| v.params.into_iter().collect());
    let best = read_weights(
        dir,
        files::BEST,
        "it is written when a generation's validated mean sets a new best",
        notes,
    )
    .map(|w| with(w, &settings));
    (base, best)
}

fn read_weights(dir: &Path, file: &str, absent: &str, notes: &mut Vec<Note>) -> Option<Weights> {
    let text = read_piece(
        dir,
        file,
        Note::Pending(format!("no {file} yet: {absent}")),
        notes,
    )?;
    Weights::from_ron(&text, file)
        .map_err(|e| notes.push(Note::Problem(chain(&e))))
        .ok()
}

/// Tuned parameter names: from `meta.json`, else from the config.
fn param_names(meta: Option<&RunMeta>, config: Option<&TuneConfig>) -> Vec<String> {
    match (meta, config) {
        (Some(m), _) if !m.params.is_empty() => m.params.clone(),
        (_, Some(c)) => c.params.iter().map(|p| p.name.to_string()).collect(),
        _ => Vec::new(),
    }
}

fn contenders(records: &[Record]) -> Vec<ContenderRow> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Reselect { label, scored, .. } => Some(ContenderRow {
                label: label.clone(),
                fitness: scored.fitness,
                ci95: scored.fitness_ci95,
                games: scored.games,
            }),
            _ => None,
        })
        .collect()
}

fn restarts(records: &[Record]) -> u32 {
    records
        .iter()
        .filter(|r| matches!(r, Record::Restart { .. }))
        .count() as u32
}

/// Whether every tuned value of `scored` is the value `weights` has.
fn same_point(scored: &Scored, values: &Values) -> bool {
    !scored.params.is_empty()
        && scored
            .params
            .iter()
            .all(|(name, &v)| RunReport::value(values, name) == Some(v))
}

/// The latest validated mean (or, after reselection, the contender) whose
/// values `best` has: where the best weights come from.
pub fn best_origin(records: &[Record], best: &Values) -> Option<BestOrigin> {
    let origin = |label: String, s: &Scored| BestOrigin {
        label,
        fitness: s.fitness,
        ci95: s.fitness_ci95,
        games: s.games,
    };
    let validated = records.iter().rev().find_map(|r| match r {
        Record::Validation { generation, scored } if same_point(scored, best) => {
            Some(origin(format!("generation {generation}"), scored))
        }
        _ => None,
    });
    validated.or_else(|| {
        records.iter().rev().find_map(|r| match r {
            Record::Reselect { label, scored, .. } if same_point(scored, best) => {
                Some(origin(label.clone(), scored))
            }
            _ => None,
        })
    })
}

/// Each generation's row with its validation, if any.
pub fn generation_rows(timeline: &Timeline) -> Vec<(&GenerationPoint, Option<&ValidationPoint>)> {
    let validations: BTreeMap<u32, &ValidationPoint> = timeline
        .validations
        .iter()
        .map(|v| (v.generation, v))
        .collect();
    timeline
        .generations
        .iter()
        .map(|g| (g, validations.get(&g.generation).copied()))
        .collect()
}

/// Validated means over wall time and games, as ratios to the baseline;
/// empty without a positive baseline.
pub fn ratio_points(timeline: &Timeline) -> Vec<RatioPoint> {
    let Some(base) = timeline.baseline.filter(|b| *b > 0.0) else {
        return Vec::new();
    };
    generation_rows(timeline)
        .into_iter()
        .filter_map(|(g, v)| {
            v.map(|v| RatioPoint {
                generation: g.generation,
                elapsed_s: g.elapsed_s,
                games: g.games,
                ratio: v.fitness / base,
            })
        })
        .collect()
}
