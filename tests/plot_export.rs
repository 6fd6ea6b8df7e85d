//! Runs the real `tune2048` binary for `plot` and `export` on a run folder
//! written by hand in the run-folder format, each test in a fresh temp folder.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use crate::util::{bin, TempDir};

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the binary runs");
    eprintln!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

const BEST_RON: &str = "Weights(
    lost_penalty: 200000.0,
    empty: 300.25,
    merges: 650.0,
    monotonicity: 45.5,
    monotonicity_power: 4.0,
    sum: 11.0,
    sum_power: 3.5,
    smoothness: 0.1,
    edge: 0.0,
    corner: 0.0,
    edge_power: 1.0,
    snake: (0.30000000000000004, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.5),
    snake_power: 1.0,
)
";

/// A journal of three generations with a crash-torn last line.
fn journal(scale: f64) -> String {
    let mut lines = vec![format!(
        r#"{{"kind":"baseline","fitness":{},"mean_score":{},"games":64}}"#,
        100_000.0 * scale,
        100_000.0 * scale
    )];
    for g in 0..3 {
        let f = (100_000.0 + 5_000.0 * g as f64) * scale;
        lines.push(format!(
            r#"{{"kind":"eval","generation":{g},"index":0,"x":[0.1,0.2,0.3],"params":{{"empty":1.0}},"fitness":{f},"penalty":0.0,"mean_score":{f},"games":64}}"#
        ));
        lines.push(format!(
            r#"{{"kind":"validation","generation":{g},"x":[{},{},{}],"params":{{"empty":300.0}},"fitness":{f},"fitness_ci95":[{},{}],"mean_score":{f},"games":128}}"#,
            0.1 * g as f64,
            -0.2 * g as f64,
            0.05,
            f - 4000.0,
            f + 4000.0
        ));
        lines.push(format!(
            r#"{{"kind":"generation","generation":{g},"sigma":{},"best":{},"median":{f},"mean":{},"evaluations":{},"games":{},"elapsed_s":{},"new_field":true}}"#,
            0.3 * 0.8f64.powi(g),
            f + 9000.0,
            f - 1000.0,
            8 * (g + 1),
            512 * (g + 1),
            10.0 * (g + 1) as f64
        ));
        lines.push(format!(r#"{{"kind":"note","generation":{g}}}"#));
    }
    lines.push(r#"{"kind":"generation","generation":3,"sig"#.to_string());
    lines.join("\n")
}

const FINAL_JSON: &str = r#"{
  "games": 6,
  "seed": 42,
  "base": {"games":6,"mean_score":50000.0,"sd_score":20000.0,"ci95":[29000.0,71000.0],"median_score":45000.0,
           "reach":{"1024":1.0,"2048":0.8333333333333334,"4096":0.5,"8192":0.0},
           "mean_moves":2500.0,"moves_per_s":10000.0,"games_per_s":4.0},
  "best": {"games":6,"mean_score":60000.0,"sd_score":21000.0,"ci95":[38000.0,82000.0],"median_score":58000.0,
           "reach":{"1024":1.0,"2048":1.0,"4096":0.6666666666666666,"8192":0.16666666666666666},
           "mean_moves":2900.0,"moves_per_s":9000.0,"games_per_s":3.1},
  "paired": {"games":6,"mean_diff":10000.0,"ci95":[1000.0,19000.0],"ratio":1.2,"p_value":0.04,"wins":5,"losses":1,"ties":0},
  "base_scores": [20000, 36000, 40000, 50000, 74000, 80000],
  "best_scores": [36000, 34000, 56000, 60000, 78000, 96000],
  "base_max_tiles": [1024, 2048, 2048, 4096, 4096, 4096],
  "best_max_tiles": [2048, 2048, 4096, 4096, 4096, 8192],
  "future": {"anything": [1, 2, 3]}
}
"#;

/// A complete run folder named `name` in meta.json.
fn write_run(dir: &Path, name: &str, scale: f64) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("journal.jsonl"), journal(scale)).unwrap();
    fs::write(
        dir.join("meta.json"),
        format!(
            r#"{{"name":"{name}","params":["empty","merges","smoothness"],"created":"today"}}"#
        ),
    )
    .unwrap();
    fs::write(dir.join("final.json"), FINAL_JSON).unwrap();
    fs::write(dir.join("best.ron"), BEST_RON).unwrap();
}

fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    // A chart is not blank: some pixels are far from white.
    let dark = pixels
        .chunks(3)
        .filter(|p| p.iter().all(|&c| c < 100))
        .count();
    assert!(dark > 500, "{}: only {dark} dark pixels", path.display());
    (info.width, info.height)
}

#[test]
fn plot_draws_every_chart_of_a_run_as_png_and_svg() {
    let tmp = TempDir::new("plot-run");
    let run_dir = tmp.join("runs").join("folder-name");
    write_run(&run_dir, "fixture run", 1.0);
    let out = tmp.join("charts");
    let result = run(bin().arg("plot").arg(&run_dir).arg("--out").arg(&out));
    assert!(result.status.success());
    for chart in ["fitness", "sigma", "params", "scores", "reach"] {
        for ext in ["png", "svg"] {
            let path = out.join(format!("fixture_run-{chart}.{ext}"));
            assert!(path.is_file(), "{} missing", path.display());
        }
    }
    assert_eq!(png_size(&out.join("fixture_run-fitness.png")), (1000, 600));
    assert_eq!(png_size(&out.join("fixture_run-reach.png")), (1000, 600));
    let (w, h) = png_size(&out.join("fixture_run-params.png"));
    assert!(w >= 1000 && h >= 600, "{w}x{h}");

    let svg = fs::read_to_string(out.join("fixture_run-fitness.svg")).unwrap();
    for text in [
        "fixture run: fitness per generation",
        "generation",
        "fitness",
        "validated mean (95% CI)",
        "base weights",
    ] {
        assert!(svg.contains(text), "fitness.svg lacks {text:?}");
    }
    let svg = fs::read_to_string(out.join("fixture_run-params.svg")).unwrap();
    for text in ["parameter trajectories", "empty", "merges", "smoothness"] {
        assert!(svg.contains(text), "params.svg lacks {text:?}");
    }
    let svg = fs::read_to_string(out.join("fixture_run-sigma.svg")).unwrap();
    assert!(svg.contains("sigma (log scale)"));
    let svg = fs::read_to_string(out.join("fixture_run-reach.svg")).unwrap();
    for text in ["tile reach, best vs base", "share of games", "2048", "8192"] {
        assert!(svg.contains(text), "reach.svg lacks {text:?}");
    }
    let svg = fs::read_to_string(out.join("fixture_run-scores.svg")).unwrap();
    assert!(
        svg.contains("6 paired games"),
        "scores.svg lacks its game count"
    );
}

#[test]
fn plot_overlays_several_runs_and_names_them() {
    let tmp = TempDir::new("plot-compare");
    let a = tmp.join("a");
    let b = tmp.join("b-folder");
    write_run(&a, "depth-2", 1.0);
    write_run(&b, "depth-3", 1.4);
    // Without meta.json the folder names the run.
    fs::remove_file(b.join("meta.json")).unwrap();
    let out = tmp.join("out");
    let result = run(bin()
        .args(["plot", "--format", "svg", "--out"])
        .arg(&out)
        .arg(&a)
        .arg(&b));
    assert!(result.status.success());
    let svg = fs::read_to_string(out.join("compare-fitness.svg")).unwrap();
    assert!(svg.contains("depth-2 (validation)"));
    assert!(svg.contains("b-folder (validation)"));
    assert!(!out.join("compare-fitness.png").exists());
}

