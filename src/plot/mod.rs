//! Charts of run folders and eval CSV files, as PNG and SVG.
//!
//! [`data`] turns files into series (pure, unit-tested); [`draw`] draws one
//! chart per type. Text renders with a font embedded in the binary, so no
//! system font library is needed.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::prelude::*;

pub mod data;
pub mod draw;
pub mod observer;

use data::{file_stem, FitnessSeries, RunData};
pub use draw::Chart;
use draw::{CompareChart, FitnessChart, HistogramChart, ParamsChart, ReachChart, SigmaChart};

/// DejaVu Sans (Bitstream Vera license, see `assets/DejaVuSans-LICENSE.txt`).
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Bins in score histograms (at most).
const HISTOGRAM_BINS: usize = 40;
/// Bars in tile-reach charts (at most, per sample).
const REACH_BARS: usize = 10;

/// Which image files to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
    Both,
}

impl Format {
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Png => &["png"],
            Format::Svg => &["svg"],
            Format::Both => &["png", "svg"],
        }
    }
}

/// Errors reading plot inputs or writing charts.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(
        "{0}: not a run folder (it has neither {journal} nor {csv})",
        journal = data::JOURNAL_FILE,
        csv = crate::tune::folder::files::GENERATIONS
    )]
    NotARun(PathBuf),
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: drawing failed: {message}")]
    Draw { path: PathBuf, message: String },
}

impl PlotError {
    /// Whether the user's input is at fault (as opposed to the machine).
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            PlotError::Read { .. } | PlotError::Parse { .. } | PlotError::NotARun(_)
        )
    }
}

/// Registers the embedded font once; false if it could not be read.
fn ensure_font() -> bool {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    *REGISTERED.get_or_init(|| {
        plotters::style::register_font(draw::FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    })
}

/// Draws `chart` to `<stem>.png` and/or `<stem>.svg`; returns the paths written.
fn save(chart: &impl Chart, stem: &Path, format: Format) -> Result<Vec<PathBuf>, PlotError> {
    let mut written = Vec::new();
    for ext in format.extensions() {
        let mut name = stem.as_os_str().to_owned();
        name.push(".");
        name.push(ext);
        let path = PathBuf::from(name);
        // Drawn under a temporary name of its own and renamed: a reader, or a
        // crash mid-draw, never sees a half-drawn chart under its name.
        let drawn = if *ext == "png" && !ensure_font() {
            Err("the embedded font could not be read".to_string())
        } else if *ext == "png" {
            let tmp = crate::atomic_file::temporary_path(&path);
            let root = BitMapBackend::new(&tmp, chart.size()).into_drawing_area();
            let done = chart
                .draw(&root)
                .and_then(|()| root.present().map_err(|e| e.to_string()));
            drop(root);
            let moved = done.and_then(|()| {
                std::fs::File::open(&tmp)
                    .and_then(|f| f.sync_data())
                    .and_then(|()| std::fs::rename(&tmp, &path))
                    .map_err(|e| format!("writing failed: {e}"))
            });
            if moved.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            moved
        } else {
            svg(chart).and_then(|text| {
                crate::atomic_file::write(&path, text.as_bytes())
                    .map_err(|e| format!("writing failed: {e}"))
            })
        };
        drawn.map_err(|message| PlotError::Draw {
            path: path.clone(),
            message,
        })?;
        written.push(path);
    }
    Ok(written)
}

fn create_dir(out: &Path) -> Result<(), PlotError> {
    std::fs::create_dir_all(out).map_err(|source| PlotError::Write {
        path: out.to_path_buf(),
        source,
    })
}

/// Receives the charts of a run one by one, each with its kind (`fitness`,
/// `sigma`, `params`, `scores`, `reach`): to files, or to SVG text.
pub trait ChartSink {
    fn chart<C: Chart>(&mut self, kind: &str, chart: &C) -> Result<(), PlotError>;
}

/// Writes each chart to `<out>/<run>-<kind>.<ext>`.
struct FileSink<'a> {
    out: &'a Path,
    run: String,
    format: Format,
    written: Vec<PathBuf>,
}

impl ChartSink for FileSink<'_> {
    fn chart<C: Chart>(&mut self, kind: &str, chart: &C) -> Result<(), PlotError> {
        let stem = self.out.join(format!("{}-{kind}", self.run));
        self.written.extend(save(chart, &stem, self.format)?);
        Ok(())
    }
}

