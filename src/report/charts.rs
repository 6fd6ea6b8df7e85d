//! The report's charts as inline SVG text: a run's charts are the ones
//! `plot` draws (through [`crate::plot::draw_run`]); several runs add
//! overlays of their validated ratio to base over wall time and over games.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::model::RunReport;
use crate::plot::data::folder_name;
use crate::plot::draw::OverlayChart;
use crate::plot::{self, Chart, ChartSink, PlotError};

/// One chart of the page.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgChart {
    /// `fitness`, `sigma`, `params`, `scores`, `reach`, `ratio-time`, `ratio-games`.
    pub kind: String,
    /// The heading above the chart.
    pub heading: String,
    /// The SVG element, or why it could not be drawn.
    pub svg: Result<String, String>,
}

/// The heading of a run chart's kind.
fn heading(kind: &str) -> String {
    match kind {
        "fitness" => "Fitness per generation",
        "sigma" => "CMA-ES step size sigma",
        "params" => "Parameter trajectories (normalized coordinates of the mean)",
        "scores" => "Final comparison: score distribution",
        "reach" => "Final comparison: tile reach",
        other => other,
    }
    .to_string()
}

/// Draws a chart to SVG; a panic inside the drawing library (on data it
/// cannot scale) becomes an error rather than ending the program.
fn render(chart: &impl Chart) -> Result<String, String> {
    catch_unwind(AssertUnwindSafe(|| plot::svg(chart)))
        .unwrap_or_else(|_| Err("the drawing library failed on this data".to_string()))
}

/// Collects charts as SVG text.
#[derive(Default)]
struct SvgSink(Vec<SvgChart>);

impl ChartSink for SvgSink {
    fn chart<C: Chart>(&mut self, kind: &str, chart: &C) -> Result<(), PlotError> {
        self.0.push(SvgChart {
            kind: kind.to_string(),
            heading: heading(kind),
            svg: render(chart),
        });
        Ok(())
    }
}

/// Every chart the run has data for, in `plot`'s order.
pub fn run_charts(run: &RunReport) -> Vec<SvgChart> {
    let mut sink = SvgSink::default();
    // The sink itself never fails: a chart that cannot be drawn says so.
    let _ = plot::draw_run(&run.data, &mut sink);
    sink.0
}

/// The validated ratio to base of every run, over wall time and over games
/// played; empty when no run has a validated generation.
pub fn overlay_charts(runs: &[RunReport]) -> Vec<SvgChart> {
    let series = |x: fn(&super::model::RatioPoint) -> f64| -> Vec<(String, Vec<(f64, f64)>)> {
        runs.iter()
            .map(|r| {
                let points = r.ratios().iter().map(|p| (x(p), p.ratio)).collect();
                // The folder's name: runs of one config share their name.
                (folder_name(&r.dir), points)
            })
            .collect()
    };
    let by_time = series(|p| p.elapsed_s);
    if by_time.iter().all(|s| s.1.is_empty()) {
        return Vec::new();
    }
    let by_games = series(|p| p.games as f64);
    let chart = |kind: &str, heading: &str, x_desc: &str, runs: &[(String, Vec<(f64, f64)>)]| {
        let chart = OverlayChart {
            title: format!("validated fitness / base, by {x_desc}"),
            x_desc,
            y_desc: "validated fitness / base",
            runs,
            reference: Some((1.0, "base weights")),
        };
        SvgChart {
            kind: kind.to_string(),
            heading: heading.to_string(),
            svg: render(&chart),
        }
    };
    vec![
        chart(
            "ratio-time",
            "Validated ratio to base over wall time",
            "wall time (s)",
            &by_time,
        ),
        chart(
            "ratio-games",
            "Validated ratio to base over games played",
            "games played",
            &by_games,
        ),
    ]
}
