//! External players over the line protocol, through the real binary: the
//! example C and Python players play the built-in player's games move for
//! move; a tuning run of one is independent of the thread count and resumes
//! exactly after `kill -9`; every kind of misbehaving player ends the
//! command with a clear error, exit status 2 and nothing left running; a run
//! whose player crashed, answered garbage or an illegal move, exited or was too
//! slow resumes once the player is fixed, to the uninterrupted run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cli_tune::{journal_has, start_tune, wait_for};
use crate::plot_export::have_compiler;
use crate::util::{bin, outcome, repo_path, run_folder, text, tune, weights, TempDir};

/// The example C player, compiled into `dir` with the system's C compiler;
/// `None` (the test skips, and says so) without one, unless CI requires it
/// ([`REQUIRE_COMPILERS`](crate::plot_export::REQUIRE_COMPILERS)).
pub(crate) fn c_player(dir: &Path) -> Option<PathBuf> {
    if !have_compiler("cc", "the example C player") {
        return None;
    }
    let exe = dir.join("ref_player");
    let status = Command::new("cc")
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(repo_path("examples/players/ref_player.c"))
        .arg("-lm")
        .status()
        .expect("a C compiler `cc` (the external-player tests build the example C player)");
    assert!(status.success(), "the example C player does not compile");
    Some(exe)
}

fn python_player(mode: &str) -> String {
    format!(
        "python3 {} {mode}",
        repo_path("tests/players/bad_player.py").display()
    )
}

/// `compare`'s last line: `B - A: … B wins/losses/ties W/L/T`.
fn paired_line(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    stdout.lines().last().unwrap().to_string()
}

/// `compare` of the reference weights against `player` on `games` games at
/// `depth` (and `extra` flags), over version 2 and then version 1: every
/// game a tie, the same game move for move.
fn assert_same_games(player: &str, depth: &str, games: &str, extra: &[&str]) {
    let nneonneo = weights("nneonneo.ron");
    for lockstep in ["64", "1"] {
        let mut args = vec![
            "compare",
            "--lockstep",
            lockstep,
            "--weights",
            &nneonneo,
            "--player",
            player,
            "--depth",
            depth,
            "--games",
            games,
            "--seed",
            "9",
        ];
        args.extend_from_slice(extra);
        let line = paired_line(&args);
        let ties = format!("wins/losses/ties 0/0/{games}");
        assert!(line.ends_with(&ties), "--lockstep {lockstep}: {line}");
    }
}

#[test]
fn the_example_players_play_the_builtin_players_games_move_for_move() {
    let dir = TempDir::new("same-games");
    let Some(exe) = c_player(&dir) else {
        return;
    };
    assert_same_games(&format!("{} --depth 1", exe.display()), "1", "24", &[]);
    // The Python example, slower: greedy play, shorter games.
    let py = format!(
        "python3 {} --depth 0",
        repo_path("examples/players/ref_player.py").display()
    );
    assert_same_games(&py, "0", "3", &["--move-limit", "300"]);
}

/// A small job tuning an external player at depth 0 (fast games): its
/// `empty`, and the C player's `monotonicity_power` when `both`.
pub(crate) fn write_job(dir: &Path, command: &[String], generations: u32, both: bool) -> PathBuf {
    let second = if both {
        r#"(name: "monotonicity_power", min: 0.5, max: 8.0, scale: 1.0),"#
    } else {
        ""
    };
    let command: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
    let text = format!(
        r#"(
    name: "ext",
    variant: Classic(p4: 0.1),
    search: (depth: Fixed(0)),
    player: External(command: [{}], decision_secs: 5.0, handshake_secs: 10.0),
    params: [
        (name: "empty", min: 0.0, max: 2000.0, scale: 200.0),
        {second}
    ],
    objective: MeanScore,
    games_per_candidate: 24,
    population: 6,
    sigma0: 0.5,
    stop: (generations: {generations}),
    validation_games: 16,
    final_games: 24,
    reselect: Some((top: 2, games: 16)),
    seed: 7,
)
"#,
        command.join(", ")
    );
    let path = dir.join("job.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// Whether a process whose command line contains `needle` is running.
fn running(needle: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().any(|e| {
        let cmdline = e.unwrap().path().join("cmdline");
        std::fs::read(cmdline).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle))
    })
}

