//! Drawing: one chart type per struct, each a thin layer over plotters that
//! draws on any backend (PNG or SVG). The numbers come ready-made from
//! [`super::data`].

use std::fmt::Display;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::data::{min_max, FitnessSeries, Histogram, ParamSeries, ReachBars};

/// The font family every text uses; `super::ensure_font` registers the
/// embedded font under this name.
pub const FONT: &str = "sans-serif";

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    /// Size in pixels (PNG) or user units (SVG).
    fn size(&self) -> (u32, u32) {
        (1000, 600)
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

fn err(e: impl Display) -> String {
    e.to_string()
}

/// A visually distinct colour for series `i`.
fn series_color(i: usize) -> RGBColor {
    const COLORS: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    COLORS[i % COLORS.len()]
}

/// Many distinct hues (golden-ratio steps around the colour wheel).
fn hue_color(i: usize) -> HSLColor {
    let hue = (i as f64 * 0.618_033_988_749_895) % 1.0;
    let lightness = if i.is_multiple_of(2) { 0.40 } else { 0.52 };
    HSLColor(hue, 0.75, lightness)
}

/// `(lo, hi)` widened by 5% each side (and made non-empty).
fn padded((lo, hi): (f64, f64)) -> std::ops::Range<f64> {
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    (lo - 0.05 * span)..(hi + 0.05 * span)
}

/// A generation axis range that is never empty.
fn generation_range(lo: u32, hi: u32) -> std::ops::Range<u32> {
    lo..hi.max(lo + 1)
}

/// A number in a short form for axis labels: 1234567 → 1.23M.
fn short_number(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// Whole decades around `lo..hi` (plotters labels a log axis reliably only
/// when it starts at a power of ten).
fn decade_range(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let floor = 10f64.powf(lo.log10().floor());
    let ceil = 10f64.powf(hi.log10().ceil());
    floor..ceil.max(floor * 10.0)
}

/// A positive number to three significant digits, trailing zeros dropped:
/// 0.7, 0.0523, 1.25; scientific notation outside 0.001..10000.
fn three_digits(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || !(1e-3..1e4).contains(&a) {
        return format!("{v:.2e}");
    }
    let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// How an axis writes its labels.
type LabelFormat<'f, V> = &'f dyn Fn(&V) -> String;

/// The chart [`frame`] gives back, in the coordinates of its two axes.
type FramedChart<'a, DB, X, Y> = ChartContext<
    'a,
    DB,
    Cartesian2d<<X as AsRangedCoord>::CoordDescType, <Y as AsRangedCoord>::CoordDescType>,
>;

/// One axis of a chart: its range and name, and where the defaults do not
/// serve, the room for its labels, how many there are, how they are written
/// and whether grid lines cross it.
struct Axis<'f, R: AsRangedCoord> {
    range: R,
    desc: &'f str,
    label_area: Option<u32>,
    labels: Option<usize>,
    format: Option<LabelFormat<'f, R::Value>>,
    grid: bool,
}

impl<'f, R: AsRangedCoord> Axis<'f, R> {
    fn new(range: R, desc: &'f str) -> Self {
        Axis {
            range,
            desc,
            label_area: None,
            labels: None,
            format: None,
            grid: true,
        }
    }

    /// Pixels kept beside the axis for its labels.
    fn label_area(mut self, pixels: u32) -> Self {
        self.label_area = Some(pixels);
        self
    }

    /// How many labels the axis has (about).
    fn labels(mut self, count: usize) -> Self {
        self.labels = Some(count);
        self
    }

    fn format(mut self, format: LabelFormat<'f, R::Value>) -> Self {
        self.format = Some(format);
        self
    }

    /// No grid lines across this axis.
    fn no_grid(mut self) -> Self {
        self.grid = false;
        self
    }
}

/// Room for the labels of the generation (or score, tile) axis.
const X_LABEL_AREA: u32 = 45;
/// Room for the labels of the value axis, unless the axis says otherwise.
const Y_LABEL_AREA: u32 = 80;

/// The frame every chart draws in: a white canvas, the title, both axes with
/// their names and labels, and the grid; the chart then draws its series.
fn frame<'a, DB, X, Y>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
    x: Axis<'_, X>,
    y: Axis<'_, Y>,
) -> Result<FramedChart<'a, DB, X, Y>, String>
where
    DB: DrawingBackend,
    X: AsRangedCoord,
    Y: AsRangedCoord,
    X::CoordDescType: ValueFormatter<X::Value>,
    Y::CoordDescType: ValueFormatter<Y::Value>,
{
    area.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 24))
        .margin(15)
        .x_label_area_size(x.label_area.unwrap_or(X_LABEL_AREA))
        .y_label_area_size(y.label_area.unwrap_or(Y_LABEL_AREA))
        .build_cartesian_2d(x.range, y.range)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x.desc)
        .y_desc(y.desc)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16));
    if let Some(count) = x.labels {
        mesh.x_labels(count);
    }
    if let Some(count) = y.labels {
        mesh.y_labels(count);
    }
    if let Some(format) = x.format {
        mesh.x_label_formatter(format);
    }
    if let Some(format) = y.format {
        mesh.y_label_formatter(format);
    }
    if !x.grid {
        mesh.disable_x_mesh();
    }
    if !y.grid {
        mesh.disable_y_mesh();
    }
    mesh.draw().map_err(err)?;
    Ok(chart)
}

