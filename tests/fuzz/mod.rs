//! Fuzzing on stable Rust: every parser and protocol reader is fed inputs
//! made by [`mutate`] from seed corpora (the shipped files and generated
//! ones), and must answer each with a value or an error that says where the
//! input is wrong: never a panic, never a hang.
//!
//! `cargo test` runs a short pass (a few thousand inputs per target). A long
//! run sets `TUNE2048_FUZZ_INPUTS` to the total number of in-process inputs,
//! shared among the targets as [`targets`] says, and `TUNE2048_FUZZ_SESSIONS`
//! to the number of sessions per protocol run through the binary; each target
//! prints what it tried and how long it took. `TUNE2048_FUZZ_SEED` changes
//! the inputs. See docs/src/guide/fuzzing.md.
//!
//! An input that panics, breaks a check or takes longer than
//! [`HANG_LIMIT`] fails the test and is saved under `target/fuzz/`.

mod mutate;
mod regressions;
mod sessions;
mod targets;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest any one input may take: far above any parser's time on
/// any input made here (milliseconds), so only a hang reaches it.
pub const HANG_LIMIT: Duration = Duration::from_secs(20);

/// The most failures a target collects before it stops.
const MAX_FAILURES: usize = 8;

/// A number from the environment, or `default`.
fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a whole number")),
        Err(_) => default,
    }
}

/// The seed every target's inputs derive from.
fn base_seed() -> u64 {
    env_number("TUNE2048_FUZZ_SEED", 0)
}

/// Inputs for a target given `share` of the long run's total, or `short`
/// in a plain `cargo test`.
pub fn inputs(share: f64, short: u64) -> u64 {
    match std::env::var("TUNE2048_FUZZ_INPUTS") {
        Ok(_) => (env_number("TUNE2048_FUZZ_INPUTS", 0) as f64 * share).round() as u64,
        Err(_) => short,
    }
}

/// A name's FNV-1a hash: each target's inputs differ.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The harness itself: a planted panic and a planted hang are caught.
#[test]
#[should_panic(expected = "panicked: a planted fault")]
fn a_panicking_input_fails_the_target() {
    let target = Target {
        name: "self-test-panic",
        corpus: vec![b"abc".to_vec()],
        donors: Vec::new(),
        inputs: 3,
        hang_limit: HANG_LIMIT,
    };
    run(target, |input| {
        assert!(input == b"abc", "a planted fault");
        Ok(())
    });
}

#[test]
#[should_panic(expected = "a hang")]
fn a_hanging_input_fails_the_target() {
    let target = Target {
        name: "self-test-hang",
        corpus: vec![b"abc".to_vec()],
        donors: Vec::new(),
        inputs: 1,
        hang_limit: Duration::from_millis(100),
    };
    run(target, |_| {
        std::thread::sleep(Duration::from_secs(2));
        Ok(())
    });
}

/// Where a failing input is saved.
fn failure_path(name: &str, index: u64) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fuzz");
    std::fs::create_dir_all(&dir).expect("target/fuzz can be made");
    dir.join(format!("{name}-{index}.bin"))
}

/// Saves a failing input and describes it.
fn report_failure(name: &str, index: u64, input: &[u8], why: &str) -> String {
    let path = failure_path(name, index);
    std::fs::write(&path, input).expect("a failing input can be saved");
    let shown: String = String::from_utf8_lossy(&input[..input.len().min(300)])
        .chars()
        .flat_map(char::escape_debug)
        .collect();
    format!(
        "{name}: input {index} ({} bytes, saved to {}): {why}\n  input: \"{shown}\"",
        input.len(),
        path.display()
    )
}

/// Shared between a target's worker and its watchdog.
struct Progress {
    /// The input being tried (its number + 1; 0 before the first).
    current: AtomicU64,
    /// When it started, in nanoseconds after `epoch`.
    started_ns: AtomicU64,
    done: AtomicBool,
    epoch: Instant,
}

