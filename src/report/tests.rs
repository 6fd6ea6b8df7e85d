//! The report on hand-made run folders: whole, young, torn and garbled.
//! The page is checked by reading its data back, not by drawing it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::html::{escape, fields, grouped, p_value, page, value, Stamp};
use super::model::{Note, RunReport, Status};
use crate::heuristic::Weights;
use crate::stats::{GameStat, Paired, Summary};
use crate::tune::end::FinalReport;
use crate::tune::folder::files;

/// A fresh, empty folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tune2048-report-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn put(dir: &Path, file: &str, text: &str) {
    fs::write(dir.join(file), text).unwrap();
}

/// The validated mean of generation 1 in [`JOURNAL`], which best.ron holds.
fn best_weights() -> Weights {
    let mut w = Weights::nneonneo();
    w.set("empty", 300.0).unwrap();
    w.set("merges", 650.0).unwrap();
    w
}

const JOURNAL: &str = r#"{"kind":"baseline","fitness":1000.0,"mean_score":1000.0,"games":16}
{"kind":"eval","generation":0,"index":0,"x":[0.1,0.2],"params":{"empty":280.0,"merges":740.0},"fitness":900,"penalty":0,"mean_score":900,"games":8}
{"kind":"validation","generation":0,"x":[0.1,-0.2],"params":{"empty":280.0,"merges":660.0},"fitness":1100,"fitness_ci95":[1000,1200],"mean_score":1100,"games":16}
{"kind":"generation","generation":0,"sigma":0.3,"best":1200,"median":1000,"mean":990,"evaluations":6,"games":64,"elapsed_s":1.5}
{"kind":"validation","generation":1,"x":[0.3,-0.25],"params":{"empty":300.0,"merges":650.0},"fitness":1250,"fitness_ci95":[1150,1350],"mean_score":1250,"games":16}
{"kind":"generation","generation":1,"sigma":0.25,"best":1300,"median":1100,"mean":1050,"evaluations":6,"games":128,"elapsed_s":3.0}
"#;

/// The stop record that ends [`JOURNAL`]'s run.
const STOP: &str = r#"{"kind":"stop","reason":"generations","generations":2,"games":128,"base_fitness":1000.0}
"#;

fn final_report() -> FinalReport {
    let base: Vec<u64> = vec![1000, 2000, 3000, 4000];
    let best: Vec<u64> = vec![1500, 2500, 2900, 5000];
    let stats = |s: &[u64], tiles: &[u32]| {
        let games: Vec<GameStat> = s
            .iter()
            .zip(tiles)
            .map(|(&score, &max_tile)| GameStat {
                score,
                max_tile,
                moves: 100,
            })
            .collect();
        Summary::from_games(&games, 1.0)
    };
    let (base_tiles, best_tiles) = (vec![128, 256, 256, 512], vec![256, 256, 256, 512]);
    FinalReport {
        games: 4,
        seed: 7,
        base: stats(&base, &base_tiles),
        best: stats(&best, &best_tiles),
        paired: Paired::compare(&base, &best),
        base_scores: base,
        best_scores: best,
        base_max_tiles: base_tiles,
        best_max_tiles: best_tiles,
    }
}

/// A finished run folder with every piece in place.
fn whole_folder(test: &str) -> PathBuf {
    let dir = folder(test);
    let config = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/smoke.ron"))
        .unwrap()
        .replace("weights/nneonneo.ron", "base.ron");
    put(&dir, files::CONFIG, &config);
    put(&dir, files::BASE, &Weights::nneonneo().to_ron());
    put(&dir, files::BEST, &best_weights().to_ron());
    put(
        &dir,
        files::META,
        r#"{"name":"smoke","version":"0.1.0","params":["empty","merges"],"seed":7}"#,
    );
    put(&dir, files::JOURNAL, &format!("{JOURNAL}{STOP}"));
    put(
        &dir,
        files::FINAL,
        &serde_json::to_string(&final_report()).unwrap(),
    );
    put(
        &dir,
        files::SUMMARY,
        "run: x\nstopped: generation limit reached after 2 generations, 128 games\nbest (generation 1, validated): fitness 1250.00 [1150.00, 1350.00]; base 1000.00\n",
    );
    dir
}

fn field_map(html: &str) -> BTreeMap<String, String> {
    fields(html).into_iter().collect()
}

