//! Tuning a learned network's search settings: `player: Network(file: …)`
//! in a config. The run is the same on any thread count, records the
//! network's hash so that a resume refuses a changed file, and a config
//! that asks the network for what it has not (base weights, heuristic
//! terms, another game) exits 2 naming the field.

use std::path::Path;

use crate::cli_learn::learn;
use crate::cli_tune::rejected;
use crate::util::{bin, outcome, text, tune, TempDir};

/// A small network learned for the tests (lines-squares, 30 games).
fn small_network(dir: &Path) -> std::path::PathBuf {
    let folder = dir.join("learned");
    let out = learn(&folder, &["--games", "30", "--block", "10", "--seed", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    folder.join("network.nt")
}

/// A job tuning `network`'s probability cutoff under a budget of moves tried.
fn job(network: &Path, extra: &str) -> String {
    format!(
        r#"(
    name: "net",
    variant: Classic(p4: 0.1),
    search: (depth: Fixed(2), prob_cutoff: 0.0001, nodes: Some(400)),
    player: Network(file: "{}"),
    {extra}
    params: [(name: "prob_cutoff", min: 0.00001, max: 0.1, scale: 3.0, kind: Log)],
    objective: MeanScore,
    games_per_candidate: 4,
    population: 4,
    sigma0: 0.5,
    stop: (generations: 2),
    validation_games: 4,
    final_games: 6,
    restarts: None,
    seed: 11,
    threads: None,
    move_limit: Some(150),
)"#,
        network.display()
    )
}

#[test]
fn a_network_players_settings_tune_alike_on_any_thread_count_and_pin_the_file() {
    let tmp = TempDir::new("tune-network");
    let network = small_network(&tmp);
    let config = tmp.join("job.ron");
    std::fs::write(&config, job(&network, "")).unwrap();
    let one = tune(&config, &tmp.join("one"), Some(1));
    let two = tune(&config, &tmp.join("two"), Some(2));
    assert_eq!(outcome(&one), outcome(&two));
    let settings = std::fs::read_to_string(one.join("best-settings.ron")).unwrap();
    assert!(settings.contains("prob_cutoff"), "{settings}");
    let recorded = std::fs::read_to_string(one.join("config.ron")).unwrap();
    assert!(recorded.contains("hash: Some(\""), "{recorded}");

    // The network learned on: the run's recorded hash no longer matches.
    let folder = network.parent().unwrap();
    let out = learn(folder, &["--resume", "--games", "40"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let resumed = bin()
        .args(["resume", one.to_str().unwrap()])
        .output()
        .unwrap();
    let err = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(2), "{err}");
    assert!(
        err.contains("player.hash") && err.contains("changed since the run started"),
        "{err}"
    );
}

#[test]
fn a_network_player_refuses_weights_terms_and_another_game_by_field() {
    let tmp = TempDir::new("tune-network-bad");
    let network = small_network(&tmp);
    let good = job(&network, "");
    let cases = [
        (
            job(&network, r#"base_weights: "weights/nneonneo.ron","#),
            "base_weights",
        ),
        (
            good.replace(r#"name: "prob_cutoff""#, r#"name: "empty""#),
            "params[0].name",
        ),
        (
            good.replace("Classic(p4: 0.1)", "Twos"),
            "learned the classic game",
        ),
        (good.replace("network.nt", "missing.nt"), "player.file"),
    ];
    for (i, (text, expect)) in cases.iter().enumerate() {
        let config = tmp.join(format!("bad{i}.ron"));
        std::fs::write(&config, text).unwrap();
        let err = rejected(&config, &tmp.join(format!("out{i}")));
        assert!(err.contains(expect), "{expect}: {err}");
        assert!(err.contains(&format!("bad{i}.ron")), "{err}");
    }
}