/// A fuzz target: its name, its corpus, and a check that returns `Err`
/// when an input's answer breaks a rule (an error without its location).
pub struct Target {
    pub name: &'static str,
    pub corpus: Vec<Vec<u8>>,
    /// Lines of other files to splice in.
    pub donors: Vec<Vec<u8>>,
    pub inputs: u64,
    /// The longest one input may take ([`HANG_LIMIT`] but in self-tests).
    pub hang_limit: Duration,
}

/// Runs `check` on `target.inputs` mutated inputs in a worker thread while
/// this thread watches for a hang; panics listing every failure.
pub fn run(target: Target, check: impl Fn(&[u8]) -> Result<(), String> + Send + 'static) {
    let Target {
        name,
        corpus,
        donors,
        inputs,
        hang_limit,
    } = target;
    assert!(!corpus.is_empty(), "{name}: empty corpus");
    let seed = base_seed() ^ name_hash(name);
    let progress = Arc::new(Progress {
        current: AtomicU64::new(0),
        started_ns: AtomicU64::new(0),
        done: AtomicBool::new(false),
        epoch: Instant::now(),
    });
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let corpus = Arc::new(corpus);
    let donors = Arc::new(donors);
    let start = Instant::now();
    let worker = {
        let (progress, failures, corpus, donors) = (
            progress.clone(),
            failures.clone(),
            corpus.clone(),
            donors.clone(),
        );
        std::thread::Builder::new()
            .name(format!("fuzz-{name}"))
            .spawn(move || {
                for index in 0..inputs {
                    let input = mutate::input(seed, index, &corpus, &donors);
                    let now = progress.epoch.elapsed().as_nanos() as u64;
                    progress.started_ns.store(now, Ordering::SeqCst);
                    progress.current.store(index + 1, Ordering::SeqCst);
                    let outcome = catch_unwind(AssertUnwindSafe(|| check(&input)));
                    let why = match outcome {
                        Ok(Ok(())) => continue,
                        Ok(Err(why)) => why,
                        Err(panic) => format!("panicked: {}", panic_text(&panic)),
                    };
                    let mut failures = failures.lock().unwrap();
                    failures.push(report_failure(name, index, &input, &why));
                    if failures.len() >= MAX_FAILURES {
                        break;
                    }
                }
                progress.done.store(true, Ordering::SeqCst);
            })
            .expect("the worker starts")
    };
    while !progress.done.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
        let current = progress.current.load(Ordering::SeqCst);
        let started = Duration::from_nanos(progress.started_ns.load(Ordering::SeqCst));
        let busy = progress.epoch.elapsed().saturating_sub(started);
        if current > 0 && busy > hang_limit && !progress.done.load(Ordering::SeqCst) {
            // The worker is stuck: make its input again, save it and fail
            // (the stuck thread ends with the test process).
            let index = current - 1;
            let input = mutate::input(seed, index, &corpus, &donors);
            let why = format!("still running after {:?}: a hang", hang_limit);
            panic!("{}", report_failure(name, index, &input, &why));
        }
    }
    worker.join().expect("the worker catches its panics");
    let elapsed = start.elapsed().as_secs_f64();
    let failures = failures.lock().unwrap();
    let tried = progress.current.load(Ordering::SeqCst);
    println!(
        "fuzz {name}: {tried} inputs in {elapsed:.2} s ({:.0} per second), {} corpus files, {} failures",
        tried as f64 / elapsed.max(1e-9),
        corpus.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

/// The files under `dir` (relative to the checkout) whose names end with
/// `suffix`, one level deep, or also in subfolders when `deep`.
pub fn files(dir: &str, suffix: &str, deep: bool) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if deep {
                    stack.push(path);
                }
            } else if path.to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The contents of `paths`.
pub fn read_all(paths: &[PathBuf]) -> Vec<Vec<u8>> {
    paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

/// Every line (with its newline) of `texts`, for splices.
pub fn lines_of(texts: &[Vec<u8>]) -> Vec<Vec<u8>> {
    texts
        .iter()
        .flat_map(|t| t.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec))
        .collect()
}

/// A folder for the inputs of targets that read files, in memory where the
/// system has `/dev/shm` (a write to a disk-backed temporary folder can
/// take milliseconds, a hundred times the parse); removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let shm = std::path::Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("tune2048-fuzz-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("the scratch folder can be made");
        Scratch(dir)
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