#[test]
fn a_whole_folder_reads_without_notes() {
    let dir = whole_folder("whole");
    let r = RunReport::load(&dir);
    assert_eq!(r.notes, vec![], "{:?}", r.notes);
    assert_eq!(r.name(), "smoke");
    assert_eq!(
        r.status,
        Status::Finished("generation limit reached after 2 generations, 128 games".into())
    );
    assert_eq!(r.data.params, vec!["empty", "merges"]);
    assert_eq!(r.data.timeline.generations.len(), 2);
    let origin = r.best_origin.as_ref().unwrap();
    assert_eq!(origin.label, "generation 1");
    assert_eq!((origin.fitness, origin.games), (1250.0, 16));
    let ratios: Vec<(f64, u64, f64)> = r
        .ratios()
        .iter()
        .map(|p| (p.elapsed_s, p.games, p.ratio))
        .collect();
    assert_eq!(ratios, vec![(1.5, 64, 1.1), (3.0, 128, 1.25)]);
    assert!(r.config.is_some());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_page_carries_the_summary_numbers() {
    let dir = whole_folder("page");
    let html = page(&[RunReport::load(&dir)], Stamp::now());
    let f = field_map(&html);
    let fin = final_report();
    assert_eq!(
        f["stop"],
        "generation limit reached after 2 generations, 128 games"
    );
    assert_eq!(f["generations"], "2");
    assert_eq!(f["games"], "128");
    assert_eq!(f["baseline"], "1,000");
    assert_eq!(f["best-origin"], "generation 1");
    assert_eq!(f["best-ratio"], "1.250");
    assert_eq!(f["final-ratio"], format!("{:.3}", fin.paired.ratio));
    assert_eq!(f["final-p"], p_value(fin.paired.p_value));
    assert_eq!(f["final-base-mean"], "2,500");
    assert_eq!(f["final-best-mean"], "2,975");
    assert_eq!(f["final-wins"], "3 / 1 / 0");
    for section in [
        "summary",
        "final",
        "weights",
        "charts",
        "generations",
        "config",
    ] {
        assert!(
            html.contains(&format!("<section id=\"{section}\"")),
            "{section}"
        );
    }
    for chart in ["fitness", "sigma", "params", "scores", "reach"] {
        assert!(html.contains(&format!("data-chart=\"{chart}\"")), "{chart}");
    }
    assert!(!html.contains("http-equiv=\"refresh\""));
    assert!(!html.contains("id=\"missing\""));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_page_fetches_nothing_and_runs_no_script() {
    let dir = whole_folder("offline");
    let html = page(&[RunReport::load(&dir)], Stamp::now());
    assert!(!html.contains("<script"));
    assert!(!html.contains(" src="));
    assert!(!html.contains("<link"));
    assert!(!html.contains("url("));
    // The only URL is the SVG namespace, which names and fetches nothing.
    let urls = html.matches("http").count();
    let namespaces = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
    assert_eq!(urls, namespaces);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn live_pages_reload_and_say_so() {
    let dir = whole_folder("live");
    let mut r = RunReport::load(&dir);
    r.status = Status::Running;
    let html = page(&[r.clone()], Stamp::now());
    // Without a script, a refresh reloads the page; with one, the script does.
    assert!(html.contains("<noscript><meta http-equiv=\"refresh\" content=\"5\"></noscript>"));
    assert!(html.contains("reloads itself every 5 seconds"));
    assert!(html.contains("location.reload()"));
    r.status = Status::Interrupted;
    let html = page(&[r], Stamp::now());
    assert!(!html.contains("http-equiv"));
    assert!(!html.contains("<script"));
    assert!(html.contains("Interrupted after generation 1"));
    assert!(html.contains("tune2048 resume"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_live_page_carries_its_heartbeat_and_the_words_for_a_silent_stop() {
    let dir = whole_folder("heartbeat");
    let mut r = RunReport::load(&dir);
    r.status = Status::Running;
    // 2026-11-22T10:00:00Z, rewritten at least every 30 s.
    let written = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_341_600);
    let stamp = Stamp {
        written,
        heartbeat: std::time::Duration::from_secs(30),
    };
    let html = page(&[r.clone()], stamp);
    assert!(html.contains("<body data-written-ms=\"1795341600000\" data-due-ms=\"1795341630000\">"));
    assert!(
        html.contains("at least every 30 seconds (the next by 2026-11-22T10:00:30Z at the latest)")
    );
    // Shown by the script once the promise is past: the same words as a
    // folder whose lock nobody holds.
    assert!(html.contains(&format!(
        "<p class=\"status status-stopped status-stale\" hidden>Stopped without a word after generation 1 (the process is gone, or stalled: no update since 2026-11-22T10:00:00Z); <code>tune2048 resume {}</code> continues it.</p>",
        escape(&dir.display().to_string())
    )));
    assert!(html.contains("class=\"status status-live status-beating\""));
    r.status = Status::Gone;
    let gone = page(&[r], stamp);
    assert!(gone
        .contains("Stopped without a word after generation 1 (the process that wrote it is gone"));
    assert!(!gone.contains("data-due-ms") && !gone.contains("<script"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_folder_says_what_is_missing() {
    let dir = folder("empty");
    let r = RunReport::load(&dir);
    assert_eq!(r.status, Status::Unfinished);
    let text: Vec<&str> = r
        .notes
        .iter()
        .map(|n| match n {
            Note::Pending(t) | Note::Problem(t) => t.as_str(),
        })
        .collect();
    for file in [
        "meta.json",
        "config.ron",
        "journal.jsonl",
        "best.ron",
        "base.ron",
        "final.json",
    ] {
        assert!(text.iter().any(|t| t.contains(file)), "{file}: {text:?}");
    }
    let html = page(&[r], Stamp::now());
    assert!(html.contains("id=\"missing\""));
    assert!(html.contains("no best.ron yet"));
    assert!(html.contains("Not finished"));
    assert!(html.contains("No generation has finished yet."));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn torn_and_garbled_files_become_notes() {
    let dir = whole_folder("garbled");
    let journal = JOURNAL.replacen("{\"kind\":\"eval\"", "not json {", 1);
    put(
        &dir,
        files::JOURNAL,
        &format!("{journal}{{\"kind\":\"generation\",\"gen"),
    );
    put(&dir, files::CONFIG, "(name: \"smoke\", garbage");
    put(&dir, files::META, "{\"name\": ");
    put(&dir, files::BEST, "Weights(empty: \"many\")");
    fs::remove_file(dir.join(files::FINAL)).unwrap();
    let r = RunReport::load(&dir);
    let problems: Vec<&String> = r
        .notes
        .iter()
        .filter_map(|n| match n {
            Note::Problem(t) => Some(t),
            Note::Pending(_) => None,
        })
        .collect();
    let has = |s: &str| problems.iter().any(|p| p.contains(s));
    assert!(
        has("journal.jsonl has 1 lines that are not journal records (left out): line 2"),
        "{problems:?}"
    );
    assert!(
        has("last line of journal.jsonl is cut short"),
        "{problems:?}"
    );
    assert!(has("the config does not load"), "{problems:?}");
    assert!(has("meta.json does not parse"), "{problems:?}");
    assert!(has("best.ron"), "{problems:?}");
    // What is intact still shows: the generations, named from the folder.
    assert_eq!(r.data.timeline.generations.len(), 2);
    assert!(r.name().starts_with("tune2048-report-garbled"));
    assert_eq!(r.status, Status::Unfinished);
    let html = page(&[r], Stamp::now());
    assert!(html.contains("class=\"problem\""));
    assert!(html.contains("(name: &quot;smoke&quot;, garbage"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn text_from_the_folder_is_escaped() {
    let dir = whole_folder("escape");
    put(
        &dir,
        files::META,
        r#"{"name":"<script>alert('x')</script>","params":["empty","merges"]}"#,
    );
    let html = page(&[RunReport::load(&dir)], Stamp::now());
    assert!(!html.contains("<script>alert"));
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert_eq!(escape("a&b<\"c\">"), "a&amp;b&lt;&quot;c&quot;&gt;");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn several_runs_are_overlaid() {
    let (a, b) = (whole_folder("overlay-a"), whole_folder("overlay-b"));
    let runs = [RunReport::load(&a), RunReport::load(&b)];
    let html = page(&runs, Stamp::now());
    assert!(html.contains("<section id=\"comparison\""));
    assert!(html.contains("data-chart=\"ratio-time\""));
    assert!(html.contains("data-chart=\"ratio-games\""));
    assert!(html.contains("id=\"run-1\""));
    assert!(html.contains("<section id=\"run-1-summary\""));
    assert!(!html.contains("<section id=\"summary\""));
    assert_eq!(
        fields(&html)
            .iter()
            .filter(|f| f.0 == "final-ratio")
            .count(),
        2
    );
    let _ = fs::remove_dir_all(&a);
    let _ = fs::remove_dir_all(&b);
}

#[test]
fn numbers_read_well() {
    assert_eq!(grouped(1_234_567.0, 0), "1,234,567");
    assert_eq!(grouped(-575.4, 0), "−575");
    assert_eq!(grouped(-0.2, 0), "0");
    assert_eq!(grouped(999.5, 1), "999.5");
    assert_eq!(value(50_752.3), "50,752");
    assert_eq!(value(12.34), "12.3");
    assert_eq!(value(0.5), "0.500");
    assert_eq!(p_value(2e-149), "2.0e-149");
    assert_eq!(p_value(0.658), "0.658");
}

#[test]
fn the_status_comes_from_the_stop_record_not_from_summary_txt() {
    let dir = whole_folder("stop");
    fs::remove_file(dir.join(files::SUMMARY)).unwrap();
    let finished =
        Status::Finished("generation limit reached after 2 generations, 128 games".into());
    assert_eq!(RunReport::load(&dir).status, finished);
    // Ctrl-C: the journal says so, and nothing else is needed.
    let interrupted = STOP.replace("generations\",\"gen", "interrupted\",\"gen");
    fs::remove_file(dir.join(files::FINAL)).unwrap();
    put(&dir, files::JOURNAL, &format!("{JOURNAL}{interrupted}"));
    assert_eq!(RunReport::load(&dir).status, Status::Interrupted);
    // Resumed since: a generation after the stop record means it is not over.
    let again = JOURNAL.lines().nth(3).unwrap();
    put(
        &dir,
        files::JOURNAL,
        &format!("{JOURNAL}{interrupted}{again}\n"),
    );
    assert_eq!(RunReport::load(&dir).status, Status::Unfinished);
    // A folder from before stop records: final.json says it ended, not why.
    put(&dir, files::JOURNAL, JOURNAL);
    put(
        &dir,
        files::FINAL,
        &serde_json::to_string(&final_report()).unwrap(),
    );
    let status = RunReport::load(&dir).status;
    assert!(
        matches!(&status, Status::Finished(why) if why.contains("does not record")),
        "{status:?}"
    );
    // The base level comes from the stop record where no baseline record is.
    let no_baseline: String = JOURNAL.lines().skip(1).map(|l| format!("{l}\n")).collect();
    put(&dir, files::JOURNAL, &format!("{no_baseline}{STOP}"));
    assert_eq!(RunReport::load(&dir).data.timeline.baseline, Some(1000.0));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn without_a_journal_the_generations_come_from_the_csv() {
    let dir = whole_folder("csv");
    fs::remove_file(dir.join(files::JOURNAL)).unwrap();
    put(
        &dir,
        files::GENERATIONS,
        "generation,evaluations,games,best,median,mean,sigma,val_fitness,val_ci_lo,val_ci_hi,val_mean_score,elapsed_s\n\
         0,6,64,1200,1000,990,0.3,1100,1000,1200,1100,1.500\n\
         1,6,128,1300,1100,1050,0.25,,,,,3.000\n",
    );
    let r = RunReport::load(&dir);
    let j = &r.data.timeline;
    assert_eq!(j.generations.len(), 2);
    assert_eq!(
        (j.generations[1].games, j.generations[1].elapsed_s),
        (128, 3.0)
    );
    assert_eq!(j.validations.len(), 1);
    assert_eq!(j.validations[0].ci95, [1000.0, 1200.0]);
    assert!(
        r.notes
            .iter()
            .any(|n| matches!(n, Note::Problem(t) if t.contains("come from generations.csv"))),
        "{:?}",
        r.notes
    );
    put(&dir, files::GENERATIONS, "generation,best\n0,1\n");
    let r = RunReport::load(&dir);
    assert!(
        r.notes
            .iter()
            .any(|n| matches!(n, Note::Problem(t) if t.contains("no `evaluations` column"))),
        "{:?}",
        r.notes
    );
    let _ = fs::remove_dir_all(&dir);
}