/// An axis label in [`short_number`]'s form.
fn short_label(v: &f64) -> String {
    short_number(*v)
}

fn legend_box<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .draw()
        .map_err(err)
}

/// Population best, median and mean per generation, the validated mean with
/// its 95% CI, and the base weights' fitness.
pub struct FitnessChart<'a> {
    pub title: String,
    pub data: &'a FitnessSeries,
}

impl Chart for FitnessChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let ((g0, g1), values) = self.data.bounds().ok_or("no generations to draw")?;
        let xs = generation_range(g0, g1);
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(xs.clone(), "generation"),
            Axis::new(padded(values), "fitness").format(&short_label),
        )?;
        if let Some(base) = self.data.baseline {
            let grey = RGBColor(90, 90, 90);
            chart
                .draw_series(DashedLineSeries::new(
                    [(xs.start, base), (xs.end, base)],
                    8,
                    5,
                    grey.stroke_width(2),
                ))
                .map_err(err)?
                .label("base weights")
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], grey.stroke_width(2))
                });
        }
        let lines = [
            ("population best", &self.data.best, series_color(2)),
            ("population median", &self.data.median, series_color(0)),
            ("population mean", &self.data.mean, series_color(9)),
        ];
        for (label, points, color) in lines {
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        if !self.data.validation.is_empty() {
            let red = series_color(3);
            chart
                .draw_series(self.data.validation.iter().map(|&(g, v, lo, hi)| {
                    ErrorBar::new_vertical(g, lo, v, hi, red.stroke_width(2), 8)
                }))
                .map_err(err)?;
            chart
                .draw_series(LineSeries::new(
                    self.data.validation.iter().map(|&(g, v, _, _)| (g, v)),
                    red.stroke_width(3),
                ))
                .map_err(err)?
                .label("validated mean (95% CI)")
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], red.stroke_width(3)));
        }
        legend_box(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

/// Curves of learning runs: one line per series against games or seconds
/// (the mean score of each block, a reach share, the rate), with a legend
/// where there are several.
pub struct LearningChart<'a> {
    pub title: String,
    pub x_label: &'a str,
    pub y_label: &'a str,
    /// (label, points), each point (x, y) at a block's end.
    pub series: &'a [(String, Vec<(f64, f64)>)],
    /// Whether y is a share, drawn as a percentage from 0 to 100%.
    pub share: bool,
}

impl Chart for LearningChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let points = || self.series.iter().flat_map(|(_, p)| p.iter());
        let (_, x_hi) = min_max(points().map(|p| p.0)).ok_or("no blocks to draw")?;
        let (_, y_hi) = min_max(points().map(|p| p.1)).ok_or("no values")?;
        let y_top = if self.share {
            1.0
        } else {
            (y_hi * 1.05).max(f64::MIN_POSITIVE)
        };
        let percent = |v: &f64| format!("{:.0}%", 100.0 * v);
        let y_format: &dyn Fn(&f64) -> String = if self.share { &percent } else { &short_label };
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(0.0..x_hi.max(1.0), self.x_label).format(&short_label),
            Axis::new(0.0..y_top, self.y_label).format(y_format),
        )?;
        for (i, (label, points)) in self.series.iter().enumerate() {
            let style = series_color(i).stroke_width(2);
            chart
                .draw_series(LineSeries::new(points.iter().copied(), style))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style));
        }
        if self.series.len() > 1 {
            legend_box(&mut chart, SeriesLabelPosition::LowerRight)?;
        }
        Ok(())
    }
}

/// CMA-ES step size per generation on a log axis.
pub struct SigmaChart<'a> {
    pub title: String,
    pub points: &'a [(u32, f64)],
}

impl Chart for SigmaChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let first = self.points.first().ok_or("no generations to draw")?;
        let last = self.points.last().unwrap_or(first);
        let (lo, hi) = min_max(self.points.iter().map(|p| p.1)).ok_or("no sigma values")?;
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(generation_range(first.0, last.0), "generation"),
            Axis::new(decade_range(lo, hi).log_scale(), "sigma (log scale)")
                .labels(12)
                .format(&|v| three_digits(*v)),
        )?;
        let color = series_color(4);
        chart
            .draw_series(LineSeries::new(
                self.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(err)?;
        chart
            .draw_series(
                self.points
                    .iter()
                    .map(|&p| Circle::new(p, 3, color.filled())),
            )
            .map_err(err)?;
        Ok(())
    }
}