#[test]
fn an_external_player_tunes_the_same_on_any_thread_count_and_after_kill_9() {
    let dir = TempDir::new("ext-tune");
    let Some(exe) = c_player(&dir) else {
        return;
    };
    let command = vec![exe.display().to_string(), "--depth".into(), "0".into()];
    let config = write_job(&dir, &command, 4, true);
    let one = tune(&config, &dir.join("one"), Some(1));
    let two = tune(&config, &dir.join("two"), Some(2));
    assert_eq!(outcome(&one), outcome(&two));
    // Version 1, a board a line: the same run.
    let v1 = dir.join("job-v1.ron");
    let job = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &v1,
        job.replace(
            "handshake_secs: 10.0)",
            "handshake_secs: 10.0, lockstep: 1)",
        ),
    )
    .unwrap();
    assert_eq!(outcome(&one), outcome(&tune(&v1, &dir.join("v1"), Some(2))));
    // What a player reads, and every parameter by name.
    let set = std::fs::read_to_string(one.join("best.set")).unwrap();
    assert!(set.starts_with("set empty ") && set.contains("\nset monotonicity_power "));
    let params: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("best-params.json")).unwrap())
            .unwrap();
    assert_eq!(params["player"], format!("{} --depth 0", exe.display()));
    assert!(params["params"]["empty"].is_f64());
    assert!(!one.join("best.ron").exists(), "no built-in weights");
    for (format, needle) in [
        ("set", "set empty "),
        ("json", "\"empty\":"),
        ("c", "#define TUNE2048_PARAM_EMPTY "),
    ] {
        let out = bin()
            .args(["export", one.to_str().unwrap(), "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(needle),
            "{format}: {}",
            text(&out.stdout)
        );
    }
    // The tuned values play back through `eval --values`.
    let out = bin()
        .args(["eval", "--player", &command.join(" "), "--values"])
        .arg(one.join("best.set"))
        .args(["--depth", "0", "--games", "4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Killed in the middle of generation 2, then resumed.
    let (mut child, folder) = start_tune(&config, &dir.join("killed"));
    wait_for(|| journal_has(&folder, r#""kind":"eval","generation":2"#));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !journal_has(&folder, r#""kind":"generation","generation":2"#),
        "killed too late"
    );
    // Its player died with it (it is killed when the thread that started it ends).
    let exe_name = exe.display().to_string();
    wait_for(|| !running(&exe_name));
    let status = bin()
        .args(["resume", folder.to_str().unwrap(), "--threads", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(outcome(&one), outcome(&folder));
    assert!(!running(&exe_name), "a player outlived the run");
}

/// Runs `eval` with `player` and extra `args`; its exit status must be 2
/// and its stderr name the player; gives that stderr.
fn failing_eval(player: &str, args: &[&str]) -> String {
    let out = bin()
        .args(["eval", "--player", player, "--decision-secs", "1"])
        .args(["--handshake-secs", "2", "--games", "3", "--depth", "0"])
        .args(args)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{player}: {stderr}");
    assert!(
        stderr.contains(&format!("error: player `{player}`")),
        "{player}: {stderr}"
    );
    stderr
}

#[test]
fn every_misbehaving_player_ends_the_command_with_its_error_and_nothing_left_running() {
    let cases = [
        (
            "slow",
            "no answer within the limit of 1 s; the line sent: `board ",
        ),
        (
            "silent",
            "no answer within the limit of 1 s; the line sent: `board ",
        ),
        (
            "crash",
            "the program ended (exit status 3) in the middle of a game",
        ),
        ("garbage", "`sideways` is not one of U, D, L, R"),
        ("illegal", "does not change the board"),
        (
            "exit",
            "the program ended (exit status 0) in the middle of a game",
        ),
        (
            "badparam",
            "handshake: the default of `empty` is not a finite number",
        ),
        ("noready", "handshake: no answer within the limit of 2 s"),
        ("dupparam", "handshake: parameter `empty` is declared twice"),
        ("spawner", "no answer within the limit of 1 s"),
    ];
    for (mode, message) in cases {
        let player = python_player(mode);
        // Version 1: a board a line.
        let stderr = failing_eval(&player, &["--threads", "2", "--lockstep", "1"]);
        assert!(stderr.contains(message), "{mode}: {stderr}");
        if !mode.ends_with("param") && mode != "noready" {
            assert!(stderr.contains(", game seed "), "{mode}: {stderr}");
        }
        if mode == "crash" {
            assert!(
                stderr.contains("    | bad_player: crashing on purpose"),
                "{stderr}"
            );
        }
        if mode == "spawner" {
            // The player's own child went with its process group.
            let pid = stderr
                .split("spawned ")
                .nth(1)
                .and_then(|t| t.split_whitespace().next())
                .unwrap_or_else(|| panic!("no pid in {stderr}"));
            wait_for(|| !Path::new(&format!("/proc/{pid}")).exists());
        }
        wait_for(|| !running(&format!("bad_player.py {mode}")));
    }
}

#[test]
fn every_misbehaving_version_2_player_is_caught_with_the_game_and_the_line() {
    // One thread, three games in lock step: lines of 3 boards, the 5th
    // board the second of the second line.
    let cases = [
        (
            "slow",
            "no answer within the limit of 3 s (1 s a board, 3 boards); the line sent: `boards 3 ",
        ),
        (
            "silent",
            "no answer within the limit of 3 s (1 s a board, 3 boards)",
        ),
        (
            "crash",
            "the program ended (exit status 3) in the middle of a game, with 3 games in flight",
        ),
        (
            "exit",
            "the program ended (exit status 0) in the middle of a game, with 3 games in flight",
        ),
        (
            "garbage",
            "move 2 of 3: `sideways` is not one of U, D, L, R; the line sent: `boards 3 ",
        ),
        ("illegal", " of 3, "),
        ("double", "before it was asked to move"),
        (
            "few",
            "too few moves: 2 answers to 3 boards; the line sent: `boards 3 ",
        ),
        ("many", "too many moves: 4 answers to 3 boards"),
        (
            "badparam",
            "handshake: the default of `empty` is not a finite number",
        ),
        ("dupparam", "handshake: parameter `empty` is declared twice"),
        ("spawner", "no answer within the limit of 3 s"),
    ];
    for (mode, message) in cases {
        let player = python_player(mode);
        let stderr = failing_eval(&player, &["--threads", "1", "--lockstep", "8"]);
        assert!(stderr.contains(message), "{mode}: {stderr}");
        if !mode.ends_with("param") {
            assert!(stderr.contains(", game seed "), "{mode}: {stderr}");
        }
        if mode == "illegal" {
            assert!(stderr.contains("does not change the board `"), "{stderr}");
        }
        if mode == "crash" {
            assert!(
                stderr.contains("    | bad_player: crashing on purpose"),
                "{stderr}"
            );
        }
        wait_for(|| !running(&format!("bad_player.py {mode}")));
    }
    // A strict version 1 program refuses `hello 2`: it is greeted again
    // with `hello 1` and plays its games.
    let strict = format!("{} v1", python_player("ok"));
    let out = bin()
        .args(["eval", "--player", &strict, "--games", "3", "--depth", "0"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn a_misbehaving_player_is_caught_with_two_lines_in_flight() {
    // One thread, lines of 2: the first line holds games 1 and 2, the second
    // game 3, and the 5th board is the second of the first line's second
    // round, sent while the second line was still unanswered.
    let cases = [
        (
            "slow",
            "no answer within the limit of 2 s (1 s a board, 2 boards)",
        ),
        (
            "crash",
            "the program ended (exit status 3) in the middle of a game, with 3 games in flight",
        ),
        (
            "garbage",
            "move 2 of 2: `sideways` is not one of U, D, L, R",
        ),
        ("illegal", "does not change the board `"),
        (
            "few",
            "too few moves: 1 answers to 2 boards; the line sent: `boards 2 ",
        ),
    ];
    for (mode, message) in cases {
        let player = python_player(mode);
        let stderr = failing_eval(&player, &["--threads", "1", "--lockstep", "2"]);
        assert!(stderr.contains(message), "{mode}: {stderr}");
        assert!(stderr.contains(", game seed "), "{mode}: {stderr}");
        wait_for(|| !running(&format!("bad_player.py {mode}")));
    }
}

/// `eval`'s CSV of `player`'s games with `args`.
fn games_csv(dir: &Path, player: &str, args: &[&str]) -> String {
    let csv = dir.join(format!("games-{}.csv", args.join("_")));
    let out = bin()
        .args([
            "eval", "--player", player, "--depth", "1", "--games", "30", "--seed", "5",
        ])
        .args(args)
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read_to_string(csv).unwrap()
}

#[test]
fn version_2_plays_version_1_s_games_with_any_lockstep_and_thread_count() {
    let dir = TempDir::new("lockstep");
    let Some(exe) = c_player(&dir) else {
        return;
    };
    let c = format!("{} --depth 1", exe.display());
    let v1 = games_csv(&dir, &c, &["--lockstep", "1", "--threads", "1"]);
    assert!(v1.lines().count() > 30, "{v1}");
    for args in [
        ["--lockstep", "64", "--threads", "1"],
        ["--lockstep", "7", "--threads", "2"],
        ["--lockstep", "1024", "--threads", "3"],
    ] {
        assert_eq!(games_csv(&dir, &c, &args), v1, "{args:?}");
    }
}

/// Makes `script` a shell script that runs the Python fixture in `mode`: a
/// player whose command stays the same while its behaviour changes, as a
/// program fixed in place would.
fn point_script_at(script: &Path, mode: &str) {
    let text = format!("#!/bin/sh\nexec {}\n", python_player(mode));
    std::fs::write(script, text).unwrap();
    let mut perms = std::fs::metadata(script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(script, perms).unwrap();
}

#[test]
fn an_eval_whose_player_fails_keeps_its_finished_games_for_resume() {
    let dir = TempDir::new("eval-fail");
    let script = dir.join("player.sh");
    let set_mode = |mode: &str| point_script_at(&script, mode);
    let eval = |csv: &Path, extra: &[&str]| {
        bin()
            .args(["eval", "--player", script.to_str().unwrap(), "--games", "6"])
            .args([
                "--depth",
                "0",
                "--seed",
                "3",
                "--threads",
                "1",
                "--lockstep",
                "1",
            ])
            .arg("--csv")
            .arg(csv)
            .args(extra)
            // Games 0 and 1 take its first 336 boards, game 2 the next 155.
            .env("BAD_PLAYER_ON", "400")
            .output()
            .unwrap()
    };
    set_mode("ok");
    let whole = dir.join("whole.csv");
    assert!(eval(&whole, &[]).status.success());

    set_mode("crash");
    let csv = dir.join("games.csv");
    let out = eval(&csv, &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("crashing on purpose"), "{stderr}");
    assert!(
        stderr.contains("games 0..2 finished before the failure and are kept in ")
            && stderr.contains("games.csv.partial: once its cause is fixed"),
        "{stderr}"
    );
    wait_for(|| !running("bad_player.py crash"));

    set_mode("ok");
    let out = eval(&csv, &["--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("resumed: games 0..2 kept"));
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

#[test]
fn a_run_whose_player_fails_resumes_once_the_player_is_fixed() {
    let dir = TempDir::new("ext-fail");
    let script = dir.join("player.sh");
    let set_mode = |mode: &str| point_script_at(&script, mode);
    set_mode("ok");
    let config = write_job(&dir, &[script.display().to_string()], 2, false);
    // A short decision limit, for the slow player.
    let job = std::fs::read_to_string(&config)
        .unwrap()
        .replace("decision_secs: 5.0", "decision_secs: 1.0");
    std::fs::write(&config, job).unwrap();
    let whole = tune(&config, &dir.join("whole"), Some(2));

    for (mode, message) in [
        ("crash", "crashing on purpose"),
        ("garbage", "`sideways` is not one of U, D, L, R"),
        ("illegal", "does not change the board"),
        ("exit", "the program ended (exit status 0)"),
        ("slow", "no answer within the limit of 1 s"),
    ] {
        set_mode(mode);
        let out_dir = dir.join(mode);
        let out = bin()
            .args(["tune", config.to_str().unwrap(), "--threads", "2", "--out"])
            .arg(&out_dir)
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{mode}: {stderr}");
        assert!(
            stderr.contains("game seed ") && stderr.contains(message),
            "{mode}: {stderr}"
        );
        let folder = run_folder(&out_dir);
        tune2048::tune::journal::read_for_replay(&folder.join("journal.jsonl"))
            .expect("an intact journal");
        wait_for(|| !running(&format!("bad_player.py {mode}")));

        set_mode("ok");
        let out = bin()
            .args(["resume", folder.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{mode}: {}", text(&out.stderr));
        assert_eq!(outcome(&whole), outcome(&folder), "{mode}");
    }
}
