//! Helpers shared by the test modules: the binary under test, fresh
//! temporary folders, running the binary with captured output, and paths
//! inside the checkout.

use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Path of the `tune2048` executable that Cargo built for these tests.
pub fn bin_path() -> &'static str {
    env!("CARGO_BIN_EXE_tune2048")
}

/// A command for the binary, run from the checkout's root (where the
/// default weights files are).
pub fn bin() -> Command {
    let mut cmd = Command::new(bin_path());
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Runs the binary with `args`, capturing its exit status, stdout and stderr.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Runs `cmd` with `input` on its stdin, capturing its output.
pub fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    // A program that stops reading early (bad input) closes the pipe; what it
    // printed is what the test checks.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Lossy UTF-8 text of captured output.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path inside the checkout, from its root.
pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// A weights file of `configs/weights/`.
pub fn weights(name: &str) -> String {
    repo_path("configs/weights")
        .join(name)
        .display()
        .to_string()
}

/// A fresh, empty temporary folder for one test. It is removed when dropped,
/// unless the test is failing: then it stays for a look.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `name` tells the folder apart when one is left behind; every call
    /// gets a folder of its own, even with the same name.
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("tune2048-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("left {} for inspection", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The single run folder that `tune --out out` created.
pub fn run_folder(out: &Path) -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

/// Runs `tune CONFIG --out OUT [--threads T]` to the end and returns the run folder.
pub fn tune(config: &Path, out: &Path, threads: Option<u32>) -> PathBuf {
    let mut cmd = bin();
    cmd.arg("tune").arg(config).arg("--out").arg(out);
    if let Some(t) = threads {
        cmd.args(["--threads", &t.to_string()]);
    }
    let result = cmd.output().unwrap();
    assert!(
        result.status.success(),
        "tune {} failed: {}",
        config.display(),
        text(&result.stderr)
    );
    run_folder(out)
}

/// What must be identical between two runs of one job: the best weights,
/// the per-generation numbers (without wall time), the final games (if the
/// job plays them) and the set of journal records (without their completion
/// order, and without the stop records of interruptions, which log the
/// interruption itself).
pub type Outcome = (String, Vec<String>, Option<serde_json::Value>, Vec<String>);

/// The [`Outcome`] of the run folder `dir`.
pub fn outcome(dir: &Path) -> Outcome {
    // The built-in player's weights, else an external player's values.
    let best = std::fs::read_to_string(dir.join("best.ron"))
        .or_else(|_| std::fs::read_to_string(dir.join("best-params.json")))
        .unwrap();
    let csv = std::fs::read_to_string(dir.join("generations.csv")).unwrap();
    let elapsed = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "elapsed_s")
        .unwrap();
    let rows = csv
        .lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            cells.remove(elapsed);
            cells.join(",")
        })
        .collect();
    let fin = std::fs::read_to_string(dir.join("final.json"))
        .ok()
        .map(|text| {
            let mut fin: serde_json::Value = serde_json::from_str(&text).unwrap();
            for side in ["base", "best"] {
                for timing in ["moves_per_s", "games_per_s"] {
                    fin[side].as_object_mut().unwrap().remove(timing);
                }
            }
            fin
        });
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    let mut records: Vec<String> = journal
        .lines()
        .filter(|l| !l.contains(r#""kind":"stop","reason":"interrupted""#))
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let obj = v.as_object_mut().unwrap();
            obj.remove("index");
            obj.remove("elapsed_s");
            v.to_string()
        })
        .collect();
    records.sort();
    (best, rows, fin, records)
}

/// Whether a test that rewrites the golden file `golden` may do so: only
/// with `TUNE2048_BLESS=1` in the environment, so that running the ignored
/// tests (`--include-ignored`) never changes a golden by accident.
pub fn blessing(golden: &str) -> bool {
    let blessed = std::env::var("TUNE2048_BLESS").is_ok_and(|v| v == "1");
    if !blessed {
        eprintln!("{golden} left as it is: set TUNE2048_BLESS=1 to rewrite it");
    }
    blessed
}