/// The chart as SVG text (for inlining in a page).
pub fn svg(chart: &impl Chart) -> Result<String, String> {
    if !ensure_font() {
        return Err("the embedded font could not be read".to_string());
    }
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, chart.size()).into_drawing_area();
        chart.draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// Draws every chart a run folder has data for into `out` (files named
/// `<run>-<chart>.<ext>`); charts without data yet are left out. What the
/// folder's history leaves out is added to `warnings`.
pub fn plot_run(
    dir: &Path,
    out: &Path,
    format: Format,
    warnings: &mut Vec<String>,
) -> Result<Vec<PathBuf>, PlotError> {
    let (run, left_out) = data::load_run(dir)?;
    warnings.extend(left_out);
    create_dir(out)?;
    let mut sink = FileSink {
        out,
        run: file_stem(&run.name),
        format,
        written: Vec::new(),
    };
    draw_run(&run, &mut sink)?;
    Ok(sink.written)
}

/// Hands every chart that `run` has data for to `sink`, in a fixed order:
/// fitness, sigma, params, then the final comparison's scores and reach.
pub fn draw_run(run: &RunData, sink: &mut impl ChartSink) -> Result<(), PlotError> {
    let name = &run.name;
    let fitness: FitnessSeries = data::fitness_series(&run.timeline);
    if fitness.bounds().is_some() {
        let chart = FitnessChart {
            title: format!("{name}: fitness per generation"),
            data: &fitness,
        };
        sink.chart("fitness", &chart)?;
    }
    let sigma = data::sigma_series(&run.timeline);
    if !sigma.is_empty() {
        let chart = SigmaChart {
            title: format!("{name}: CMA-ES step size sigma"),
            points: &sigma,
        };
        sink.chart("sigma", &chart)?;
    }
    let params = data::param_series(&run.timeline, &run.params);
    if params.iter().any(|p| !p.points.is_empty()) {
        let chart = ParamsChart {
            title: format!("{name}: parameter trajectories"),
            series: &params,
        };
        sink.chart("params", &chart)?;
    }
    draw_final(run, sink)
}

/// The final comparison's charts, if the run has one.
fn draw_final(run: &RunData, sink: &mut impl ChartSink) -> Result<(), PlotError> {
    let Some(fin) = &run.final_report else {
        return Ok(());
    };
    let labels = [
        format!("base (mean {:.0})", fin.base.mean_score),
        format!("best (mean {:.0})", fin.best.mean_score),
    ];
    let hist = data::histogram(&[&fin.base_scores, &fin.best_scores], HISTOGRAM_BINS);
    let p = &fin.paired;
    let chart = HistogramChart {
        title: format!(
            "{}: final scores, {} paired games, best/base {:.3}, p = {:.2e}",
            run.name, fin.games, p.ratio, p.p_value
        ),
        hist: &hist,
        labels: &labels,
    };
    sink.chart("scores", &chart)?;
    let bars = data::reach_bars(&[&fin.base_max_tiles, &fin.best_max_tiles], REACH_BARS);
    if !bars.tiles.is_empty() {
        let labels = ["base".to_string(), "best".to_string()];
        let chart = ReachChart {
            title: format!("{}: tile reach, best vs base", run.name),
            bars: &bars,
            labels: &labels,
        };
        sink.chart("reach", &chart)?;
    }
    Ok(())
}

/// Overlays the headline fitness curve of several runs in
/// `<out>/compare-fitness.<ext>`.
pub fn plot_compare(
    dirs: &[PathBuf],
    out: &Path,
    format: Format,
) -> Result<Vec<PathBuf>, PlotError> {
    let mut runs = Vec::new();
    for dir in dirs {
        // Each run's warnings were given when its own charts were drawn.
        let (run, _) = data::load_run(dir)?;
        let (points, kind) = data::headline_series(&run.timeline);
        runs.push((format!("{} ({kind})", run.name), points));
    }
    if runs.iter().all(|r| r.1.is_empty()) {
        return Ok(Vec::new());
    }
    create_dir(out)?;
    let chart = CompareChart {
        title: "fitness per generation, by run".to_string(),
        runs: &runs,
    };
    save(&chart, &out.join("compare-fitness"), format)
}