/// Every tuned parameter's normalized mean per generation, with a legend
/// ordered by the last value so it reads top to bottom like the line ends.
pub struct ParamsChart<'a> {
    pub title: String,
    pub series: &'a [ParamSeries],
}

impl Chart for ParamsChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 720.max(120 + 22 * self.series.len() as u32))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let all = self.series.iter().flat_map(|s| s.points.iter());
        let (g0, g1) = all
            .clone()
            .fold(None, |acc: Option<(u32, u32)>, p| match acc {
                None => Some((p.0, p.0)),
                Some((a, b)) => Some((a.min(p.0), b.max(p.0))),
            })
            .ok_or("no parameter trajectories to draw")?;
        let values = min_max(all.map(|p| p.1)).ok_or("no parameter values")?;
        let (width, _) = root.dim_in_pixel();
        let (left, right) = root.split_horizontally(width.saturating_sub(230));
        right.fill(&WHITE).map_err(err)?;
        let mut chart = frame(
            &left,
            &self.title,
            Axis::new(generation_range(g0, g1), "generation"),
            Axis::new(padded(values), "normalized parameter (distribution mean)").label_area(60),
        )?;
        for (i, s) in self.series.iter().enumerate() {
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    hue_color(i).stroke_width(2),
                ))
                .map_err(err)?;
        }
        // The legend, ordered by each parameter's last value, highest first.
        let mut order: Vec<usize> = (0..self.series.len()).collect();
        let last = |i: usize| self.series[i].points.last().map_or(f64::NAN, |p| p.1);
        order.sort_by(|&a, &b| last(b).total_cmp(&last(a)));
        let font = (FONT, 15).into_font().color(&BLACK);
        for (row, &i) in order.iter().enumerate() {
            let y = 60 + 22 * row as i32;
            right
                .draw(&PathElement::new(
                    [(5, y), (30, y)],
                    hue_color(i).stroke_width(3),
                ))
                .map_err(err)?;
            let label = format!("{} ({:+.3})", self.series[i].name, last(i));
            right
                .draw(&Text::new(label, (36, y - 8), font.clone()))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// Score histograms of one or more samples over shared bins, overlaid.
pub struct HistogramChart<'a> {
    pub title: String,
    pub hist: &'a Histogram,
    pub labels: &'a [String],
}

impl Chart for HistogramChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let h = self.hist;
        let end = h.start + h.width * h.bins() as f64;
        let top = f64::from(h.max_count().max(1)) * 1.08;
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(h.start..end, "score")
                .format(&short_label)
                .no_grid(),
            Axis::new(0.0..top, "games")
                .label_area(70)
                .format(&|v| format!("{v:.0}")),
        )?;
        let alpha = if h.counts.len() > 1 { 0.45 } else { 0.8 };
        for (k, row) in h.counts.iter().enumerate() {
            let color = series_color(k);
            let label = self.labels.get(k).cloned().unwrap_or_default();
            chart
                .draw_series(
                    row.iter()
                        .enumerate()
                        .filter(|(_, &c)| c > 0)
                        .map(|(b, &c)| {
                            let x0 = h.start + h.width * b as f64;
                            Rectangle::new(
                                [(x0, 0.0), (x0 + h.width, f64::from(c))],
                                color.mix(alpha).filled(),
                            )
                        }),
                )
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 16, y + 6)], color.mix(alpha).filled())
                });
        }
        legend_box(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// Grouped bars: for each tile, the share of each sample's games reaching it.
pub struct ReachChart<'a> {
    pub title: String,
    pub bars: &'a ReachBars,
    pub labels: &'a [String],
}

