//! Tuning and evaluation on an MPI job (`cargo test --features mpi`; needs
//! Open MPI's `mpirun`): the same results on 1, 2 and 3 processes as on one
//! process without MPI, and a job that loses a rank mid-generation resumes
//! to the uninterrupted run.
#![cfg(feature = "mpi")]

use std::path::Path;
use std::process::{Command, Output};

use crate::cli_tune::{journal_has, write_config};
use crate::util::{bin_path, outcome, repo_path, run, run_folder, text, tune, TempDir};

/// `mpirun -np N --oversubscribe tune2048 ARGS…` (as root too, as in CI).
fn mpirun(processes: u32, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("mpirun");
    cmd.current_dir(repo_path(""))
        .args(["-np", &processes.to_string(), "--oversubscribe"])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    for (name, value) in env {
        cmd.env(name, value).args(["-x", name]);
    }
    cmd.arg(bin_path()).args(args);
    cmd.output()
        .expect("mpirun runs (install Open MPI: openmpi-bin)")
}

fn tune_on(processes: u32, config: &Path, out: &Path) -> Output {
    let args = [
        "tune",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    mpirun(processes, &[&args[..], &["--threads", "1"]].concat(), &[])
}

/// `eval --json` without its timing fields.
fn eval_summary(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for timing in ["moves_per_s", "games_per_s"] {
        json.as_object_mut().unwrap().remove(timing);
    }
    json
}

#[test]
fn one_two_and_three_processes_give_the_run_of_one_process_without_mpi() {
    let dir = TempDir::new("mpi-identity");
    let config = write_config(&dir, 3);
    let alone = outcome(&tune(&config, &dir.join("alone"), Some(2)));
    for processes in 1..=3 {
        let out = dir.join(format!("np{processes}"));
        let result = tune_on(processes, &config, &out);
        assert!(result.status.success(), "{}", text(&result.stderr));
        let folder = run_folder(&out);
        assert_eq!(outcome(&folder), alone, "{processes} processes");
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join("meta.json")).unwrap())
                .unwrap();
        assert_eq!(meta["processes"], processes, "one thread a process");
        assert_eq!(meta["threads"], processes);
    }

    // Rows reach the CSV file as games finish on any rank, placed by their
    // job: the file is the one-process file.
    let csv = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (plain_csv, mpi_csv) = (csv("plain.csv"), csv("mpi.csv"));
    let args = ["eval", "--depth", "1", "--games", "12", "--json", "--csv"];
    let plain = eval_summary(&run(&[&args[..], &[&plain_csv]].concat()));
    let on_three = mpirun(3, &[&args[..], &[&mpi_csv]].concat(), &[]);
    assert_eq!(eval_summary(&on_three), plain);
    assert_eq!(
        std::fs::read_to_string(&mpi_csv).unwrap(),
        std::fs::read_to_string(&plain_csv).unwrap()
    );
}

#[test]
fn an_external_player_tunes_the_same_on_one_two_and_three_processes() {
    let dir = TempDir::new("mpi-external");
    let Some(exe) = crate::cli_players::c_player(&dir) else {
        return;
    };
    let command = [exe.display().to_string(), "--depth".into(), "0".into()];
    let config = crate::cli_players::write_job(&dir, &command, 3, true);
    let alone = outcome(&tune(&config, &dir.join("alone"), Some(2)));
    for processes in 1..=3 {
        let out = dir.join(format!("np{processes}"));
        // Each rank starts its own players, one per thread.
        let result = tune_on(processes, &config, &out);
        assert!(result.status.success(), "{}", text(&result.stderr));
        assert_eq!(outcome(&run_folder(&out)), alone, "{processes} processes");
    }
    // Every rank's threads play in lock step, lines of 3 boards: the games
    // of one process without MPI.
    let player = command.join(" ");
    let args = [
        "eval",
        "--player",
        &player,
        "--lockstep",
        "3",
        "--depth",
        "0",
        "--games",
        "30",
        "--json",
    ];
    let plain = eval_summary(&run(&args));
    for processes in [2, 3] {
        assert_eq!(
            eval_summary(&mpirun(processes, &args, &[])),
            plain,
            "{processes} processes"
        );
    }
}

#[test]
fn a_rank_lost_mid_generation_ends_the_job_and_resume_gives_the_uninterrupted_run() {
    let dir = TempDir::new("mpi-fault");
    let config = write_config(&dir, 4);
    let whole = outcome(&tune(&config, &dir.join("whole"), Some(2)));

    // Rank 1 aborts after its first game of the 4th batch: generation 1's
    // candidates (batches: the base's games, then each generation's
    // candidates and validation).
    let out = dir.join("lost");
    let args = [
        "tune",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let args = [&args[..], &["--threads", "1"]].concat();
    // When a rank dies, Open MPI sends the others SIGTERM and, by default,
    // SIGKILL one second later; on a loaded machine (the other MPI test runs
    // beside this one) rank 0 may need longer than that to print its hint.
    let lost = mpirun(
        3,
        &args,
        &[
            ("TUNE2048_MPI_FAULT", "1:4"),
            ("OMPI_MCA_odls_base_sigkill_timeout", "10"),
        ],
    );
    assert!(!lost.status.success());
    let stderr = text(&lost.stderr);
    assert!(stderr.contains("the MPI job is ending"), "{stderr}");
    assert!(stderr.contains("tune2048 resume"), "{stderr}");
    let folder = run_folder(&out);
    assert!(journal_has(
        &folder,
        r#""kind":"generation","generation":0"#
    ));
    assert!(!journal_has(
        &folder,
        r#""kind":"generation","generation":1"#
    ));

    let resumed = mpirun(
        2,
        &["resume", folder.to_str().unwrap(), "--threads", "1"],
        &[],
    );
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(outcome(&folder), whole);
}