#[test]
fn plot_of_an_eval_csv() {
    let tmp = TempDir::new("plot-eval");
    let csv = tmp.join("depth2.csv");
    let mut text = String::from("game,seed,score,max_tile,moves,outcome\n");
    for i in 0..50u64 {
        let tile = if i % 5 == 0 { 4096 } else { 2048 };
        text += &format!(
            "{i},{},{},{tile},{},lost\n",
            1000 + i,
            20_000 + 700 * i,
            1000 + i
        );
    }
    fs::write(&csv, text).unwrap();
    let out = tmp.join("out");
    let result = run(bin()
        .args(["plot", "--format", "png", "--eval"])
        .arg(&csv)
        .arg("--out")
        .arg(&out));
    assert!(result.status.success());
    assert_eq!(png_size(&out.join("depth2-scores.png")), (1000, 600));
    assert_eq!(png_size(&out.join("depth2-reach.png")), (1000, 600));
}

#[test]
fn plot_input_errors_exit_2() {
    let tmp = TempDir::new("plot-errors");
    let result = run(bin().arg("plot").arg(&tmp).arg("--out").arg(tmp.join("o")));
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("journal.jsonl"));

    let csv = tmp.join("bad.csv");
    fs::write(
        &csv,
        "game,seed,score,max_tile,moves,outcome\n0,1,many,2048,5,lost\n",
    )
    .unwrap();
    let result = run(bin()
        .args(["plot", "--eval"])
        .arg(&csv)
        .arg("--out")
        .arg(tmp.join("o")));
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("bad.csv:2"));

    let run_dir = tmp.join("run");
    write_run(&run_dir, "r", 1.0);
    fs::write(
        run_dir.join("journal.jsonl"),
        "{oops\n{\"kind\":\"baseline\",\"fitness\":1,\"mean_score\":1,\"games\":1}\n",
    )
    .unwrap();
    let result = run(bin()
        .arg("plot")
        .arg(&run_dir)
        .arg("--out")
        .arg(tmp.join("o")));
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("journal.jsonl:1"));
}

/// Set to 1 (as in CI, `.ci/run`) to make a missing C or C++ compiler fail
/// the tests that use one, where elsewhere they skip and say so.
pub(crate) const REQUIRE_COMPILERS: &str = "TUNE2048_REQUIRE_COMPILERS";

/// Whether the compiler `program` can be started. Without it the caller
/// skips, and this says so on stderr (straight there: the harness would
/// swallow a passing test's output), unless [`REQUIRE_COMPILERS`] is 1,
/// where it fails the test.
pub(crate) fn have_compiler(program: &str, test: &str) -> bool {
    if Command::new(program).arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var(REQUIRE_COMPILERS).as_deref() != Ok("1"),
        "{test}: no `{program}` on the PATH, and {REQUIRE_COMPILERS}=1"
    );
    let _ = writeln!(
        std::io::stderr(),
        "{test}: skipped: no `{program}` on the PATH (set {REQUIRE_COMPILERS}=1 to make this fail)"
    );
    false
}

