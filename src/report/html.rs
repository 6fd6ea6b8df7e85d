//! The report page: one self-contained HTML document (inline CSS and SVG,
//! nothing fetched). Every text taken from a run folder is escaped. Key
//! numbers carry a `data-field` attribute, so tests (and other tools) can
//! read them back from the page.
//!
//! A finished page runs no script. A live page (a run going on) reloads
//! itself and carries its heartbeat: when it was written and by when its
//! writer promised the next rewrite. Its one inline script compares that
//! with the clock on every load: past the promise, by [`STALE_MARGIN_SECONDS`],
//! the page says the run stopped without a word and stops reloading.
//! Without JavaScript it reloads through a `<noscript>` refresh and states
//! the promise in words.

use std::fmt::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::charts::{overlay_charts, run_charts, SvgChart};
use super::model::{generation_rows, Note, RunReport, Status};
use crate::plot::data::{folder_name, FinalReport};
use crate::utc::utc_rfc3339;

/// Seconds between reloads of a live page.
pub const REFRESH_SECONDS: u32 = 5;

/// The longest a live page goes unwritten while its writer lives: the live
/// report rewrites it at least this often (`report::observer`).
pub const HEARTBEAT_SECONDS: u64 = 30;

/// How late past its writer's promise a live page may be before it calls
/// the run stopped: room for a slow rewrite on a loaded machine, the
/// reload interval, and clocks that differ a little between the writer and
/// a browser on another machine.
pub const STALE_MARGIN_SECONDS: u64 = 30;

/// When a page was written, and how often its writer rewrites it while the
/// run is live.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    pub written: SystemTime,
    pub heartbeat: Duration,
}

impl Stamp {
    /// Written now, by a writer with the usual heartbeat.
    pub fn now() -> Stamp {
        Stamp {
            written: SystemTime::now(),
            heartbeat: Duration::from_secs(HEARTBEAT_SECONDS),
        }
    }

    /// The latest time the next rewrite is due.
    pub fn due(&self) -> SystemTime {
        self.written + self.heartbeat
    }
}

