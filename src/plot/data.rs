//! Plot data: run folders and eval CSV files read into series. Pure: text in,
//! numbers out, no drawing; every function here is unit-tested.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::stats::{reach_share, GameStat};
use crate::tune::history::{History, HistoryError};

use super::PlotError;

pub const JOURNAL_FILE: &str = crate::tune::folder::files::JOURNAL;
pub const FINAL_FILE: &str = crate::tune::folder::files::FINAL;
pub const META_FILE: &str = crate::tune::folder::files::META;

pub use crate::tune::end::FinalReport;
pub use crate::tune::folder::meta::RunMeta;
pub use crate::tune::history::{GenerationPoint, Timeline, ValidationPoint};

/// Everything the charts of one run folder need.
#[derive(Clone, Debug, PartialEq)]
pub struct RunData {
    /// `meta.json`'s name, else the folder's name.
    pub name: String,
    /// Tuned parameter names (from `meta.json`; `x[i]` where unknown).
    pub params: Vec<String>,
    pub timeline: Timeline,
    pub final_report: Option<FinalReport>,
}

fn read(path: &Path) -> Result<String, PlotError> {
    std::fs::read_to_string(path).map_err(|source| PlotError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn parse_json<T: for<'de> Deserialize<'de>>(text: &str, path: &Path) -> Result<T, PlotError> {
    serde_json::from_str(text).map_err(|e| PlotError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        message: e.to_string(),
    })
}

/// Reads a run folder: its history (the journal, else `generations.csv`),
/// meta and final report (both optional while a run is young). A journal
/// line that is not a record is an error naming it (charts drawn around a
/// lost record would be silently wrong); what the history leaves out by
/// design (a torn last line, a folder without a journal) is said in the
/// warnings.
pub fn load_run(dir: &Path) -> Result<(RunData, Vec<String>), PlotError> {
    let history = History::read(dir).map_err(|e| match e {
        HistoryError::NotARun(dir) => PlotError::NotARun(dir),
        HistoryError::Read { path, source } => PlotError::Read { path, source },
        HistoryError::Parse {
            path,
            line,
            message,
        } => PlotError::Parse {
            path,
            line: line as usize,
            message,
        },
    })?;
    if let Some(bad) = history.bad.first() {
        return Err(PlotError::Parse {
            path: dir.join(JOURNAL_FILE),
            line: bad.line,
            message: format!("not a journal record: {}", bad.message),
        });
    }
    let warnings = history
        .left_out()
        .into_iter()
        .map(|note| format!("{}: {note}", dir.display()))
        .collect();
    let meta_path = dir.join(META_FILE);
    let meta: RunMeta = if meta_path.is_file() {
        parse_json(&read(&meta_path)?, &meta_path)?
    } else {
        RunMeta::default()
    };
    let final_path = dir.join(FINAL_FILE);
    let final_report = if final_path.is_file() {
        Some(parse_json(&read(&final_path)?, &final_path)?)
    } else {
        None
    };
    let name = meta.name.clone().unwrap_or_else(|| folder_name(dir));
    let run = RunData {
        name,
        params: meta.params,
        timeline: history.timeline,
        final_report,
    };
    Ok((run, warnings))
}

/// The last component of a path, also for `.` and `runs/x/`.
pub fn folder_name(dir: &Path) -> String {
    let absolute: PathBuf = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    absolute
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "run".to_string())
}

/// A name made safe for a file name: letters, digits, `.`, `_`, `-`.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = stem.trim_start_matches('.');
    if stem.is_empty() {
        "run".to_string()
    } else {
        stem.to_string()
    }
}

/// A learning folder's per-block progress file (`learn`).
pub const PROGRESS_FILE: &str = "progress.csv";

/// One row of a learning folder's `progress.csv`: a block of games.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockRow {
    /// Games learned from at the block's end.
    pub games: f64,
    /// The block's mean score, greedy while learning.
    pub mean_score: f64,
    /// The learning rate (absent from files that have no `alpha` column).
    pub alpha: Option<f64>,
    /// The share of the block reaching 2048, 8192, 16384 and 32768, where
    /// the file has those columns.
    pub reach: [Option<f64>; 4],
    /// Seconds since the first row's block began: the running sum of the
    /// `seconds` column (absent without it).
    pub seconds: Option<f64>,
}