impl Chart for ReachChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let tiles = &self.bars.tiles;
        if tiles.is_empty() {
            return Err("no tiles to draw".into());
        }
        // One segment per tile; a lone tile gets an empty second segment
        // because plotters cannot map a one-value range.
        let segments = (tiles.len() as u32).max(2);
        let tile_label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) => {
                tiles.get(*i as usize).map_or(String::new(), u32::to_string)
            }
            _ => String::new(),
        };
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(
                (0..segments - 1).into_segmented(),
                "tile reached (at least)",
            )
            .labels(tiles.len() + 1)
            .format(&tile_label)
            .no_grid(),
            Axis::new(0.0..1.12, "share of games")
                .label_area(70)
                .format(&|v| format!("{:.0}%", v * 100.0)),
        )?;
        // Bars sit side by side inside each tile's segment; plotters has no
        // coordinate between segment edges, so they are placed by pixel margins.
        let (plot_width, _) = chart.plotting_area().dim_in_pixel();
        let segment = plot_width / segments;
        let groups = self.bars.shares.len().max(1) as u32;
        let pad = segment / 8;
        let bar = (segment.saturating_sub(2 * pad) / groups).max(1);
        for (k, row) in self.bars.shares.iter().enumerate() {
            let color = series_color(k);
            let left = pad + bar * k as u32;
            let right = segment.saturating_sub(left + bar);
            let label = self.labels.get(k).cloned().unwrap_or_default();
            chart
                .draw_series(row.iter().enumerate().map(|(i, &share)| {
                    let i = i as u32;
                    let mut r = Rectangle::new(
                        [
                            (SegmentValue::Exact(i), 0.0),
                            (SegmentValue::Exact(i + 1), share),
                        ],
                        color.filled(),
                    );
                    r.set_margin(0, 0, left, right);
                    r
                }))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 16, y + 6)], color.filled())
                });
            let font = (FONT, 12).into_font().color(&BLACK);
            chart
                .draw_series(row.iter().enumerate().map(|(i, &share)| {
                    let at = (SegmentValue::Exact(i as u32), share);
                    let text = format!("{:.1}%", share * 100.0);
                    let x = (left + bar / 2) as i32 - 3 * text.len() as i32;
                    EmptyElement::at(at) + Text::new(text, (x, -15), font.clone())
                }))
                .map_err(err)?;
        }
        legend_box(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// Headline fitness curves of several runs, overlaid.
pub struct CompareChart<'a> {
    pub title: String,
    /// (label, points) per run.
    pub runs: &'a [(String, Vec<(u32, f64)>)],
}

impl Chart for CompareChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let points = self.runs.iter().flat_map(|r| r.1.iter());
        let g1 = points
            .clone()
            .map(|p| p.0)
            .max()
            .ok_or("no generations to draw")?;
        let g0 = points.clone().map(|p| p.0).min().unwrap_or(0);
        let values = min_max(points.map(|p| p.1)).ok_or("no fitness values")?;
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(generation_range(g0, g1), "generation"),
            Axis::new(padded(values), "fitness").format(&short_label),
        )?;
        for (i, (label, run)) in self.runs.iter().enumerate() {
            let color = series_color(i);
            chart
                .draw_series(LineSeries::new(run.iter().copied(), color.stroke_width(2)))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        legend_box(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

/// Curves of several runs over a shared numeric axis (wall time, games),
/// with an optional dashed reference level.
pub struct OverlayChart<'a> {
    pub title: String,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    /// (label, points) per run.
    pub runs: &'a [(String, Vec<(f64, f64)>)],
    /// A level drawn dashed across the chart, with its label.
    pub reference: Option<(f64, &'a str)>,
}

impl Chart for OverlayChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let points = self.runs.iter().flat_map(|r| r.1.iter());
        let xs = min_max(points.clone().map(|p| p.0)).ok_or("no points to draw")?;
        let ys = min_max(points.map(|p| p.1).chain(self.reference.map(|r| r.0)))
            .ok_or("no points to draw")?;
        let x_range = padded(xs);
        let mut chart = frame(
            root,
            &self.title,
            Axis::new(x_range.clone(), self.x_desc).format(&short_label),
            Axis::new(padded(ys), self.y_desc).format(&short_label),
        )?;
        if let Some((level, label)) = self.reference {
            let grey = RGBColor(90, 90, 90);
            chart
                .draw_series(DashedLineSeries::new(
                    [(x_range.start, level), (x_range.end, level)],
                    8,
                    5,
                    grey.stroke_width(2),
                ))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], grey.stroke_width(2))
                });
        }
        for (i, (label, run)) in self.runs.iter().enumerate() {
            let color = series_color(i);
            let style = color.stroke_width(2);
            chart
                .draw_series(LineSeries::new(run.iter().copied(), style))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style));
            chart
                .draw_series(run.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(err)?;
        }
        legend_box(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers() {
        assert_eq!(short_number(1_234_567.0), "1.23M");
        assert_eq!(short_number(45_600.0), "46k");
        assert_eq!(short_number(250.0), "250");
        assert_eq!(short_number(3.0), "3.00");
        assert_eq!(short_number(0.126), "0.13");
    }

    #[test]
    fn three_significant_digits() {
        assert_eq!(three_digits(0.7), "0.7");
        assert_eq!(three_digits(0.052_34), "0.0523");
        assert_eq!(three_digits(1.25), "1.25");
        assert_eq!(three_digits(300.0), "300");
        assert_eq!(three_digits(2e-5), "2.00e-5");
    }

    #[test]
    fn padding_never_collapses() {
        assert_eq!(padded((0.0, 10.0)), -0.5..10.5);
        let r = padded((5.0, 5.0));
        assert!(r.start < 5.0 && r.end > 5.0);
        assert_eq!(generation_range(3, 3), 3..4);
    }
}