/// Milliseconds since the Unix epoch (0 before it).
fn epoch_ms(t: SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

/// A live page's clock check: past its promise (and the margin) it shows
/// the stopped text and reloads no more; else it reloads in a while. It
/// records its choice in `data-reload` on the body.
const HEARTBEAT_SCRIPT: &str = "(function () {
  var body = document.body;
  var late = Date.now() - Number(body.getAttribute('data-due-ms'));
  if (late > STALE_MS) {
    document.querySelectorAll('.status-beating').forEach(function (e) { e.hidden = true; });
    document.querySelectorAll('.status-stale').forEach(function (e) { e.hidden = false; });
    body.setAttribute('data-reload', 'stopped');
  } else {
    body.setAttribute('data-reload', 'on');
    setTimeout(function () { location.reload(); }, RELOAD_MS);
  }
})();";

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1500px; padding: 1em 2em; color: #222; background: #fff; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ddd; padding-bottom: 0.2em; margin-top: 1.6em; }
.written { color: #666; margin-top: 0; }
.status { padding: 0.7em 1em; border-radius: 6px; font-weight: 600; }
.status-live { background: #fff4d6; border: 1px solid #e0b040; }
.status-done { background: #e3f4e3; border: 1px solid #5a5; }
.status-stopped { background: #fde8e8; border: 1px solid #c66; }
.notes { background: #f6f6f6; border-left: 4px solid #999; padding: 0.5em 1em; }
.problem { color: #a00; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
tr.tuned td:first-child { font-weight: 600; }
.up { color: #075; } .down { color: #a00; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(600px, 1fr)); gap: 1em; }
figure { margin: 0.5em 0; } figcaption { font-weight: 600; margin-bottom: 0.3em; }
svg { width: 100%; height: auto; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; }
.scroll { max-height: 30em; overflow-y: auto; }
";

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number with thousands separators and `decimals` decimals.
pub fn grouped(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let text = format!("{:.decimals$}", v.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out = format!("{out}.{frac}");
    }
    if v < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '−');
    }
    out
}

/// A fitness or weight value: whole above 1000, else a few decimals.
pub fn value(v: f64) -> String {
    match v.abs() {
        a if a >= 1000.0 => grouped(v, 0),
        a if a >= 10.0 => grouped(v, 1),
        _ => grouped(v, 3),
    }
}

/// Wall time in seconds: a decimal below 10 s.
pub fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.1}")
    } else {
        grouped(s, 0)
    }
}

/// A p-value: scientific below 0.001.
pub fn p_value(p: f64) -> String {
    if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// A span that tests can find: `<span data-field="name">text</span>`.
fn field(name: &str, text: &str) -> String {
    format!("<span data-field=\"{name}\">{}</span>", escape(text))
}

/// Reads back every `data-field` value of a page (or of a browser's dump
/// of it), in page order, entities of [`escape`] undone.
pub fn fields(html: &str) -> Vec<(String, String)> {
    const OPEN: &str = "<span data-field=\"";
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(OPEN) {
        rest = &rest[start + OPEN.len()..];
        let Some((name, after)) = rest.split_once("\">") else {
            break;
        };
        let Some((text, after)) = after.split_once("</span>") else {
            break;
        };
        found.push((name.to_string(), unescape(text)));
        rest = after;
    }
    found
}

/// The inverse of [`escape`].
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The whole page for one run or, overlaid and then one by one, several.
/// `stamp` says when it was written (shown under the title) and, for a live
/// page, by when the next rewrite is due.
pub fn page(runs: &[RunReport], stamp: Stamp) -> String {
    let live = runs.iter().any(|r| r.status.is_live());
    let title = match runs {
        [one] => format!("tune2048 run {}", one.name()),
        _ => format!("tune2048: {} runs compared", runs.len()),
    };
    let written = utc_rfc3339(stamp.written);
    let mut html =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    if live {
        // With a script, the script reloads (or not); without, this does.
        let _ = writeln!(
            html,
            "<noscript><meta http-equiv=\"refresh\" content=\"{REFRESH_SECONDS}\"></noscript>"
        );
    }
    let body = if live {
        format!(
            "<body data-written-ms=\"{}\" data-due-ms=\"{}\">",
            epoch_ms(stamp.written),
            epoch_ms(stamp.due())
        )
    } else {
        "<body>".to_string()
    };
    let _ = write!(
        html,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n{body}\n<h1>{}</h1>\n<p class=\"written\">Written <span data-field=\"written\">{}</span> by tune2048 {}.</p>\n",
        escape(&title),
        escape(&title),
        escape(&written),
        env!("CARGO_PKG_VERSION")
    );
    if runs.len() > 1 {
        html.push_str(&comparison(runs));
    }
    for (i, run) in runs.iter().enumerate() {
        html.push_str(&run_article(run, i, runs.len() > 1, &stamp));
    }
    if live {
        let script = HEARTBEAT_SCRIPT
            .replace("STALE_MS", &(STALE_MARGIN_SECONDS * 1000).to_string())
            .replace(
                "RELOAD_MS",
                &(u64::from(REFRESH_SECONDS) * 1000).to_string(),
            );
        let _ = writeln!(html, "<script>\n{script}\n</script>");
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// One run's part of the page.
fn run_article(run: &RunReport, index: usize, several: bool, stamp: &Stamp) -> String {
    let mut html = String::new();
    if several {
        let _ = writeln!(html, "<h2>{}</h2>", escape(&folder_name(&run.dir)));
    }
    html.push_str(&status(run, stamp));
    html.push_str(&notes(run));
    html.push_str(&story(run));
    html.push_str(&charts_section(&run_charts(run), "charts", "Charts"));
    html.push_str(&final_section(run));
    html.push_str(&weights_section(run));
    html.push_str(&contenders_section(run));
    html.push_str(&generations_section(run));
    html.push_str(&config_section(run));
    if several {
        // Section ids stay unique on the page. Text from the folder cannot
        // match: it is escaped, so its quotes are entities.
        html = html.replace(" id=\"", &format!(" id=\"run-{index}-"));
    }
    format!("<article class=\"run\" id=\"run-{index}\">\n{html}</article>\n")
}

/// The status line. A live one also carries, hidden, the line its page's
/// script shows once the writer is past its promise.
fn status(run: &RunReport, stamp: &Stamp) -> String {
    let dir = escape(&run.dir.display().to_string());
    let after = run.last_generation().map_or(String::new(), |g| {
        format!(" after generation {}", g.generation)
    });
    let rewrites = format!(
        "at least every {} seconds (the next by {} at the latest)",
        stamp.heartbeat.as_secs().max(1),
        utc_rfc3339(stamp.due())
    );
    let reload = format!("This page reloads itself every {REFRESH_SECONDS} seconds.");
    let (class, text) = match &run.status {
        Status::Running => ("live", format!("Running{after}: the tuner rewrites this page as it goes, {rewrites}. {reload}")),
        Status::Finishing(why) => ("live", format!(
            "The generations stopped ({}); the final comparison is being played, and the tuner rewrites this page {rewrites}. {reload}",
            escape(why)
        )),
        Status::Finished(line) => ("done", format!("Finished: {}.", field("stop", line))),
        Status::Interrupted => ("stopped", format!(
            "Interrupted{after} (Ctrl-C). Continue it with <code>tune2048 resume {dir}</code>."
        )),
        Status::Unfinished => ("stopped", format!(
            "Not finished: the journal records no end, and the folder has no lock to say whether its writer is alive. The run is still going (its own report.html reloads itself), or it stopped before its end (kill, crash); <code>tune2048 resume {dir}</code> continues it."
        )),
        Status::Busy => ("live", format!(
            "Running{after} in another process, which holds the folder's lock (its own report.html reloads itself)."
        )),
        Status::Gone => ("stopped", stopped_without_a_word(
            &after,
            "the process that wrote it is gone (killed or crashed): nobody holds the folder's lock",
            &dir,
        )),
    };
    if !run.status.is_live() {
        return format!("<p class=\"status status-{class}\" id=\"status\">{text}</p>\n");
    }
    let mut html =
        format!("<p class=\"status status-{class} status-beating\" id=\"status\">{text}</p>\n");
    {
        let why = format!(
            "the process is gone, or stalled: no update since {}",
            utc_rfc3339(stamp.written)
        );
        let _ = writeln!(
            html,
            "<p class=\"status status-stopped status-stale\" hidden>{}</p>",
            stopped_without_a_word(&after, &why, &dir)
        );
    }
    html
}

/// What a page says of a run whose writer ended without a word, whether
/// the folder's lock tells (`tune2048 report`) or the live page's clock.
fn stopped_without_a_word(after: &str, why: &str, dir: &str) -> String {
    format!(
        "Stopped without a word{after} ({why}); <code>tune2048 resume {dir}</code> continues it."
    )
}

fn notes(run: &RunReport) -> String {
    if run.notes.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        "<section id=\"missing\" class=\"notes\">\n<h3>Missing from this report</h3>\n<ul>\n",
    );
    for note in &run.notes {
        let (class, text) = match note {
            Note::Pending(t) => ("pending", t),
            Note::Problem(t) => ("problem", t),
        };
        let _ = writeln!(html, "<li class=\"{class}\">{}</li>", escape(text));
    }
    html.push_str("</ul>\n</section>\n");
    html
}

/// What was tuned, how the run went, what it found.
fn story(run: &RunReport) -> String {
    let mut html = String::from("<section id=\"summary\">\n<h2>Summary</h2>\n");
    let _ = writeln!(html, "<p>{}</p>", what_was_tuned(run));
    let _ = writeln!(html, "<p>{}</p>", how_it_went(run));
    let _ = writeln!(html, "<p>{}</p>", what_was_found(run));
    if let Some(fin) = &run.data.final_report {
        let _ = writeln!(html, "<p>{}</p>", verdict(fin));
    }
    html.push_str("</section>\n");
    html
}

fn what_was_tuned(run: &RunReport) -> String {
    let names: Vec<String> = run.data.params.iter().map(|p| escape(p)).collect();
    let params = if names.is_empty() {
        "The tuned parameters are unknown.".to_string()
    } else {
        format!(
            "CMA-ES tuned {} parameters ({}).",
            field("params", &names.len().to_string()),
            names.join(", ")
        )
    };
    let Some(c) = &run.config else {
        return params;
    };
    let depths: Vec<String> = c
        .stages
        .iter()
        .map(|s| s.search.depth.to_string())
        .collect();
    let games: Vec<String> = c
        .stages
        .iter()
        .map(|s| s.games_per_candidate.to_string())
        .collect();
    format!(
        "{params} Objective {}, variant {}, search depth {}; population {}, {} games per candidate, {} fresh validation games per generation, seed {}.",
        escape(&format!("{:?}", c.objective)),
        escape(&c.variant.to_string()),
        escape(&depths.join(" then ")),
        c.population(),
        escape(&games.join(" then ")),
        c.validation_games,
        c.seed
    )
}

fn how_it_went(run: &RunReport) -> String {
    let Some(last) = run.last_generation() else {
        return "No generation has finished yet.".to_string();
    };
    let restarts = match run.restarts {
        0 => String::new(),
        n => format!(" with {n} restarts"),
    };
    let reselection = match run.contenders.first() {
        Some(c) => format!(
            " Reselection then replayed {} contenders on {} fresh games each.",
            run.contenders.len(),
            grouped(f64::from(c.games), 0)
        ),
        None => String::new(),
    };
    format!(
        "It ran {} generations{restarts}: {} games in {} s of wall time.{reselection}",
        field("generations", &(last.generation + 1).to_string()),
        field("games", &grouped(last.games as f64, 0)),
        field("elapsed", &seconds(last.elapsed_s)),
    )
}

fn what_was_found(run: &RunReport) -> String {
    let base = run.data.timeline.baseline;
    let base_text = base.map_or(String::new(), |b| {
        format!(
            "The base weights scored {} on the validation games. ",
            field("baseline", &value(b))
        )
    });
    let Some(origin) = &run.best_origin else {
        return match run.best {
            Some(_) => format!("{base_text}The best weights are in best.ron; the journal does not say which generation they come from."),
            None => format!("{base_text}No best weights yet."),
        };
    };
    let ratio = base.filter(|b| *b > 0.0).map_or(String::new(), |b| {
        format!(
            ", {}× base",
            field("best-ratio", &format!("{:.3}", origin.fitness / b))
        )
    });
    format!(
        "{base_text}The best weights ({}) scored {} (95% CI {}..{}) on {} games{ratio}.",
        field("best-origin", &origin.label),
        field("best-fitness", &value(origin.fitness)),
        value(origin.ci95[0]),
        value(origin.ci95[1]),
        grouped(f64::from(origin.games), 0),
    )
}

/// How sure the final comparison makes us.
fn verdict(fin: &FinalReport) -> String {
    let p = &fin.paired;
    let judged = if p.ci95[0] > 0.0 {
        "best beats base: the 95% CI of the paired difference lies above 0"
    } else if p.ci95[1] < 0.0 {
        "best is worse than base: the 95% CI of the paired difference lies below 0"
    } else {
        "the difference is not significant: its 95% CI includes 0"
    };
    format!(
        "On {} fresh paired games, best scored {}× base (mean {} vs {}, p = {}); {judged}.",
        grouped(f64::from(fin.games), 0),
        field("final-ratio", &format!("{:.3}", p.ratio)),
        field("final-best-mean", &grouped(fin.best.mean_score, 0)),
        field("final-base-mean", &grouped(fin.base.mean_score, 0)),
        field("final-p", &p_value(p.p_value)),
    )
}

fn final_section(run: &RunReport) -> String {
    let mut html =
        String::from("<section id=\"final\">\n<h2>Final comparison: best against base</h2>\n");
    let Some(fin) = &run.data.final_report else {
        html.push_str("<p>No final comparison yet.</p>\n</section>\n");
        return html;
    };
    let (a, b) = (&fin.base, &fin.best);
    html.push_str(
        "<table>\n<thead><tr><th></th><th>base</th><th>best</th></tr></thead>\n<tbody>\n",
    );
    let mut row = |label: &str, x: String, y: String| {
        let _ = writeln!(html, "<tr><td>{label}</td><td>{x}</td><td>{y}</td></tr>");
    };
    row("games", a.games.to_string(), b.games.to_string());
    let ci = |s: &crate::stats::Summary| {
        format!(
            "{} ({}..{})",
            grouped(s.mean_score, 0),
            grouped(s.ci95[0], 0),
            grouped(s.ci95[1], 0)
        )
    };
    row("mean score (95% CI)", ci(a), ci(b));
    row(
        "median score",
        grouped(a.median_score, 0),
        grouped(b.median_score, 0),
    );
    for (tile, x, y) in reach_rows(fin) {
        row(&format!("games reaching {tile}"), percent(x), percent(y));
    }
    html.push_str("</tbody>\n</table>\n");
    let p = &fin.paired;
    let _ = writeln!(
        html,
        "<table>\n<tbody>\n<tr><td>paired difference, best − base (95% CI)</td><td>{} ({}..{})</td></tr>\n<tr><td>ratio of means</td><td>{:.3}</td></tr>\n<tr><td>paired t-test p-value</td><td>{}</td></tr>\n<tr><td>best wins / losses / ties</td><td>{}</td></tr>\n</tbody>\n</table>",
        field("final-diff", &grouped(p.mean_diff, 0)),
        field("final-ci-lo", &grouped(p.ci95[0], 0)),
        field("final-ci-hi", &grouped(p.ci95[1], 0)),
        p.ratio,
        p_value(p.p_value),
        field("final-wins", &format!("{} / {} / {}", p.wins, p.losses, p.ties)),
    );
    html.push_str("</section>\n");
    html
}

fn percent(share: f64) -> String {
    format!("{:.1}%", 100.0 * share)
}

/// Tiles some but not all games of either side reached, in order.
fn reach_rows(fin: &FinalReport) -> Vec<(String, f64, f64)> {
    let mut tiles: Vec<(u64, &String)> = fin
        .base
        .reach
        .keys()
        .filter_map(|k| k.parse().ok().map(|t| (t, k)))
        .collect();
    tiles.sort();
    tiles
        .into_iter()
        .filter_map(|(_, k)| {
            let x = *fin.base.reach.get(k)?;
            let y = fin.best.reach.get(k).copied().unwrap_or(0.0);
            let separates = (x > 0.0 && x < 1.0) || (y > 0.0 && y < 1.0);
            separates.then(|| (k.clone(), x, y))
        })
        .collect()
}

fn weights_section(run: &RunReport) -> String {
    let mut html = String::from("<section id=\"weights\">\n<h2>Best weights</h2>\n");
    let (Some(base), Some(best)) = (&run.base, &run.best) else {
        html.push_str("<p>No best weights to show yet (see above).</p>\n</section>\n");
        return html;
    };
    html.push_str("<p>Tuned parameters in bold; other parameters are listed only where they differ from base.</p>\n<table>\n<thead><tr><th>parameter</th><th>base</th><th>best</th><th>change</th><th>change %</th></tr></thead>\n<tbody>\n");
    for (name, y) in best {
        let (name, y) = (name.as_str(), *y);
        let Some(x) = RunReport::value(base, name) else {
            continue;
        };
        let tuned = run.data.params.iter().any(|p| p == name);
        if !tuned && x == y {
            continue;
        }
        let class = if y > x {
            "up"
        } else if y < x {
            "down"
        } else {
            ""
        };
        let pct = if x != 0.0 {
            let sign = if y > x { "+" } else { "" };
            format!("{sign}{}%", grouped(100.0 * (y - x) / x.abs(), 1))
        } else {
            String::new()
        };
        let _ = writeln!(
            html,
            "<tr{}><td>{name}</td><td>{}</td><td>{}</td><td class=\"{class}\">{}{}</td><td class=\"{class}\">{pct}</td></tr>",
            if tuned { " class=\"tuned\"" } else { "" },
            value(x),
            value(y),
            if y > x { "+" } else { "" },
            value(y - x),
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n");
    html
}

/// Charts under a heading; a chart that could not be drawn says why.
fn charts_section(charts: &[SvgChart], id: &str, title: &str) -> String {
    let mut html = format!("<section id=\"{id}\">\n<h2>{title}</h2>\n");
    if charts.is_empty() {
        html.push_str("<p>Nothing to draw yet.</p>\n</section>\n");
        return html;
    }
    html.push_str("<div class=\"grid\">\n");
    for chart in charts {
        let body = match &chart.svg {
            Ok(svg) => svg.clone(),
            Err(e) => format!(
                "<p class=\"problem\">This chart could not be drawn: {}</p>",
                escape(e)
            ),
        };
        let _ = writeln!(
            html,
            "<figure class=\"chart\" data-chart=\"{}\">\n<figcaption>{}</figcaption>\n{body}</figure>",
            escape(&chart.kind),
            escape(&chart.heading)
        );
    }
    html.push_str("</div>\n</section>\n");
    html
}

fn contenders_section(run: &RunReport) -> String {
    if run.contenders.is_empty() {
        return String::new();
    }
    let mut html = String::from("<section id=\"reselection\">\n<h2>Reselection</h2>\n<p>The leading contenders replayed on shared fresh games before the choice.</p>\n<table>\n<thead><tr><th>contender</th><th>fitness</th><th>95% CI</th><th>games</th></tr></thead>\n<tbody>\n");
    for c in &run.contenders {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}..{}</td><td>{}</td></tr>",
            escape(&c.label),
            value(c.fitness),
            value(c.ci95[0]),
            value(c.ci95[1]),
            c.games
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n");
    html
}

fn generations_section(run: &RunReport) -> String {
    let mut html = String::from("<section id=\"generations\">\n<h2>Generations</h2>\n");
    let rows = generation_rows(&run.data.timeline);
    if rows.is_empty() {
        html.push_str("<p>No generation has finished yet.</p>\n</section>\n");
        return html;
    }
    html.push_str("<div class=\"scroll\"><table>\n<thead><tr><th>generation</th><th>candidates</th><th>games</th><th>best</th><th>median</th><th>mean</th><th>sigma</th><th>validated (95% CI)</th><th>÷ base</th><th>time (s)</th></tr></thead>\n<tbody>\n");
    let base = run.data.timeline.baseline.filter(|b| *b > 0.0);
    for (g, v) in rows {
        let (val, ratio) = match v {
            Some(v) => (
                format!(
                    "{} ({}..{})",
                    value(v.fitness),
                    value(v.ci95[0]),
                    value(v.ci95[1])
                ),
                base.map_or(String::new(), |b| format!("{:.3}", v.fitness / b)),
            ),
            None => (String::new(), String::new()),
        };
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.4}</td><td>{val}</td><td>{ratio}</td><td>{:.1}</td></tr>",
            g.generation, g.evaluations, grouped(g.games as f64, 0), value(g.best), value(g.median), value(g.mean), g.sigma, g.elapsed_s
        );
    }
    html.push_str("</tbody>\n</table></div>\n</section>\n");
    html
}

fn config_section(run: &RunReport) -> String {
    let mut html = String::from("<section id=\"config\">\n<h2>Config and metadata</h2>\n");
    if let Some(m) = &run.meta {
        let _ = writeln!(
            html,
            "<table>\n<tbody>\n<tr><td>config file</td><td>{}</td></tr>\n<tr><td>base weights</td><td>{}</td></tr>\n<tr><td>started (UTC)</td><td>{}</td></tr>\n<tr><td>tune2048 version</td><td>{}</td></tr>\n<tr><td>threads / processes / cores</td><td>{} / {} / {}</td></tr>\n</tbody>\n</table>",
            escape(&m.config), escape(&m.base_weights), escape(&m.started), escape(&m.version), m.threads, m.processes.max(1), m.cores
        );
    }
    match &run.config_text {
        Some(text) => {
            let _ = writeln!(
                html,
                "<p>The resolved config (<code>config.ron</code>):</p>\n<pre>{}</pre>",
                escape(text)
            );
        }
        None => html.push_str("<p>No config.ron.</p>\n"),
    }
    html.push_str("</section>\n");
    html
}

/// Several runs side by side: a table and the overlaid ratio charts.
fn comparison(runs: &[RunReport]) -> String {
    let mut html = String::from("<section id=\"comparison\">\n<h2>Runs compared</h2>\n<table>\n<thead><tr><th>run</th><th>status</th><th>generations</th><th>games</th><th>time (s)</th><th>best validated ÷ base</th><th>final ratio</th><th>final p</th></tr></thead>\n<tbody>\n");
    for (i, run) in runs.iter().enumerate() {
        let last = run.last_generation();
        let best_ratio = run
            .ratios()
            .iter()
            .map(|p| p.ratio)
            .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))));
        let fin = run.data.final_report.as_ref().map(|f| &f.paired);
        let _ = writeln!(
            html,
            "<tr><td><a href=\"#run-{i}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&folder_name(&run.dir)),
            status_word(&run.status),
            last.map_or(String::new(), |g| (g.generation + 1).to_string()),
            last.map_or(String::new(), |g| grouped(g.games as f64, 0)),
            last.map_or(String::new(), |g| seconds(g.elapsed_s)),
            best_ratio.map_or(String::new(), |r| format!("{r:.3}")),
            fin.map_or(String::new(), |p| format!("{:.3}", p.ratio)),
            fin.map_or(String::new(), |p| p_value(p.p_value)),
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n");
    html.push_str(&charts_section(
        &overlay_charts(runs),
        "overlays",
        "Validated ratio to base, by run",
    ));
    html
}

fn status_word(status: &Status) -> &'static str {
    match status {
        Status::Running => "running",
        Status::Finishing(_) => "final comparison",
        Status::Finished(_) => "finished",
        Status::Interrupted => "interrupted",
        Status::Unfinished => "not finished",
        Status::Busy => "running elsewhere",
        Status::Gone => "stopped without a word",
    }
}