/// The columns of [`BlockRow::reach`], in order.
pub const REACH_COLUMNS: [&str; 4] = ["reach_2048", "reach_8192", "reach_16384", "reach_32768"];

/// The rows of a learning folder's `progress.csv` (or of any CSV file with
/// `games` and `mean_score` columns, such as another learner's log put in
/// that form; `alpha`, the reach columns and `seconds` are read where
/// present). Columns are found by name.
pub fn parse_progress_csv(text: &str, path: &Path) -> Result<Vec<BlockRow>, PlotError> {
    let parse_error = |line: usize, message: String| PlotError::Parse {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let find = |name: &str| header.iter().position(|h| h.trim() == name);
    let column = |name: &str| {
        find(name).ok_or_else(|| parse_error(1, format!("the header has no `{name}` column")))
    };
    let (games, mean) = (column("games")?, column("mean_score")?);
    let (alpha, seconds) = (find("alpha"), find("seconds"));
    let reach = REACH_COLUMNS.map(find);
    let mut rows = Vec::new();
    let mut clock = 0.0;
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        let number = |k: usize| -> Result<f64, PlotError> {
            let field = fields.get(k).copied().unwrap_or_default().trim();
            field
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    parse_error(
                        i + 2,
                        format!("field `{}`: `{field}` is not a number", header[k].trim()),
                    )
                })
        };
        let optional = |k: Option<usize>| k.map(number).transpose();
        let seconds = optional(seconds)?.map(|s| {
            clock += s;
            clock
        });
        rows.push(BlockRow {
            games: number(games)?,
            mean_score: number(mean)?,
            alpha: optional(alpha)?,
            reach: [
                optional(reach[0])?,
                optional(reach[1])?,
                optional(reach[2])?,
                optional(reach[3])?,
            ],
            seconds,
        });
    }
    Ok(rows)
}

/// Parses an `eval --csv` file (`game,seed,score,max_tile,moves,outcome`);
/// columns are found by name, so their order may change. Cells are trimmed,
/// and blank lines are passed over.
pub fn parse_eval_csv(text: &str, path: &Path) -> Result<Vec<GameStat>, PlotError> {
    let bad = |line: u64, message: String| PlotError::Parse {
        path: path.to_path_buf(),
        line: usize::try_from(line).unwrap_or(usize::MAX),
        message,
    };
    let line_of = |position: Option<&csv::Position>| position.map_or(1, |p| line_at(text, p));
    // Text read as `&str` is UTF-8 and rows may differ in length, so the csv
    // reader has little to refuse; what it does is named by its line.
    let csv_error = |e: csv::Error| bad(line_of(e.position()), e.to_string());
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(text.as_bytes());
    let header = reader.headers().map_err(csv_error)?.clone();
    if header.iter().all(str::is_empty) {
        return Err(bad(1, "empty file".into()));
    }
    let header_line = line_of(header.position());
    let column = |name: &str| {
        header
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| bad(header_line, format!("no `{name}` column in the header")))
    };
    let (score, max_tile, moves) = (column("score")?, column("max_tile")?, column("moves")?);
    let mut games = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        if record.iter().all(str::is_empty) {
            continue;
        }
        let line = line_of(record.position());
        let number = |i: usize, name: &str| -> Result<u64, PlotError> {
            let text = record
                .get(i)
                .ok_or_else(|| bad(line, format!("missing `{name}`")))?;
            text.parse()
                .map_err(|_| bad(line, format!("`{name}` is not a count: {text:?}")))
        };
        let narrow = |v: u64, name: &str| {
            u32::try_from(v).map_err(|_| bad(line, format!("`{name}` is too large")))
        };
        games.push(GameStat {
            score: number(score, "score")?,
            max_tile: narrow(number(max_tile, "max_tile")?, "max_tile")?,
            moves: narrow(number(moves, "moves")?, "moves")?,
        });
    }
    if games.is_empty() {
        return Err(bad(1, "no games".into()));
    }
    Ok(games)
}

