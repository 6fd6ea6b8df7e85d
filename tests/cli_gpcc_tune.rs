//! Adversarial players through the binary: a `Gpcc` tuning job (the same
//! run on any thread count) and player files that pair a defender's weights
//! with an attacker's.

use std::path::Path;

use crate::util::{outcome, repo_path, run, text, tune, weights, TempDir};

/// A player file in `dir` pairing two shipped weights files; returns its path.
pub(crate) fn player_file(dir: &Path, defender: &str, attacker: &str) -> String {
    for name in [defender, attacker] {
        std::fs::copy(weights(name), dir.join(name)).unwrap();
    }
    let path = dir.join("pair.ron");
    std::fs::write(
        &path,
        format!("Player(defender: \"{defender}\", attacker: \"{attacker}\")\n"),
    )
    .unwrap();
    path.display().to_string()
}

/// A two-generation attacker job at 2 plies against two defenders.
fn write_attacker_job(dir: &Path) -> std::path::PathBuf {
    let text = format!(
        r#"(
    name: "gpcc-t",
    variant: Gpcc(rules: Gpcc2016, role: Attacker, opponents: ["eval2", "{}"]),
    search: (depth: Fixed(2)),
    base_weights: "{}",
    params: [
        (name: "empty", min: 0.0, max: 2000.0, scale: 100.0),
        (name: "smoothness", min: 0.0, max: 500.0, scale: 50.0),
    ],
    objective: ScoreAllowed,
    games_per_candidate: 8,
    population: 4,
    sigma0: 0.5,
    stop: (generations: 2),
    validation_games: 8,
    final_games: 8,
    seed: 9,
)
"#,
        weights("default.ron"),
        repo_path("configs/weights/nneonneo.ron").display()
    );
    let path = dir.join("gpcc.ron");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_gpcc_job_is_the_same_run_on_one_and_two_threads() {
    let dir = TempDir::new("gpcc-tune");
    let config = write_attacker_job(&dir);
    let one = tune(&config, &dir.join("one"), Some(1));
    let two = tune(&config, &dir.join("two"), Some(2));
    assert_eq!(outcome(&one), outcome(&two));
    let fin: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("final.json")).unwrap()).unwrap();
    // Scores are the defender totals the attacker allowed.
    let allowed = fin["best_scores"].as_array().unwrap();
    assert_eq!(allowed.len(), 8);
    assert!(allowed.iter().all(|s| s.as_u64().unwrap() > 0), "{fin}");
    // The folder keeps its own copy of the weights opponent (opponent 1),
    // which its config names, so that a resume does not read the original.
    let folder_config = text(&std::fs::read(one.join("config.ron")).unwrap());
    assert!(folder_config.contains("Gpcc(") && folder_config.contains("\"opponent-1.ron\""));
    assert_eq!(
        std::fs::read_to_string(one.join("opponent-1.ron")).unwrap(),
        std::fs::read_to_string(weights("default.ron")).unwrap()
    );
    assert!(!one.join("opponent-0.ron").exists(), "eval2 is built in");
}

/// `match` lines (after the header) and the summary.
fn match_lines(a: &str, b: &str) -> Vec<String> {
    let out = run(&[
        "match",
        "--rules",
        "gpcc2016",
        "--a",
        a,
        "--b",
        b,
        "--plies",
        "2",
        "--matches",
        "4",
        "--seed",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .skip(1)
        .map(String::from)
        .collect()
}

/// The defender totals of match lines: (A defends, B defends) per match.
fn totals(lines: &[String]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter(|l| l.starts_with("match"))
        .map(|l| {
            let field = |key: &str| {
                let rest = &l[l.find(key).unwrap() + key.len()..];
                rest.trim_start()
                    .split([',', ':'])
                    .next()
                    .unwrap()
                    .to_string()
            };
            (field("A defends"), field("B defends"))
        })
        .collect()
}

#[test]
fn a_player_file_defends_with_one_file_and_attacks_with_the_other() {
    let dir = TempDir::new("pair-match");
    let pair = player_file(&dir, "default.ron", "nneonneo.ron");
    let (defender, attacker) = (weights("default.ron"), weights("nneonneo.ron"));
    let with_pair = totals(&match_lines(&pair, "eval2"));
    let as_defender = totals(&match_lines(&defender, "eval2"));
    let as_attacker = totals(&match_lines(&attacker, "eval2"));
    for i in 0..4 {
        assert_eq!(with_pair[i].0, as_defender[i].0, "match {i}: A defends");
        assert_eq!(with_pair[i].1, as_attacker[i].1, "match {i}: B defends");
    }
    // A typo in the pair is named with its line.
    let bad = dir.join("bad.ron");
    std::fs::write(
        &bad,
        "Player(\n  defender: \"default.ron\",\n  atacker: \"x.ron\",\n)\n",
    )
    .unwrap();
    let out = run(&[
        "match",
        "--rules",
        "gpcc2016",
        "--a",
        bad.to_str().unwrap(),
        "--b",
        "eval2",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.ron:3:") && !stderr.contains("panicked"),
        "{stderr}"
    );
}