#[test]
fn exported_c_header_compiles_as_c_and_cpp() {
    let tmp = TempDir::new("export-c");
    let run_dir = tmp.join("run");
    write_run(&run_dir, "r", 1.0);
    let header = tmp.join("tune2048_weights.h");
    let result = run(bin()
        .arg("export")
        .arg(&run_dir)
        .args(["--format", "c", "--out"])
        .arg(&header));
    assert!(result.status.success());
    let text = fs::read_to_string(&header).unwrap();
    assert!(
        text.contains("#define SCORE_EMPTY_WEIGHT (300.25)"),
        "{text}"
    );
    assert!(text.contains("0.30000000000000004"), "{text}");
    // Included twice to exercise the guard; every name used.
    let user = "#include \"tune2048_weights.h\"\n#include \"tune2048_weights.h\"\n\
        double total(void);\n\
        double total(void) {\n\
            return SCORE_LOST_PENALTY + SCORE_MONOTONICITY_POWER + SCORE_MONOTONICITY_WEIGHT\n\
                + SCORE_SUM_POWER + SCORE_SUM_WEIGHT + SCORE_MERGES_WEIGHT + SCORE_EMPTY_WEIGHT\n\
                + TUNE2048_SMOOTHNESS_WEIGHT + TUNE2048_EDGE_WEIGHT + TUNE2048_CORNER_WEIGHT\n\
                + TUNE2048_EDGE_POWER + TUNE2048_SNAKE_POWER + TUNE2048_SNAKE[15];\n\
        }\n";
    fs::write(tmp.join("user.c"), user).unwrap();
    fs::write(tmp.join("user.cpp"), user).unwrap();
    fs::write(tmp.join("only.c"), "#include \"tune2048_weights.h\"\n").unwrap();
    let mut compiled = 0;
    for (compiler, file) in [("cc", "user.c"), ("c++", "user.cpp"), ("cc", "only.c")] {
        if !have_compiler(compiler, "exported_c_header_compiles_as_c_and_cpp") {
            continue;
        }
        let result = run(Command::new(compiler).current_dir(&tmp).args([
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            file,
        ]));
        assert!(result.status.success(), "{compiler} {file}");
        compiled += 1;
    }
    eprintln!("compiled {compiled} times");
}

#[test]
fn export_json_then_ron_gives_back_the_same_file() {
    let tmp = TempDir::new("export-json");
    let ron = tmp.join("w.ron");
    fs::write(&ron, BEST_RON).unwrap();
    let json = tmp.join("w.json");
    let result = run(bin()
        .arg("export")
        .arg(&ron)
        .args(["--format", "json", "--out"])
        .arg(&json));
    assert!(result.status.success());
    let json_text = fs::read_to_string(&json).unwrap();
    assert!(
        json_text.contains("\"lost_penalty\": 200000.0"),
        "{json_text}"
    );
    let result = run(bin().arg("export").arg(&json).args(["--format", "ron"]));
    assert!(result.status.success());
    let back = String::from_utf8(result.stdout).unwrap();
    let original =
        String::from_utf8(run(bin().arg("export").arg(&ron).args(["--format", "ron"])).stdout)
            .unwrap();
    assert_eq!(back, original);
    assert!(back.contains("0.30000000000000004"));
}

#[test]
fn export_rust_is_a_const_item() {
    let tmp = TempDir::new("export-rust");
    let ron = tmp.join("w.ron");
    fs::write(&ron, BEST_RON).unwrap();
    let result = run(bin().arg("export").arg(&ron).args(["--format", "rust"]));
    assert!(result.status.success());
    let text = String::from_utf8(result.stdout).unwrap();
    assert!(text.contains("use tune2048::heuristic::Weights;"));
    assert!(text.contains("pub const WEIGHTS: Weights = Weights {"));
    assert!(text.contains("    empty: 300.25,\n"));
    assert!(text.trim_end().ends_with("};"));
    assert_eq!(text.matches('{').count(), text.matches('}').count());
    assert_eq!(text.matches('[').count(), text.matches(']').count());
}

#[test]
fn export_input_errors_exit_2() {
    let tmp = TempDir::new("export-errors");
    let missing = tmp.join("nope.ron");
    let result = run(bin().arg("export").arg(&missing).args(["--format", "c"]));
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("nope.ron"));

    // A run folder whose tuning has not written best.ron yet.
    let young = tmp.join("young-run");
    fs::create_dir_all(&young).unwrap();
    let result = run(bin().arg("export").arg(&young).args(["--format", "json"]));
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("best.ron") && stderr.contains("young-run"),
        "{stderr}"
    );

    let bad = tmp.join("bad.ron");
    fs::write(&bad, BEST_RON.replace("empty", "emptyy")).unwrap();
    let result = run(bin().arg("export").arg(&bad).args(["--format", "json"]));
    assert_eq!(result.status.code(), Some(2));

    let result = run(bin().arg("export").arg(&bad).args(["--format", "fortran"]));
    assert_eq!(result.status.code(), Some(2));
}