/// Score histogram and tile reach of an `eval --csv` file, in
/// `<out>/<csv name>-scores.<ext>` and `-reach.<ext>`.
/// Whether `dir` is a learning folder (`learn`), not a tuning run's.
pub fn is_learning_folder(dir: &Path) -> bool {
    dir.join(data::PROGRESS_FILE).is_file()
        && !dir.join(crate::tune::folder::files::CONFIG).exists()
}

/// A learning folder's curves in `out`: the blocks' mean score against
/// games (`<folder>-learning`) and, where its file has the columns, against
/// seconds (`-learning-seconds`), the shares reaching 2048 to 32768
/// (`-learning-reach`) and the rate (`-learning-alpha`).
pub fn plot_learning(dir: &Path, out: &Path, format: Format) -> Result<Vec<PathBuf>, PlotError> {
    let rows = read_progress(dir)?;
    create_dir(out)?;
    let name = data::folder_name(dir);
    let stem = |suffix: &str| out.join(format!("{}-learning{suffix}", file_stem(&name)));
    let one = |points: Vec<(f64, f64)>| vec![(name.clone(), points)];
    let mut written = Vec::new();
    let games = one(rows.iter().map(|r| (r.games, r.mean_score)).collect());
    let title = format!("{name}: greedy play while learning");
    fn chart<'a>(
        title: &str,
        series: &'a [(String, Vec<(f64, f64)>)],
        x_label: &'a str,
        y_label: &'a str,
        share: bool,
    ) -> draw::LearningChart<'a> {
        draw::LearningChart {
            title: title.to_string(),
            x_label,
            y_label,
            series,
            share,
        }
    }
    let score = "mean score of the block";
    let c = chart(&title, &games, "games learned from", score, false);
    written.extend(save(&c, &stem(""), format)?);
    if let Some(timed) = by_seconds(&rows) {
        let series = one(timed);
        let c = chart(&title, &series, "seconds", score, false);
        written.extend(save(&c, &stem("-seconds"), format)?);
    }
    let reach: Vec<(String, Vec<(f64, f64)>)> = data::REACH_COLUMNS
        .iter()
        .enumerate()
        .filter_map(|(k, column)| {
            let points: Option<Vec<_>> =
                rows.iter().map(|r| Some((r.games, r.reach[k]?))).collect();
            Some((column.trim_start_matches("reach_").to_string(), points?))
        })
        .collect();
    if !reach.is_empty() {
        let c = chart(
            &title,
            &reach,
            "games learned from",
            "share of the block reaching",
            true,
        );
        written.extend(save(&c, &stem("-reach"), format)?);
    }
    let alpha: Option<Vec<_>> = rows.iter().map(|r| Some((r.games, r.alpha?))).collect();
    if let Some(alpha) = alpha {
        let series = one(alpha);
        let c = chart(
            &title,
            &series,
            "games learned from",
            "learning rate α",
            false,
        );
        written.extend(save(&c, &stem("-alpha"), format)?);
    }
    Ok(written)
}

/// Several learning folders' curves on one chart each, against games
/// (`learning-compare-games`) and, where every file has seconds, against
/// seconds (`learning-compare-seconds`): a learner's run beside another's.
pub fn plot_learning_compare(
    dirs: &[PathBuf],
    out: &Path,
    format: Format,
) -> Result<Vec<PathBuf>, PlotError> {
    let mut runs = Vec::new();
    for dir in dirs {
        runs.push((data::folder_name(dir), read_progress(dir)?));
    }
    create_dir(out)?;
    let score = "mean score of the block";
    let title = "learning runs side by side: greedy play while learning".to_string();
    let games: Vec<_> = runs
        .iter()
        .map(|(name, rows)| {
            (
                name.clone(),
                rows.iter().map(|r| (r.games, r.mean_score)).collect(),
            )
        })
        .collect();
    let chart = draw::LearningChart {
        title: title.clone(),
        x_label: "games learned from",
        y_label: score,
        series: &games,
        share: false,
    };
    let mut written = save(&chart, &out.join("learning-compare-games"), format)?;
    let timed: Option<Vec<_>> = runs
        .iter()
        .map(|(name, rows)| Some((name.clone(), by_seconds(rows)?)))
        .collect();
    if let Some(timed) = timed {
        let chart = draw::LearningChart {
            title,
            x_label: "seconds",
            y_label: score,
            series: &timed,
            share: false,
        };
        written.extend(save(&chart, &out.join("learning-compare-seconds"), format)?);
    }
    Ok(written)
}