/// The line (from 1) of the record the csv reader places at `position`. Its
/// own line count gives a record after a blank line the blank's number, so
/// the line is counted from the byte offset, past any line ends there.
fn line_at(text: &str, position: &csv::Position) -> u64 {
    let start = usize::try_from(position.byte()).map_or(text.len(), |b| b.min(text.len()));
    let blank = text.as_bytes()[start..]
        .iter()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .count();
    let before = &text.as_bytes()[..start + blank];
    1 + before.iter().filter(|&&b| b == b'\n').count() as u64
}

/// The fitness chart's series.
#[derive(Clone, Debug, PartialEq)]
pub struct FitnessSeries {
    pub best: Vec<(u32, f64)>,
    pub median: Vec<(u32, f64)>,
    pub mean: Vec<(u32, f64)>,
    /// (generation, fitness, ci low, ci high) of the distribution mean.
    pub validation: Vec<(u32, f64, f64, f64)>,
    pub baseline: Option<f64>,
}

impl FitnessSeries {
    /// The generation range and the value range of every series.
    pub fn bounds(&self) -> Option<((u32, u32), (f64, f64))> {
        let gens = self
            .best
            .iter()
            .map(|p| p.0)
            .chain(self.validation.iter().map(|v| v.0));
        let values = [&self.best, &self.median, &self.mean]
            .into_iter()
            .flatten()
            .map(|p| p.1)
            .chain(self.validation.iter().flat_map(|v| [v.1, v.2, v.3]))
            .chain(self.baseline);
        Some((min_max_u32(gens)?, min_max(values)?))
    }
}

pub fn fitness_series(timeline: &Timeline) -> FitnessSeries {
    let series = |f: fn(&GenerationPoint) -> f64| -> Vec<(u32, f64)> {
        timeline
            .generations
            .iter()
            .map(|g| (g.generation, f(g)))
            .collect()
    };
    FitnessSeries {
        best: series(|g| g.best),
        median: series(|g| g.median),
        mean: series(|g| g.mean),
        validation: timeline
            .validations
            .iter()
            .map(|v| (v.generation, v.fitness, v.ci95[0], v.ci95[1]))
            .collect(),
        baseline: timeline.baseline,
    }
}

/// Step size per generation; values that a log axis cannot show are dropped.
pub fn sigma_series(timeline: &Timeline) -> Vec<(u32, f64)> {
    timeline
        .generations
        .iter()
        .filter(|g| g.sigma > 0.0 && g.sigma.is_finite())
        .map(|g| (g.generation, g.sigma))
        .collect()
}

/// One tuned parameter's normalized coordinate over generations.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSeries {
    pub name: String,
    pub points: Vec<(u32, f64)>,
}

/// Every tuned parameter's trajectory (the distribution mean, from the
/// validation records), named from `params` or `x[i]` beyond it.
pub fn param_series(timeline: &Timeline, params: &[String]) -> Vec<ParamSeries> {
    let width = timeline
        .validations
        .iter()
        .map(|v| v.x.len())
        .max()
        .unwrap_or(0);
    (0..width)
        .map(|i| ParamSeries {
            name: params.get(i).cloned().unwrap_or_else(|| format!("x[{i}]")),
            points: timeline
                .validations
                .iter()
                .filter_map(|v| v.x.get(i).map(|&x| (v.generation, x)))
                .collect(),
        })
        .collect()
}

/// A run's headline curve for comparisons: validation fitness when the run
/// has any, else the best of each generation.
pub fn headline_series(timeline: &Timeline) -> (Vec<(u32, f64)>, &'static str) {
    if timeline.validations.is_empty() {
        let best = timeline
            .generations
            .iter()
            .map(|g| (g.generation, g.best))
            .collect();
        (best, "best")
    } else {
        let val = timeline
            .validations
            .iter()
            .map(|v| (v.generation, v.fitness))
            .collect();
        (val, "validation")
    }
}

/// Counts of several score samples over shared bins.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// The left edge of the first bin.
    pub start: f64,
    pub width: f64,
    /// One row per sample, one count per bin.
    pub counts: Vec<Vec<u32>>,
}

