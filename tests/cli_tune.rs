//! The tuner through the real binary: thread-count independence, exact
//! resume after Ctrl-C and after `kill -9` (stopped at a known journal
//! record by the test hook `TUNE2048_TEST_PAUSE_AFTER_RECORD`), no
//! half-written file after `kill -9` at any instant, and config errors.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tune2048::tune::outputs::PAUSE_AFTER_RECORD;

use crate::util::{bin, outcome, repo_path, run_folder, tune, TempDir};

/// A job small enough for a test, slow enough (depth 1) to be killed mid-generation.
pub(crate) fn write_config(dir: &Path, generations: u32) -> PathBuf {
    let weights = repo_path("configs/weights/nneonneo.ron");
    let text = format!(
        r#"(
    name: "t",
    variant: Classic(p4: 0.1),
    search: (depth: Fixed(1), prob_cutoff: 0.0001),
    base_weights: "{}",
    params: [
        (name: "empty", min: 0.0, max: 2000.0, scale: 100.0),
        (name: "monotonicity_power", min: 0.5, max: 8.0, scale: 1.0),
        (name: "sum", min: 0.0, max: 100.0, scale: 5.0),
    ],
    objective: MeanScore,
    games_per_candidate: 24,
    population: 6,
    sigma0: 0.5,
    stop: (generations: {generations}),
    validation_games: 16,
    final_games: 24,
    reselect: Some((top: 2, games: 16)),
    seed: 5,
)
"#,
        weights.display()
    );
    let path = dir.join("job.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts a one-thread tuning run in the background; returns it and its run folder.
pub(crate) fn start_tune(config: &Path, out: &Path) -> (std::process::Child, PathBuf) {
    let child = bin()
        .args([
            "tune",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(|| out.is_dir() && std::fs::read_dir(out).unwrap().next().is_some());
    (child, run_folder(out))
}

pub(crate) fn wait_for(mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(120), "timed out");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The journal's complete lines.
fn journal_lines(dir: &Path) -> usize {
    std::fs::read(dir.join("journal.jsonl"))
        .map_or(0, |t| t.iter().filter(|b| **b == b'\n').count())
}

pub(crate) fn journal_has(dir: &Path, needle: &str) -> bool {
    std::fs::read_to_string(dir.join("journal.jsonl")).is_ok_and(|t| t.contains(needle))
}

/// The number of the last generation record in the run's journal.
fn last_generation(dir: &Path) -> Option<u32> {
    let records = tune2048::tune::journal::read(&dir.join("journal.jsonl"))
        .ok()?
        .records;
    records
        .iter()
        .filter_map(|r| match r {
            tune2048::tune::journal::Record::Generation { generation, .. } => Some(*generation),
            _ => None,
        })
        .max()
}

#[test]
fn one_and_two_threads_give_the_same_run() {
    let dir = TempDir::new("threads");
    let config = write_config(&dir, 3);
    let one = tune(&config, &dir.join("one"), Some(1));
    let two = tune(&config, &dir.join("two"), Some(2));
    assert_eq!(outcome(&one), outcome(&two));
    for file in [
        "config.ron",
        "base.ron",
        "meta.json",
        "summary.txt",
        "generations.csv",
        "t-fitness.png",
    ] {
        assert!(one.join(file).is_file(), "{file} missing");
    }
    // Every chart renders from this real run, as PNG and SVG.
    let charts = dir.join("charts");
    let status = bin()
        .args([
            "plot",
            one.to_str().unwrap(),
            "--out",
            charts.to_str().unwrap(),
            "--format",
            "both",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    // The parameter chart is wider, for its legend panel.
    for (chart, size) in [
        ("fitness", (1000, 600)),
        ("sigma", (1000, 600)),
        ("params", (1200, 720)),
        ("scores", (1000, 600)),
        ("reach", (1000, 600)),
    ] {
        let png = charts.join(format!("t-{chart}.png"));
        let mut reader = png::Decoder::new(std::fs::File::open(&png).unwrap())
            .read_info()
            .unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((info.width, info.height), size, "{}", png.display());
        let svg = std::fs::read_to_string(charts.join(format!("t-{chart}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<text"),
            "{chart}.svg has no text"
        );
    }
    let fitness = std::fs::read_to_string(charts.join("t-fitness.svg")).unwrap();
    assert!(fitness.contains("fitness per generation") && fitness.contains("generation"));
    // The best weights play at once.
    let out = bin()
        .args([
            "play",
            "--weights",
            one.join("best.ron").to_str().unwrap(),
            "--depth",
            "0",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn kill_9_mid_generation_then_resume_equals_an_uninterrupted_run() {
    let dir = TempDir::new("kill");
    let config = write_config(&dir, 4);
    let whole = tune(&config, &dir.join("whole"), Some(2));

    // In the middle of generation 2: three of its six candidates are
    // recorded. The test hook stops the tuner right after that record, so
    // the kill lands there whatever the machine's load.
    let lines = |dir: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
        text.lines().map(str::to_string).collect()
    };
    let first = lines(&whole)
        .iter()
        .position(|l| l.contains(r#""kind":"eval","generation":2"#))
        .expect("generation 2 has evaluations");
    let k = first + 3;
    let out = dir.join("killed");
    let mut child = bin()
        .env(PAUSE_AFTER_RECORD, k.to_string())
        .args(["tune", config.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--threads", "1"])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(|| out.is_dir() && std::fs::read_dir(&out).unwrap().next().is_some());
    let folder = run_folder(&out);
    wait_for(|| journal_lines(&folder) >= k);
    // Paused: nothing more comes.
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = lines(&folder);
    assert_eq!(killed.len(), k, "the run went on past the hook");
    assert!(killed[k - 1].contains(r#""kind":"eval","generation":2"#));
    // A line torn by the crash is dropped on resume.
    let mut journal = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap();
    journal.push_str(r#"{"kind":"eval","generation":2,"ind"#);
    std::fs::write(folder.join("journal.jsonl"), journal).unwrap();

    let status = bin()
        .args(["resume", folder.to_str().unwrap(), "--threads", "2"])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(outcome(&whole), outcome(&folder));

    // As if killed during the final comparison: resume replays the whole
    // run, reselection included, from the journal. Nothing new is recorded
    // and the choice stands.
    let journal = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap();
    assert_eq!(journal.matches(r#""kind":"reselect""#).count(), 3);
    std::fs::remove_file(folder.join("final.json")).unwrap();
    std::fs::remove_file(folder.join("summary.txt")).unwrap();
    let out = bin()
        .args(["resume", folder.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(
        summary.contains("reselected from 3 contenders on 16 fresh games"),
        "{summary}"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("journal.jsonl")).unwrap(),
        journal
    );
    assert_eq!(outcome(&whole), outcome(&folder));
    assert!(folder.join("summary.txt").exists());

    // As if killed after `final.json` but before `summary.txt`, the last
    // file of a run's end: the run is not finished, and resume ends it anew
    // to the same outcome.
    std::fs::remove_file(folder.join("summary.txt")).unwrap();
    let out = bin()
        .args(["resume", folder.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming"));
    assert_eq!(outcome(&whole), outcome(&folder));
    assert!(folder.join("summary.txt").exists());
    assert_eq!(
        std::fs::read_to_string(folder.join("journal.jsonl")).unwrap(),
        journal
    );

    // Once finished, a resume plays nothing and changes nothing, even with a
    // bad line in the journal: `summary.txt` marks a run whose end is whole.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(folder.join("journal.jsonl"))
        .unwrap();
    file.write_all(b"not a record\n").unwrap();
    drop(file);
    let journal = std::fs::read(folder.join("journal.jsonl")).unwrap();
    let last = std::fs::read(folder.join("final.json")).unwrap();
    let out = bin()
        .args(["resume", folder.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is finished already"));
    assert_eq!(
        std::fs::read(folder.join("journal.jsonl")).unwrap(),
        journal
    );
    assert_eq!(std::fs::read(folder.join("final.json")).unwrap(), last);
}

#[cfg(unix)]
#[test]
fn ctrl_c_finishes_the_generation_and_resume_completes_the_run() {
    let dir = TempDir::new("sigint");
    let config = write_config(&dir, 4);
    let whole = tune(&config, &dir.join("whole"), Some(1));

    let (mut child, folder) = start_tune(&config, &dir.join("stopped"));
    wait_for(|| journal_has(&folder, r#""kind":"eval","generation":1"#));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130), "an interrupted run exits 130");
    // The generation in progress was finished and recorded; no final result yet.
    // Which one that is depends on when the signal lands: generation 1 was
    // under way when it was sent, but on a loaded machine generation 2 may
    // have begun by the time it arrives.
    let last = last_generation(&folder).expect("a generation was recorded");
    assert!(
        (1..3).contains(&last),
        "stopped after generation {last} of 0..=3"
    );
    assert!(!folder.join("final.json").exists());
    // The live page says so, and stops reloading itself.
    let page = std::fs::read_to_string(folder.join("report.html")).unwrap();
    assert!(
        page.contains(&format!("Interrupted after generation {last}")),
        "{page}"
    );
    assert!(!page.contains("http-equiv=\"refresh\""));

    let status = bin()
        .args(["resume", folder.to_str().unwrap()])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(outcome(&whole), outcome(&folder));
    let page = std::fs::read_to_string(folder.join("report.html")).unwrap();
    assert!(page.contains("Finished: "), "{page}");
}

#[test]
fn bad_configs_exit_2_and_leave_no_run_folder() {
    let dir = TempDir::new("badconfig");
    let good = std::fs::read_to_string(write_config(&dir, 1)).unwrap();
    let cases = [
        (
            "min: 0.0, max: 2000.0, scale: 100.0",
            "min: 3000.0, max: 2000.0, scale: 100.0",
            "params[0]",
        ),
        (
            "games_per_candidate: 24",
            "games_per_candidate: 0",
            "games_per_candidate",
        ),
        ("name: \"empty\"", "name: \"emptyy\"", "emptyy"),
        ("seed: 5,", "seed: 5, colour: 3,", "colour"),
        ("population: 6,", "population: 6", "job.ron:"),
    ];
    for (from, to, expect) in cases {
        let path = dir.join("job.ron");
        std::fs::write(&path, good.replace(from, to)).unwrap();
        let stderr = rejected(&path, &dir.join("out"));
        assert!(stderr.contains(expect), "{to}: {stderr}");
        assert!(stderr.contains("job.ron"), "{to}: {stderr}");
    }
}

/// `tune CONFIG` exits 2 and leaves no run folder; its stderr.
pub(crate) fn rejected(config: &Path, out_dir: &Path) -> String {
    let out = bin()
        .args([
            "tune",
            config.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!out_dir.exists(), "a run folder was left behind: {stderr}");
    stderr
}

#[test]
fn a_bad_base_weights_file_is_named_with_its_field() {
    let dir = TempDir::new("badbase");
    let good = std::fs::read_to_string(write_config(&dir, 1)).unwrap();
    let weights = std::fs::read_to_string(repo_path("configs/weights/nneonneo.ron")).unwrap();
    let bad = dir.join("bad-weights.ron");
    std::fs::write(&bad, weights.replace("empty:", "emptty:")).unwrap();
    let path = dir.join("job.ron");
    let base = repo_path("configs/weights/nneonneo.ron");
    std::fs::write(
        &path,
        good.replace(base.to_str().unwrap(), bad.to_str().unwrap()),
    )
    .unwrap();
    let stderr = rejected(&path, &dir.join("out"));
    // The config, its field, the weights file and the field inside it.
    assert!(stderr.contains("job.ron"), "{stderr}");
    assert!(stderr.contains("base_weights"), "{stderr}");
    assert!(stderr.contains("bad-weights.ron"), "{stderr}");
    assert!(stderr.contains("emptty"), "{stderr}");
}

#[test]
fn a_second_writer_is_refused_naming_the_first_and_a_dead_writers_folder_resumes() {
    let dir = TempDir::new("lock");
    let config = write_config(&dir, 4);
    let whole = tune(&config, &dir.join("whole"), Some(2));

    let (mut child, folder) = start_tune(&config, &dir.join("locked"));
    wait_for(|| journal_has(&folder, r#""kind":"eval","generation":1"#));
    let out = bin()
        .args(["resume", folder.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = crate::util::text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "in use by another tune2048 (pid {} on host ",
            child.id()
        )),
        "{stderr}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // Its writer is gone: the report says so, and a resume takes the folder over.
    let page = dir.join("page.html");
    let out = bin()
        .args(["report", folder.to_str().unwrap(), "--out"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::util::text(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    if !folder.join("summary.txt").exists() {
        assert!(html.contains("Stopped without a word"), "not reported gone");
    }
    let status = bin()
        .args(["resume", folder.to_str().unwrap(), "--threads", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(outcome(&whole), outcome(&folder));
}

/// A run killed (`kill -9`) at pseudo-random instants, [`KILLS`] times,
/// across the drawing of its charts and report: after every kill, each file
/// under its final name in the run folder is whole, and anything else is a
/// writer's temporary file. The instants are fractions (from a fixed seed)
/// of the time an unbroken run of the same config takes on this machine,
/// so that on a fast machine or a loaded one the kills still land inside
/// runs. Which phase each lands in depends on the machine, but what is
/// checked holds at any instant, so the test cannot be lucky in the other
/// direction.
#[test]
fn kill_9_while_drawing_never_leaves_a_half_written_file() {
    const KILLS: usize = 32;
    let dir = TempDir::new("kill-draw");
    // Depth 0 and a handful of games: a generation is quick, so most of a
    // process's time goes to replaying, drawing charts and writing the page.
    let config = dir.join("job.ron");
    let text = std::fs::read_to_string(repo_path("configs/smoke.ron"))
        .unwrap()
        .replace("generations: 3", "generations: 10")
        .replace("games_per_candidate: 20", "games_per_candidate: 4")
        .replace("validation_games: 20", "validation_games: 4")
        .replace("final_games: 40", "final_games: 8")
        .replace(
            "\"weights/nneonneo.ron\"",
            &format!("{:?}", repo_path("configs/weights/nneonneo.ron")),
        );
    std::fs::write(&config, text).unwrap();

    // An unbroken run: the span the kills are drawn from.
    let started = Instant::now();
    let status = bin()
        .args(["tune", config.to_str().unwrap(), "--out"])
        .arg(dir.join("unbroken"))
        .args(["--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let span = started.elapsed();
    let mut state: u64 = 0x2048_2048;
    let mut next_delay = || {
        // SplitMix64: a fixed sequence of fractions of the span.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        span.mul_f64(((z ^ (z >> 31)) % 1000) as f64 / 1000.0)
    };
    let (mut kills, mut runs) = (0, 0);
    // The files whose writing a kill caught: their temporaries were left.
    let mut caught = std::collections::BTreeSet::new();
    let mut folder: Option<PathBuf> = None;
    while kills < KILLS {
        assert!(runs < 4 * KILLS, "{runs} processes for {kills} kills");
        // Continue the killed run; once one finishes, start another.
        let mut cmd = bin();
        match &folder {
            Some(f) if !f.join("summary.txt").exists() => {
                cmd.args(["resume", f.to_str().unwrap()]);
            }
            _ => {
                let out = dir.join(format!("runs-{runs}"));
                cmd.args(["tune", config.to_str().unwrap(), "--out"])
                    .arg(&out);
                folder = None;
            }
        }
        let mut child = cmd
            .args(["--threads", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        runs += 1;
        std::thread::sleep(next_delay());
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
        if folder.is_none() {
            let out = dir.join(format!("runs-{}", runs - 1));
            let made = std::fs::read_dir(&out).ok().and_then(|mut d| d.next());
            folder = made.map(|e| e.unwrap().path());
        }
        if let Some(f) = &folder {
            caught.extend(check_whole_files(f));
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "{kills} kills in {runs} processes, an unbroken run taking {span:?}; caught writing: {caught:?}"
    );
}

/// Checks that every file of the run folder `dir` is whole; returns the
/// final names of the temporary files (`.NAME.PID.N.tmp[.EXT]`) left in it.
fn check_whole_files(dir: &Path) -> Vec<String> {
    let mut temporaries = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(final_name) = temporary_of(&name) {
            temporaries.push(final_name);
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let text =
            || String::from_utf8(bytes.clone()).unwrap_or_else(|_| panic!("{name}: not UTF-8"));
        let ext = path.extension().map_or("", |e| e.to_str().unwrap());
        match (name.as_str(), ext) {
            // The holder's name, rewritten in place under the lock: not an output.
            ("lock", _) => {}
            ("journal.jsonl", _) => {
                let text = text();
                let whole = text.rfind('\n').map_or("", |i| &text[..=i]);
                for (i, line) in whole.lines().enumerate() {
                    serde_json::from_str::<serde_json::Value>(line)
                        .unwrap_or_else(|e| panic!("{name}:{}: {e}: {line}", i + 1));
                }
            }
            (_, "png") => {
                let mut reader = png::Decoder::new(&bytes[..])
                    .read_info()
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let mut pixels = vec![0; reader.output_buffer_size()];
                reader
                    .next_frame(&mut pixels)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            (_, "svg") => {
                let text = text();
                assert!(
                    text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
                    "{name} is cut short"
                );
            }
            (_, "html") => assert!(text().ends_with("</html>\n"), "{name} is cut short"),
            (_, "json") => {
                serde_json::from_slice::<serde_json::Value>(&bytes)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            (_, "ron") => {
                ron::from_str::<ron::Value>(&text()).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            (_, "csv") => {
                let text = text();
                assert!(text.ends_with('\n'), "{name} is cut short");
                let columns: Vec<usize> = text.lines().map(|l| l.split(',').count()).collect();
                assert!(
                    columns.windows(2).all(|w| w[0] == w[1]),
                    "{name}: ragged rows"
                );
            }
            (_, "txt") => assert!(text().ends_with('\n'), "{name} is cut short"),
            _ => panic!("{name}: an unexpected file in the run folder"),
        }
    }
    temporaries
}

/// The final name of `name`, if it is a temporary file of `atomic_file`:
/// `.NAME.PID.N.tmp`, then NAME's extension if it has one.
fn temporary_of(name: &str) -> Option<String> {
    let (stem, ext) = name.strip_prefix('.')?.split_once(".tmp")?;
    let mut parts = stem.rsplitn(3, '.');
    let (n, pid, final_name) = (parts.next()?, parts.next()?, parts.next()?);
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let same_ext = match final_name.rsplit_once('.') {
        Some((_, e)) => ext == format!(".{e}"),
        None => ext.is_empty(),
    };
    (number(n) && number(pid) && same_ext).then(|| final_name.to_string())
}

#[test]
fn the_whole_file_check_catches_torn_files_and_knows_temporaries() {
    let dir = TempDir::new("whole-check");
    let mut png_bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png_bytes, 4, 4);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[200; 48]).unwrap();
    }
    let whole: [(&str, &[u8]); 5] = [
        ("t-fitness.png", &png_bytes),
        ("report.html", b"<!DOCTYPE html>\n<html>\n</html>\n"),
        ("best-params.json", b"{\"a\": 1}"),
        ("best.ron", b"(a: 1.0)"),
        ("journal.jsonl", b"{\"kind\":\"x\"}\n{\"kind\":"),
    ];
    for (name, bytes) in whole {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    std::fs::write(dir.join(".report.html.123.4.tmp.html"), "<!DOC").unwrap();
    assert_eq!(check_whole_files(&dir), vec!["report.html".to_string()]);
    for (name, torn) in [
        ("t-fitness.png", &png_bytes[..png_bytes.len() - 20]),
        ("report.html", &b"<!DOCTYPE html>\n<html>\n"[..]),
        ("best-params.json", &b"{\"a\": "[..]),
        ("best.ron", &b"(a: 1."[..]),
        ("journal.jsonl", &b"{\"kind\":\n{\"kind\":\"x\"}\n"[..]),
    ] {
        let good = std::fs::read(dir.join(name)).unwrap();
        std::fs::write(dir.join(name), torn).unwrap();
        let check = std::panic::catch_unwind(|| check_whole_files(&dir));
        assert!(check.is_err(), "a torn {name} passed");
        std::fs::write(dir.join(name), good).unwrap();
    }
    assert_eq!(
        temporary_of(".t-fitness.png.77.0.tmp.png").as_deref(),
        Some("t-fitness.png")
    );
    assert_eq!(temporary_of(".lock.77.0.tmp").as_deref(), Some("lock"));
    assert_eq!(temporary_of(".report.html.x.0.tmp.html"), None);
    assert_eq!(temporary_of("report.html"), None);
}