/// A learning folder's progress rows.
fn read_progress(dir: &Path) -> Result<Vec<data::BlockRow>, PlotError> {
    let path = dir.join(data::PROGRESS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| PlotError::Read {
        path: path.clone(),
        source,
    })?;
    data::parse_progress_csv(&text, &path)
}

/// (seconds, mean score) of each row, where every row has its seconds.
fn by_seconds(rows: &[data::BlockRow]) -> Option<Vec<(f64, f64)>> {
    rows.iter()
        .map(|r| Some((r.seconds?, r.mean_score)))
        .collect()
}

pub fn plot_eval(csv: &Path, out: &Path, format: Format) -> Result<Vec<PathBuf>, PlotError> {
    let text = std::fs::read_to_string(csv).map_err(|source| PlotError::Read {
        path: csv.to_path_buf(),
        source,
    })?;
    let games = data::parse_eval_csv(&text, csv)?;
    create_dir(out)?;
    let name = csv
        .file_stem()
        .map_or("eval".to_string(), |s| s.to_string_lossy().into_owned());
    let stem = file_stem(&name);
    let scores: Vec<u64> = games.iter().map(|g| g.score).collect();
    let tiles: Vec<u32> = games.iter().map(|g| g.max_tile).collect();
    let summary = crate::stats::Summary::from_games(&games, 0.0);
    let labels = [format!("{name} (mean {:.0})", summary.mean_score)];
    let hist = data::histogram(&[&scores], HISTOGRAM_BINS);
    let chart = HistogramChart {
        title: format!(
            "{name}: scores of {} games, median {:.0}",
            summary.games, summary.median_score
        ),
        hist: &hist,
        labels: &labels,
    };
    let mut written = save(&chart, &out.join(format!("{stem}-scores")), format)?;
    let bars = data::reach_bars(&[&tiles], REACH_BARS);
    let chart = ReachChart {
        title: format!("{name}: tile reach"),
        bars: &bars,
        labels: &labels,
    };
    written.extend(save(&chart, &out.join(format!("{stem}-reach")), format)?);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_registers() {
        assert!(ensure_font());
    }

    #[test]
    fn a_learning_folder_gets_its_four_curves_and_two_folders_a_comparison() {
        let tmp = std::env::temp_dir().join(format!("tune2048-plot-learn-{}", std::process::id()));
        let (ours, theirs, out) = (tmp.join("ours"), tmp.join("theirs"), tmp.join("out"));
        std::fs::create_dir_all(&ours).unwrap();
        std::fs::create_dir_all(&theirs).unwrap();
        std::fs::write(
            ours.join(data::PROGRESS_FILE),
            "games,alpha,mean_score,max_score,reach_2048,reach_8192,reach_16384,reach_32768,seconds\n\
             1000,1,25132,158072,0.4370,0.0070,0.0000,0.0000,3.8\n\
             2000,1,47566,225556,0.7740,0.0460,0.0010,0.0000,6.7\n",
        )
        .unwrap();
        // Another learner's log in the same form: only what it reports.
        std::fs::write(
            theirs.join(data::PROGRESS_FILE),
            "games,mean_score,seconds\n1000,20095,14.8\n2000,39777,20.3\n",
        )
        .unwrap();
        let stems = |files: Vec<PathBuf>| -> Vec<String> {
            let mut names: Vec<String> = files
                .iter()
                .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
                .collect();
            names.dedup();
            names
        };
        let four = stems(plot_learning(&ours, &out, Format::Svg).unwrap());
        assert_eq!(
            four,
            [
                "ours-learning",
                "ours-learning-seconds",
                "ours-learning-reach",
                "ours-learning-alpha"
            ]
        );
        let two = stems(plot_learning(&theirs, &out, Format::Svg).unwrap());
        assert_eq!(two, ["theirs-learning", "theirs-learning-seconds"]);
        let both = stems(plot_learning_compare(&[ours, theirs], &out, Format::Svg).unwrap());
        assert_eq!(both, ["learning-compare-games", "learning-compare-seconds"]);
        let svg = std::fs::read_to_string(out.join("learning-compare-seconds.svg")).unwrap();
        assert!(svg.contains("ours") && svg.contains("theirs"));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