impl Histogram {
    pub fn bins(&self) -> usize {
        self.counts.first().map_or(0, Vec::len)
    }

    pub fn max_count(&self) -> u32 {
        self.counts.iter().flatten().copied().max().unwrap_or(0)
    }
}

/// The smallest of 1, 2 or 5 times a power of ten that is at least `x`.
pub fn nice_step(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let power = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= x * (1.0 - 1e-12))
        .unwrap_or(10.0 * power)
}

/// Bins scores from 0 with a round bin width giving at most `max_bins` bins.
pub fn histogram(samples: &[&[u64]], max_bins: usize) -> Histogram {
    let top = samples
        .iter()
        .flat_map(|s| s.iter())
        .copied()
        .max()
        .unwrap_or(0);
    let width = nice_step((top as f64 + 1.0) / max_bins.max(1) as f64).max(1.0);
    let bins = ((top as f64 / width).floor() as usize + 1).max(1);
    let counts = samples
        .iter()
        .map(|s| {
            let mut row = vec![0u32; bins];
            for &score in s.iter() {
                let bin = ((score as f64 / width).floor() as usize).min(bins - 1);
                row[bin] += 1;
            }
            row
        })
        .collect();
    Histogram {
        start: 0.0,
        width,
        counts,
    }
}

/// Shares of games reaching each tile, for several samples.
#[derive(Clone, Debug, PartialEq)]
pub struct ReachBars {
    pub tiles: Vec<u32>,
    /// One row per sample, one share (0..=1) per tile.
    pub shares: Vec<Vec<f64>>,
}

/// Tiles from the largest one every game reached (at least 2) up to the
/// largest one any game reached, at most `max_bars` of them (the smallest
/// are dropped first), with each sample's reach share.
pub fn reach_bars(samples: &[&[u32]], max_bars: usize) -> ReachBars {
    let all = samples.iter().flat_map(|s| s.iter()).copied();
    let top = all.clone().max().unwrap_or(0);
    let floor = all.min().unwrap_or(0);
    let mut tiles: Vec<u32> = (1..=20)
        .map(|k| 1u32 << k)
        .filter(|&t| t <= top && 2 * u64::from(t) > u64::from(floor))
        .collect();
    if tiles.len() > max_bars {
        tiles.drain(..tiles.len() - max_bars);
    }
    let shares = samples
        .iter()
        .map(|s| tiles.iter().map(|&t| reach_share(s, t)).collect())
        .collect();
    ReachBars { tiles, shares }
}

