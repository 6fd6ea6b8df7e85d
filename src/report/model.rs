//! A run folder read into what its report shows. Every piece is optional: a
//! missing, torn or malformed file becomes a [`Note`] that says so, never an
//! error, so a report can be made of any folder at any moment of its run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::heuristic::{Weights, PARAM_NAMES};
use crate::player::values::ParamValues;
use crate::plot::data::{
    folder_name, journal_from_records, FinalReport, GenerationPoint, Journal, RunData, RunMeta,
    ValidationPoint,
};
use crate::tune::config::{self, TuneConfig};
use crate::tune::folder::files;
use crate::tune::journal::{Record, Scored};

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
    /// The run ended: why and after how much (`summary.txt`'s stop line).
    Finished(String),
    /// Stopped by Ctrl-C after a whole generation; `resume` continues it.
    Interrupted,
    /// No `summary.txt`: still running elsewhere, or stopped before its end.
    Unfinished,
    /// No `summary.txt`, and another process holds the folder's lock: the
    /// run is going on.
    Busy,
    /// No `summary.txt`, and nobody holds the folder's lock: the process
    /// that wrote it is gone (killed or crashed) without a word.
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

/// The records of journal text. Bad lines are skipped with a note; a torn
/// last line (no newline yet) is a write in progress or a crash.
pub fn read_journal(text: &str, notes: &mut Vec<Note>) -> Vec<Record> {
    let lines = crate::tune::journal::numbered_lines(text);
    let mut records = Vec::with_capacity(lines.len());
    let mut bad = Vec::new();
    for (k, &(number, line)) in lines.iter().enumerate() {
        match serde_json::from_str::<Record>(line) {
            Ok(r) => records.push(r),
            Err(_) if k + 1 == lines.len() && !text.ends_with('\n') => notes.push(Note::Problem(
                format!("the last line of {} is cut short (a write in progress, or a crash): it was left out", files::JOURNAL),
            )),
            Err(e) => bad.push(format!("line {number}: {e}")),
        }
    }
    if !bad.is_empty() {
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
    records
}

/// The stop line of `summary.txt` ("generation limit reached after …").
pub fn stop_line(summary: &str) -> Option<String> {
    summary
        .lines()
        .find_map(|l| l.strip_prefix("stopped: "))
        .map(|s| s.trim().to_string())
}

impl RunReport {
    /// Reads a run folder, noting whatever is missing or broken. The status
    /// comes from `summary.txt`; a live observer overrides it.
    pub fn load(dir: &Path) -> RunReport {
        let mut notes = Vec::new();
        let meta = read_meta(dir, &mut notes);
        let (config_text, config) = read_config(dir, &mut notes);
        let (records, mut journal) = read_history(dir, &mut notes);
        let (status, summary_base) = read_summary(dir, &mut notes);
        let final_report = read_final(dir, &status, config.as_ref(), &mut notes);
        let (base, best) = read_players(dir, config.as_ref(), &mut notes);
        journal.baseline = journal.baseline.or(summary_base);
        let data = RunData {
            name: meta
                .as_ref()
                .and_then(|m| m.name.clone())
                .unwrap_or_else(|| folder_name(dir)),
            params: param_names(meta.as_ref(), config.as_ref()),
            journal,
            final_report,
        };
        if data.journal.generations.is_empty() && data.journal.baseline.is_some() {
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
        self.data.journal.generations.last()
    }

    /// The validated means as ratios to the base weights' fitness.
    pub fn ratios(&self) -> Vec<RatioPoint> {
        ratio_points(&self.data.journal)
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

/// The journal's records and their chart data. Without a journal, the
/// generations come from `generations.csv` when the folder has one (as the
/// curated runs, which keep no journal).
fn read_history(dir: &Path, notes: &mut Vec<Note>) -> (Vec<Record>, Journal) {
    let csv = dir.join(files::GENERATIONS);
    if dir.join(files::JOURNAL).exists() || !csv.exists() {
        let absent = Note::Pending(format!(
            "no {} yet: no game has finished (or this is not a run folder)",
            files::JOURNAL
        ));
        let records = read_piece(dir, files::JOURNAL, absent, notes)
            .map(|text| read_journal(&text, notes))
            .unwrap_or_default();
        let journal = journal_from_records(records.iter().cloned());
        return (records, journal);
    }
    let parsed = std::fs::read_to_string(&csv)
        .map_err(|e| e.to_string())
        .and_then(|text| journal_from_csv(&text));
    match parsed {
        Ok(journal) => {
            notes.push(Note::Problem(format!(
                "{} is missing: the generations come from {} (no parameter trajectories or reselection)",
                files::JOURNAL,
                files::GENERATIONS
            )));
            (Vec::new(), journal)
        }
        Err(e) => {
            notes.push(Note::Problem(format!(
                "{} is missing, and {} does not read: {e}",
                files::JOURNAL,
                files::GENERATIONS
            )));
            (Vec::new(), Journal::default())
        }
    }
}

/// The generations (and validations) of `generations.csv`, columns found by name.
pub fn journal_from_csv(text: &str) -> Result<Journal, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .ok_or("an empty file")?
        .split(',')
        .map(str::trim)
        .collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|c| *c == name)
            .ok_or(format!("no `{name}` column"))
    };
    let names = [
        "generation",
        "evaluations",
        "games",
        "best",
        "median",
        "mean",
        "sigma",
        "elapsed_s",
    ];
    let cols: Vec<usize> = names.iter().map(|n| column(n)).collect::<Result<_, _>>()?;
    let val: Vec<usize> = ["val_fitness", "val_ci_lo", "val_ci_hi"]
        .iter()
        .filter_map(|n| column(n).ok())
        .collect();
    let mut journal = Journal::default();
    for (n, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let number = |i: usize| -> Result<f64, String> {
            let cell = cells.get(i).copied().unwrap_or("");
            cell.parse()
                .map_err(|_| format!("line {}: `{}` is not a number: {cell:?}", n + 2, header[i]))
        };
        let v: Vec<f64> = cols.iter().map(|&i| number(i)).collect::<Result<_, _>>()?;
        let generation = v[0] as u32;
        journal.generations.push(GenerationPoint {
            generation,
            evaluations: v[1] as u32,
            games: v[2] as u64,
            best: v[3],
            median: v[4],
            mean: v[5],
            sigma: v[6],
            elapsed_s: v[7],
        });
        if let [f, lo, hi] = val[..] {
            if let (Ok(fitness), Ok(lo), Ok(hi)) = (number(f), number(lo), number(hi)) {
                journal.validations.push(ValidationPoint {
                    generation,
                    x: Vec::new(),
                    fitness,
                    ci95: [lo, hi],
                });
            }
        }
    }
    Ok(journal)
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

/// The run's status from `summary.txt`, and the base level it states (for
/// folders without a journal).
fn read_summary(dir: &Path, notes: &mut Vec<Note>) -> (Status, Option<f64>) {
    let Ok(text) = std::fs::read_to_string(dir.join(files::SUMMARY)) else {
        let status = match crate::tune::lock::FolderLock::is_held(dir) {
            Some(true) => Status::Busy,
            Some(false) => Status::Gone,
            None => Status::Unfinished,
        };
        return (status, None);
    };
    let status = match stop_line(&text) {
        Some(line) => Status::Finished(line),
        None => {
            notes.push(Note::Problem(format!(
                "{} has no `stopped:` line",
                files::SUMMARY
            )));
            Status::Finished("for a reason summary.txt does not say".to_string())
        }
    };
    (status, summary_base(&text))
}

/// The base weights' fitness in `summary.txt`'s "best (…): … ; base X" line.
pub fn summary_base(summary: &str) -> Option<f64> {
    summary
        .lines()
        .find(|l| l.starts_with("best ("))
        .and_then(|l| l.rsplit_once("; base "))
        .and_then(|(_, base)| base.trim().parse().ok())
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
pub fn generation_rows(journal: &Journal) -> Vec<(&GenerationPoint, Option<&ValidationPoint>)> {
    let validations: BTreeMap<u32, &ValidationPoint> = journal
        .validations
        .iter()
        .map(|v| (v.generation, v))
        .collect();
    journal
        .generations
        .iter()
        .map(|g| (g, validations.get(&g.generation).copied()))
        .collect()
}

/// Validated means over wall time and games, as ratios to the baseline;
/// empty without a positive baseline.
pub fn ratio_points(journal: &Journal) -> Vec<RatioPoint> {
    let Some(base) = journal.baseline.filter(|b| *b > 0.0) else {
        return Vec::new();
    };
    generation_rows(journal)
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
