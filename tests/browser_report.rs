//! The report of a real smoke run, opened in a real browser (headless
//! Chromium): the page renders (a screenshot that is not blank), the DOM
//! holds the charts' titles and the summary's numbers, and the console
//! stays silent. A live page whose writer is past its promise says the run
//! stopped without a word and stops reloading; a fresh one goes on.
//!
//! The browser is `$TUNE2048_BROWSER`, else `chromium` on the PATH. Without
//! one the test prints "skipped: no browser" and passes, unless
//! `TUNE2048_REQUIRE_BROWSER=1` (as in CI), where it fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tune2048::report::html::{fields, page, Stamp};
use tune2048::report::{RunReport, Status};

use crate::util::{repo_path, text, tune, TempDir};

/// How long one browser run may take.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(120);
/// The share of the screenshot's pixels that must differ from its background.
const MIN_INK: f64 = 0.05;

/// The browser to use, if any.
fn find_browser() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TUNE2048_BROWSER").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromium"))
        .find(|p| p.is_file())
}

/// Headless Chromium with a fresh profile and nothing running beside the page.
fn chromium(browser: &Path, profile: &Path) -> Command {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

/// Runs `cmd` to its end, killing it after [`BROWSER_TIMEOUT`].
fn run_bounded(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the browser starts");
    // Read both pipes on threads, so a chatty browser never blocks on them.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).map(|_| v)
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).map(|_| v)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > BROWSER_TIMEOUT {
            let _ = child.kill();
            panic!("the browser ran past {BROWSER_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap().unwrap(),
        stderr: err.join().unwrap().unwrap(),
    }
}

/// Console messages of the page: Chromium with `--enable-logging=stderr
/// --v=0` prints each as a `…:INFO:CONSOLE:…` line on stderr.
fn console_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

/// The share of pixels that differ from the top-left one (the page's background).
fn ink(png_path: &Path) -> f64 {
    let file = std::fs::File::open(png_path).unwrap();
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| &p[..channels.min(3)])
        .collect();
    let background = pixels[0];
    let inked = pixels.iter().filter(|p| **p != background).count();
    inked as f64 / pixels.len() as f64
}

/// The browser, or `None` after saying the test is skipped (a failure
/// where `TUNE2048_REQUIRE_BROWSER=1`).
fn browser_or_skip() -> Option<PathBuf> {
    let browser = find_browser();
    if browser.is_none() {
        assert!(
            std::env::var("TUNE2048_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "no browser found (set TUNE2048_BROWSER or put chromium on the PATH), and TUNE2048_REQUIRE_BROWSER=1"
        );
        // Straight to stderr: the test harness would swallow println! of a passing test.
        let _ = writeln!(
            std::io::stderr(),
            "browser_report: skipped: no browser (set TUNE2048_BROWSER or put chromium on the PATH)"
        );
    }
    browser
}

#[test]
fn the_report_of_a_smoke_run_renders_in_chromium() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = TempDir::new("browser");
    let folder = tune(&repo_path("configs/smoke.ron"), &dir.join("runs"), None);
    let page = folder.join("report.html");
    let url = format!("file://{}", page.canonicalize().unwrap().display());

    let shot = dir.join("shot.png");
    let out = run_bounded(
        chromium(&browser, &dir.join("profile-shot"))
            .arg("--window-size=1200,2400")
            .arg(format!("--screenshot={}", shot.display()))
            .arg(&url),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let inked = ink(&shot);
    assert!(
        inked > MIN_INK,
        "the screenshot is nearly blank: {inked:.4} of its pixels inked"
    );

    let out = run_bounded(
        chromium(&browser, &dir.join("profile-dom"))
            .args(["--enable-logging=stderr", "--v=0", "--dump-dom"])
            .arg(&url),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dom = text(&out.stdout);
    for title in [
        "smoke: fitness per generation",
        "smoke: CMA-ES step size sigma",
        "smoke: parameter trajectories",
        "smoke: tile reach, best vs base",
    ] {
        assert!(
            dom.contains(title),
            "the DOM lacks the chart title {title:?}"
        );
    }
    assert!(dom.contains("smoke: final scores, 40 paired games"));
    let want = fields(&std::fs::read_to_string(&page).unwrap());
    assert!(want.iter().any(|(k, _)| k == "final-ratio"), "{want:?}");
    assert_eq!(fields(&dom), want, "the summary's numbers in the DOM");
    let stderr = text(&out.stderr);
    assert_eq!(
        console_lines(&stderr),
        Vec::<&str>::new(),
        "console messages"
    );
}

/// The DOM of `page` after its scripts ran, as Chromium dumps it.
fn dom_of(browser: &Path, profile: &Path, page: &Path) -> String {
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let out = run_bounded(
        chromium(browser, profile)
            .args(["--enable-logging=stderr", "--v=0", "--dump-dom"])
            .arg(&url),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        console_lines(&text(&out.stderr)),
        Vec::<&str>::new(),
        "console messages"
    );
    text(&out.stdout)
}

/// The opening tag of the first element whose class list holds `class`.
fn tag_with_class<'a>(dom: &'a str, class: &str) -> &'a str {
    let at = dom
        .find(class)
        .unwrap_or_else(|| panic!("no {class} in the DOM"));
    let start = dom[..at].rfind('<').unwrap();
    let end = at + dom[at..].find('>').unwrap();
    &dom[start..=end]
}

#[test]
fn a_live_page_past_its_heartbeat_says_its_writer_stopped_and_stops_reloading() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = TempDir::new("browser-stale");
    let folder = dir.join("run");
    std::fs::create_dir_all(&folder).unwrap();
    let mut run = RunReport::load(&folder);
    run.status = Status::Running;
    let write = |name: &str, ago: Duration| {
        let stamp = Stamp {
            written: std::time::SystemTime::now() - ago,
            heartbeat: Duration::from_secs(30),
        };
        let path = dir.join(name);
        std::fs::write(&path, page(std::slice::from_ref(&run), stamp)).unwrap();
        path
    };

    // Written an hour ago, with a rewrite promised within 30 s: the writer is gone.
    let stale = write("stale.html", Duration::from_secs(3600));
    let dom = dom_of(&browser, &dir.join("profile-stale"), &stale);
    assert!(
        dom.contains("data-reload=\"stopped\""),
        "the stale page still reloads"
    );
    let stopped = tag_with_class(&dom, "status-stale");
    assert!(!stopped.contains("hidden"), "{stopped}");
    let running = tag_with_class(&dom, "status-beating");
    assert!(running.contains("hidden"), "{running}");
    assert!(
        dom.contains("Stopped without a word (the process is gone, or stalled: no update since")
    );

    // Written just now: it says Running and reloads.
    let fresh = write("fresh.html", Duration::ZERO);
    let dom = dom_of(&browser, &dir.join("profile-fresh"), &fresh);
    assert!(
        dom.contains("data-reload=\"on\""),
        "the fresh page does not reload"
    );
    assert!(tag_with_class(&dom, "status-stale").contains("hidden"));
    assert!(!tag_with_class(&dom, "status-beating").contains("hidden"));
}