/// The smallest and largest of finite values.
pub fn min_max(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

fn min_max_u32(values: impl IntoIterator<Item = u32>) -> Option<(u32, u32)> {
    values.into_iter().fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_rows_read_their_columns_by_name_and_sum_the_seconds() {
        let path = Path::new("progress.csv");
        let text = "games,alpha,mean_score,reach_2048,seconds\n10,0.5,100,0.25,1.5\n\n20,0.25,300,0.5,2.5\n";
        let rows = parse_progress_csv(text, path).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[1],
            BlockRow {
                games: 20.0,
                mean_score: 300.0,
                alpha: Some(0.25),
                reach: [Some(0.5), None, None, None],
                seconds: Some(4.0),
            }
        );
        let bare = parse_progress_csv("mean_score,games\n7,1\n", path).unwrap();
        assert_eq!(
            (bare[0].games, bare[0].alpha, bare[0].seconds),
            (1.0, None, None)
        );
        let missing = parse_progress_csv("games,score\n1,2\n", path).unwrap_err();
        assert!(missing.to_string().contains("mean_score"), "{missing}");
        let bad = parse_progress_csv("games,mean_score,seconds\n1,2,x\n", path).unwrap_err();
        let message = bad.to_string();
        assert!(
            message.contains("progress.csv:2:") && message.contains("seconds"),
            "{message}"
        );
    }

    const JOURNAL: &str = r#"{"kind":"baseline","fitness":1000.5,"mean_score":1000.5,"games":8}
{"kind":"eval","generation":0,"index":0,"x":[0.1,0.2],"params":{"empty":1.0},"fitness":900,"penalty":0,"mean_score":900,"games":8}
{"kind":"validation","generation":0,"x":[0.5,-0.5],"params":{"empty":1.0,"merges":2.0},"fitness":1100,"fitness_ci95":[1000,1200],"mean_score":1100,"games":16}
{"kind":"generation","generation":0,"sigma":0.3,"best":1200,"median":1000,"mean":990,"evaluations":6,"games":48,"elapsed_s":1.5,"future_field":[1,2]}
{"kind":"checkpoint","generation":0,"note":"a kind this reader does not know"}
{"kind":"generation","generation":1,"sigma":0.25,"best":1300,"median":1100,"mean":1050,"evaluations":12,"games":96,"elapsed_s":3.0}
{"kind":"validation","generation":1,"x":[0.75,-0.25],"params":{},"fitness":1250,"fitness_ci95":[1150,1350],"mean_score":1250,"games":16}
{"kind":"generation","generation":2,"sig"#;

    fn journal() -> Timeline {
        History::of_journal(crate::tune::journal::parse(JOURNAL.as_bytes())).timeline
    }

    #[test]
    fn journal_reads_known_kinds_and_skips_the_torn_last_line() {
        let j = journal();
        assert_eq!(j.baseline, Some(1000.5));
        assert_eq!(j.generations.len(), 2);
        assert_eq!(
            j.generations[1],
            GenerationPoint {
                generation: 1,
                sigma: 0.25,
                best: 1300.0,
                median: 1100.0,
                mean: 1050.0,
                evaluations: 12,
                games: 96,
                elapsed_s: 3.0,
            }
        );
        assert_eq!(j.validations.len(), 2);
        assert_eq!(j.validations[0].x, vec![0.5, -0.5]);
        assert_eq!(j.validations[1].ci95, [1150.0, 1350.0]);
    }

    #[test]
    fn fitness_sigma_and_headline_series() {
        let j = journal();
        let f = fitness_series(&j);
        assert_eq!(f.best, vec![(0, 1200.0), (1, 1300.0)]);
        assert_eq!(f.median, vec![(0, 1000.0), (1, 1100.0)]);
        assert_eq!(f.mean, vec![(0, 990.0), (1, 1050.0)]);
        assert_eq!(
            f.validation,
            vec![(0, 1100.0, 1000.0, 1200.0), (1, 1250.0, 1150.0, 1350.0)]
        );
        assert_eq!(f.baseline, Some(1000.5));
        assert_eq!(f.bounds(), Some(((0, 1), (990.0, 1350.0))));
        assert_eq!(sigma_series(&j), vec![(0, 0.3), (1, 0.25)]);
        assert_eq!(
            headline_series(&j),
            (vec![(0, 1100.0), (1, 1250.0)], "validation")
        );
        let no_val = Timeline {
            validations: vec![],
            ..j
        };
        assert_eq!(
            headline_series(&no_val),
            (vec![(0, 1200.0), (1, 1300.0)], "best")
        );
    }

    #[test]
    fn params_are_named_from_meta_then_by_index() {
        let p = param_series(&journal(), &["empty".to_string()]);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, "empty");
        assert_eq!(p[0].points, vec![(0, 0.5), (1, 0.75)]);
        assert_eq!(p[1].name, "x[1]");
        assert_eq!(p[1].points, vec![(0, -0.5), (1, -0.25)]);
    }

    #[test]
    fn eval_csv_by_column_name() {
        let text = "game,seed,score,max_tile,moves,outcome\n0,11,2000,256,150,lost\n1,12,9000,1024,500,lost\n";
        let games = parse_eval_csv(text, Path::new("e.csv")).unwrap();
        assert_eq!(
            games,
            vec![
                GameStat {
                    score: 2000,
                    max_tile: 256,
                    moves: 150
                },
                GameStat {
                    score: 9000,
                    max_tile: 1024,
                    moves: 500
                },
            ]
        );
        let err = parse_eval_csv("game,score\n", Path::new("e.csv")).unwrap_err();
        assert!(err.to_string().contains("max_tile"), "{err}");
        let err = parse_eval_csv("score,max_tile,moves\n1,2,x\n", Path::new("e.csv")).unwrap_err();
        assert!(err.to_string().starts_with("e.csv:2: "), "{err}");
    }

    #[test]
    fn eval_csv_quotes_blank_lines_and_line_numbers() {
        let text =
            "\"max_tile\", moves ,score,\"outcome\"\n\n2048,900,20000,\"lost, at last\"\n   \n";
        let games = parse_eval_csv(text, Path::new("e.csv")).unwrap();
        assert_eq!(
            games,
            vec![GameStat {
                score: 20000,
                max_tile: 2048,
                moves: 900
            }]
        );
        let text = "score,max_tile,moves\n1,2,3\n\n4,5\n";
        let err = parse_eval_csv(text, Path::new("e.csv")).unwrap_err();
        assert_eq!(err.to_string(), "e.csv:4: missing `moves`");
        let text = "\r\n\nscore,moves\r\n";
        let err = parse_eval_csv(text, Path::new("e.csv")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "e.csv:3: no `max_tile` column in the header"
        );
        let text = "score,max_tile,moves\r\n1,2,3\r\n\r\n\r\n4,5,x\r\n";
        let err = parse_eval_csv(text, Path::new("e.csv")).unwrap_err();
        assert_eq!(err.to_string(), "e.csv:5: `moves` is not a count: \"x\"");
        let text = "score,max_tile,moves\n1,99999999999,3\n";
        let err = parse_eval_csv(text, Path::new("e.csv")).unwrap_err();
        assert_eq!(err.to_string(), "e.csv:2: `max_tile` is too large");
        let err = parse_eval_csv("", Path::new("e.csv")).unwrap_err();
        assert_eq!(err.to_string(), "e.csv:1: empty file");
        let err = parse_eval_csv("score,max_tile,moves\n", Path::new("e.csv")).unwrap_err();
        assert_eq!(err.to_string(), "e.csv:1: no games");
        let err = parse_eval_csv("score,moves\n1,2\n", Path::new("e.csv")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "e.csv:1: no `max_tile` column in the header"
        );
    }

    #[test]
    fn histogram_bins_with_round_widths() {
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(333.0), 500.0);
        assert_eq!(nice_step(2001.0), 5000.0);
        let a: &[u64] = &[0, 999, 1000, 4500];
        let b: &[u64] = &[9999];
        // top 9999 → width nice(10000 / 10) = 1000 → 10 bins.
        let h = histogram(&[a, b], 10);
        assert_eq!(h.width, 1000.0);
        assert_eq!(h.bins(), 10);
        assert_eq!(h.counts[0], vec![2, 1, 0, 0, 1, 0, 0, 0, 0, 0]);
        assert_eq!(h.counts[1], vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(h.max_count(), 2);
        let empty = histogram(&[&[]], 10);
        assert_eq!(empty.bins(), 1);
    }

    #[test]
    fn reach_bars_span_the_tiles_that_separate_games() {
        let base: &[u32] = &[512, 1024, 2048, 2048];
        let best: &[u32] = &[1024, 2048, 4096, 4096];
        let r = reach_bars(&[base, best], 10);
        assert_eq!(r.tiles, vec![512, 1024, 2048, 4096]);
        assert_eq!(r.shares[0], vec![1.0, 0.75, 0.5, 0.0]);
        assert_eq!(r.shares[1], vec![1.0, 1.0, 0.75, 0.5]);
        let capped = reach_bars(&[base, best], 2);
        assert_eq!(capped.tiles, vec![2048, 4096]);
    }

    #[test]
    fn file_stems_are_safe() {
        assert_eq!(file_stem("depth 2/tune"), "depth_2_tune");
        assert_eq!(file_stem("../x"), "_x");
        assert_eq!(file_stem(""), "run");
        assert_eq!(file_stem("a-b_c.1"), "a-b_c.1");
    }

    #[test]
    fn meta_and_final_ignore_unknown_fields() {
        let meta: RunMeta =
            serde_json::from_str(r#"{"name":"n","params":["empty"],"created":"x"}"#).unwrap();
        assert_eq!(meta.name.as_deref(), Some("n"));
        assert_eq!(meta.params, vec!["empty"]);
    }
}
