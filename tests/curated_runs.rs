//! Every run folder shipped under `runs/curated/` reads through the one
//! history reader: `plot` draws it and `report` tells its story, with no
//! problem but the one a folder without a journal has by design.

use std::path::{Path, PathBuf};

use crate::util::{bin, TempDir};

/// The folders under `runs/curated/` that a tuning run wrote (they hold
/// its `config.ron`), found at any depth.
fn curated_runs() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        if dir.join("config.ron").is_file() {
            found.push(dir.to_path_buf());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        entries.sort();
        for entry in entries {
            walk(&entry, found);
        }
    }
    let mut found = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/curated"),
        &mut found,
    );
    found
}

#[test]
fn plot_and_report_read_every_curated_run() {
    let runs = curated_runs();
    assert!(runs.len() >= 15, "{runs:?}");
    let tmp = TempDir::new("curated");
    for (i, run) in runs.iter().enumerate() {
        let out = tmp.join(format!("plots-{i}"));
        let plot = bin()
            .arg("plot")
            .arg(run)
            .args(["--format", "png", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&plot.stderr);
        assert!(plot.status.success(), "{}: {stderr}", run.display());
        let charts = std::fs::read_dir(&out).map_or(0, |d| d.count());
        assert!(charts >= 1, "{}: no chart drawn; {stderr}", run.display());
        let page = tmp.join(format!("report-{i}.html"));
        let report = bin()
            .arg("report")
            .arg(run)
            .arg("--out")
            .arg(&page)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&report.stderr);
        assert!(report.status.success(), "{}: {stderr}", run.display());
        // Every note names a missing journal, a run that kept no final
        // comparison (an older piece of a longer run), or nothing at all.
        for line in stderr.lines() {
            assert!(
                line.contains(
                    "journal.jsonl is missing: the generations come from generations.csv"
                ) || line.contains("no final.json yet"),
                "{}: {line}",
                run.display()
            );
        }
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.trim_end().ends_with("</html>"), "{}", run.display());
    }
}
