//! `tune2048 report` and the live `report.html` through the real binary:
//! a smoke run's page carries its numbers, several runs overlay, and broken
//! folders give a page that names what is missing.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use tune2048::report::html::fields;

use crate::util::{repo_path, run, text, tune, TempDir};

/// The `data-field` values of a page.
fn field_map(page: &str) -> BTreeMap<String, String> {
    fields(page).into_iter().collect()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A finished smoke run in `dir`.
fn smoke(dir: &Path) -> std::path::PathBuf {
    tune(&repo_path("configs/smoke.ron"), dir, None)
}

#[test]
fn a_smoke_run_writes_its_report() {
    let dir = TempDir::new("report-smoke");
    let folder = smoke(&dir);
    let page = read(&folder.join("report.html"));
    for section in [
        "status",
        "summary",
        "final",
        "weights",
        "charts",
        "generations",
        "config",
    ] {
        assert!(page.contains(&format!("id=\"{section}\"")), "{section}");
    }
    for chart in ["fitness", "sigma", "params", "scores", "reach"] {
        assert!(page.contains(&format!("data-chart=\"{chart}\"")), "{chart}");
    }
    assert!(
        !page.contains("http-equiv=\"refresh\""),
        "a finished run's page stays put"
    );
    let f = field_map(&page);
    let fin: serde_json::Value = serde_json::from_str(&read(&folder.join("final.json"))).unwrap();
    let paired = &fin["paired"];
    assert_eq!(
        f["final-ratio"],
        format!("{:.3}", paired["ratio"].as_f64().unwrap())
    );
    assert_eq!(
        f["final-wins"],
        format!(
            "{} / {} / {}",
            paired["wins"], paired["losses"], paired["ties"]
        )
    );
    assert_eq!(f["generations"], "3");
    assert!(f["stop"].starts_with("generation limit reached after 3 generations"));
    let csv = read(&folder.join("generations.csv"));
    let games = csv.lines().last().unwrap().split(',').nth(2).unwrap();
    assert_eq!(f["games"], games);
}

#[test]
fn report_rewrites_a_page_and_overlays_several_runs() {
    let dir = TempDir::new("report-cli");
    let a = smoke(&dir.join("a"));
    let b = smoke(&dir.join("b"));
    let live = read(&a.join("report.html"));
    fs::remove_file(a.join("report.html")).unwrap();
    let out = run(&["report", a.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        a.join("report.html").display().to_string()
    );
    // The same story as the page the tuner wrote, but for when it was written.
    let story = |page: &str| -> Vec<(String, String)> {
        fields(page)
            .into_iter()
            .filter(|(k, _)| k != "written")
            .collect()
    };
    assert_eq!(story(&read(&a.join("report.html"))), story(&live));
    assert!(fields(&live).iter().any(|(k, _)| k == "written"));

    let page = dir.join("both.html");
    let out = run(&[
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = read(&page);
    assert!(page.contains("id=\"comparison\""));
    assert!(page.contains("data-chart=\"ratio-time\""));
    assert!(page.contains("data-chart=\"ratio-games\""));
    assert_eq!(
        fields(&page)
            .iter()
            .filter(|(k, _)| k == "final-ratio")
            .count(),
        2
    );
}

#[test]
fn a_broken_run_folder_gives_a_page_that_names_what_is_missing() {
    let dir = TempDir::new("report-broken");
    let folder = smoke(&dir);
    fs::remove_file(folder.join("meta.json")).unwrap();
    fs::remove_file(folder.join("best.ron")).unwrap();
    // The writer died before the end: no final comparison, no stop record.
    fs::remove_file(folder.join("final.json")).unwrap();
    fs::write(folder.join("config.ron"), "(this is: not a config").unwrap();
    let journal = read(&folder.join("journal.jsonl"));
    fs::write(
        folder.join("journal.jsonl"),
        &journal[..journal.len() * 2 / 3],
    )
    .unwrap();
    let page = dir.join("broken.html");
    let out = run(&[
        "report",
        folder.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = read(&page);
    for missing in [
        "meta.json is missing",
        "no best.ron yet",
        "the config does not load",
        "is cut short",
        // Its writer left the folder's lock free: it is gone.
        "Stopped without a word",
    ] {
        assert!(page.contains(missing), "{missing}");
    }
    assert!(text(&out.stderr).contains("meta.json is missing"));
    // What survives is still shown.
    assert!(page.contains("data-chart=\"fitness\""));

    // Without a journal the generations come from generations.csv; without
    // both, there is nothing to chart.
    fs::remove_file(folder.join("journal.jsonl")).unwrap();
    let out = run(&["report", folder.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = read(&folder.join("report.html"));
    assert!(page.contains("the generations come from generations.csv"));
    assert!(page.contains("data-chart=\"fitness\""));
    fs::remove_file(folder.join("generations.csv")).unwrap();
    let out = run(&["report", folder.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = read(&folder.join("report.html"));
    assert!(page.contains("no journal.jsonl yet"));
    assert!(page.contains("No generation has finished yet."));
}

#[test]
fn report_of_a_path_that_is_no_run_folder_exits_2() {
    let dir = TempDir::new("report-none");
    let refused = |leaf: &str, words: &str| {
        let out = run(&["report", dir.join(leaf).to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{leaf}");
        assert!(text(&out.stderr).contains(words), "{}", text(&out.stderr));
    };
    refused("nothing", "not a folder");
    // A folder that holds none of a run's files is refused too, and no page
    // is left in it.
    fs::create_dir_all(dir.join("other")).unwrap();
    refused("other", "not a run folder (it has none of meta.json");
    assert!(!dir.join("other").join("report.html").exists());
}
