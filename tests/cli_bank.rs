//! Position banks through the real binary: `bank` writes the same file on
//! any number of threads, `eval --bank` starts games from it, and a tuning
//! run from a bank resumes exactly and refuses a bank that changed.

use std::path::{Path, PathBuf};

use crate::util::{bin, outcome, repo_path, run, text, tune, TempDir};

/// A small bank: depth 0 games, positions at the first 256 and every 100 moves.
fn make_bank(dir: &Path, name: &str, threads: &str) -> PathBuf {
    let path = dir.join(name);
    let out = run(&[
        "bank",
        "--weights",
        repo_path("configs/weights/nneonneo.ron").to_str().unwrap(),
        "--depth",
        "0",
        "--games",
        "30",
        "--seed",
        "3",
        "--stage",
        "256",
        "--stage",
        "every:100",
        "--threads",
        threads,
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("stage 256: 28 positions"), "{stdout}");
    path
}

#[test]
fn bank_files_do_not_depend_on_threads_and_feed_eval() {
    let dir = TempDir::new("bank");
    let one = std::fs::read_to_string(make_bank(&dir, "one.csv", "1")).unwrap();
    let two = make_bank(&dir, "two.csv", "2");
    assert_eq!(one, std::fs::read_to_string(&two).unwrap());
    // The comment line, the header fields (the variant and what played the
    // games), then the column line.
    let lines: Vec<&str> = one.lines().collect();
    assert!(lines[0].starts_with("# tune2048 bank: "), "{one}");
    assert_eq!(&lines[1..3], ["#! variant: classic", "#! p4: 0.1"], "{one}");
    let columns = lines.iter().position(|l| !l.starts_with('#')).unwrap();
    assert_eq!(lines[columns], "stage,board,score,moves,seed");
    for key in [
        "weights_file",
        "weights",
        "search",
        "games",
        "seed",
        "stages",
    ] {
        let field = format!("#! {key}: ");
        assert!(
            lines[..columns].iter().any(|l| l.starts_with(&field)),
            "{key}: {one}"
        );
    }
    assert!(one.contains("#! search: (depth:Fixed(0),"), "{one}");
    let csv = dir.join("games.csv");
    let eval = |stage: &str| {
        run(&[
            "eval",
            "--weights",
            &crate::util::weights("nneonneo.ron"),
            "--depth",
            "0",
            "--games",
            "20",
            "--bank",
            two.to_str().unwrap(),
            "--bank-stage",
            stage,
            "--csv",
            csv.to_str().unwrap(),
        ])
    };
    let out = eval("256");
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Every game started from a board holding a 256, and went on from there.
    let rows = std::fs::read_to_string(&csv).unwrap();
    for row in rows.lines().skip(1) {
        let fields: Vec<&str> = row.split(',').collect();
        assert!(fields[3].parse::<u32>().unwrap() >= 256, "{row}");
    }
    assert_eq!(rows.lines().count(), 21);
    let out = eval("512");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no position of stage `512`"));
}

#[test]
fn malformed_banks_exit_2_naming_file_line_and_field() {
    let dir = TempDir::new("badbank");
    let path = dir.join("bad.csv");
    std::fs::write(&path, "stage,board,score,moves,seed\n256,00zz,1,2,3\n").unwrap();
    let out = run(&[
        "eval",
        "--depth",
        "0",
        "--games",
        "2",
        "--bank",
        path.to_str().unwrap(),
        "--bank-stage",
        "256",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad.csv:2: field `board`"), "{stderr}");
}

/// A small job whose games start from `bank`'s 256 positions.
fn write_config(dir: &Path, bank: &Path, objective: &str) -> PathBuf {
    let text = format!(
        r#"(
    name: "b",
    variant: Classic(p4: 0.1),
    search: (depth: Fixed(0), prob_cutoff: 0.0001),
    base_weights: "{}",
    params: [
        (name: "empty", min: 0.0, max: 2000.0, scale: 100.0),
        (name: "monotonicity_power", min: 0.5, max: 8.0, scale: 1.0),
    ],
    objective: {objective},
    games_per_candidate: 16,
    population: 4,
    sigma0: 0.5,
    stop: (generations: 3),
    validation_games: 8,
    final_games: 0,
    seed: 11,
    bank: (file: "{}", stage: "256"),
)
"#,
        repo_path("configs/weights/nneonneo.ron").display(),
        bank.display()
    );
    let path = dir.join("job.ron");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_run_from_a_bank_resumes_exactly_and_refuses_a_changed_bank() {
    let dir = TempDir::new("banktune");
    let bank = make_bank(&dir, "bank.csv", "2");
    let config = write_config(&dir, &bank, "ReachNext");
    let whole = tune(&config, &dir.join("whole"), Some(2));
    assert_eq!(
        std::fs::read(whole.join("bank.csv")).unwrap(),
        std::fs::read(&bank).unwrap()
    );
    let copy = std::fs::read_to_string(whole.join("config.ron")).unwrap();
    assert!(
        copy.contains("file: \"bank.csv\"") && copy.contains("hash: Some("),
        "{copy}"
    );

    // As if the run had crashed in generation 1: keep the journal up to
    // there, drop the derived files, resume.
    let cut = dir.join("cut");
    std::fs::create_dir(&cut).unwrap();
    for f in ["config.ron", "base.ron", "bank.csv", "meta.json"] {
        std::fs::copy(whole.join(f), cut.join(f)).unwrap();
    }
    let journal = std::fs::read_to_string(whole.join("journal.jsonl")).unwrap();
    let at = journal.find(r#""generation":1"#).unwrap();
    let line = journal[..at].rfind('\n').map_or(0, |i| i + 1);
    std::fs::write(cut.join("journal.jsonl"), &journal[..line]).unwrap();
    let out = bin()
        .args(["resume", cut.to_str().unwrap(), "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(outcome(&whole), outcome(&cut));

    // With no final comparison, a run killed after its stop record but
    // before `summary.txt` is not finished: resume replays it and writes
    // the end, recording the stop only once.
    let journal = std::fs::read_to_string(cut.join("journal.jsonl")).unwrap();
    std::fs::remove_file(cut.join("summary.txt")).unwrap();
    let out = bin()
        .args(["resume", cut.to_str().unwrap(), "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("resuming"),
        "{}",
        text(&out.stderr)
    );
    assert!(cut.join("summary.txt").exists());
    assert_eq!(
        std::fs::read_to_string(cut.join("journal.jsonl")).unwrap(),
        journal
    );
    let out = bin()
        .args(["resume", cut.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(text(&out.stderr).contains("is finished already"));

    // A bank edited in the folder is refused, with the field and the file.
    let edited = std::fs::read_to_string(cut.join("bank.csv")).unwrap() + "# edited\n";
    std::fs::write(cut.join("bank.csv"), edited).unwrap();
    let out = bin()
        .args(["resume", cut.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("field `bank.hash`"), "{stderr}");
    assert!(stderr.contains("changed since the run started"), "{stderr}");
}

#[test]
fn bank_objectives_are_checked_against_the_config() {
    let dir = TempDir::new("bankobjective");
    let bank = make_bank(&dir, "bank.csv", "2");
    let config = write_config(&dir, &bank, "ReachNext");
    let text_of = std::fs::read_to_string(&config).unwrap();
    let start = text_of.find("    bank:").unwrap();
    std::fs::write(&config, format!("{})\n", &text_of[..start])).unwrap();
    let out = run(&[
        "tune",
        config.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("field `objective`"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("out").exists());
}

/// `eval --variant twos` from `bank`'s 256 positions, with `more` arguments.
fn twos_from(bank: &Path, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "eval",
        "--variant",
        "twos",
        "--depth",
        "0",
        "--games",
        "4",
        "--bank",
        bank.to_str().unwrap(),
        "--bank-stage",
        "256",
    ];
    args.extend(more);
    run(&args)
}

#[test]
fn a_classic_bank_is_refused_to_twos_games_unless_intended() {
    let dir = TempDir::new("bankvariant");
    let bank = make_bank(&dir, "classic.csv", "2");
    let out = twos_from(&bank, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    // The file, the line of its `variant` field, both variants, the way out.
    assert!(
        stderr.contains("classic.csv:2: field `variant`: the bank's positions come from classic (p4 0.1) games, not twos ones"),
        "{stderr}"
    );
    assert!(stderr.contains("--bank-other-variant"), "{stderr}");
    let out = twos_from(&bank, &["--bank-other-variant"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Another p4 is another variant too.
    let out = run(&[
        "eval",
        "--p4",
        "0.2",
        "--depth",
        "0",
        "--games",
        "2",
        "--bank",
        bank.to_str().unwrap(),
        "--bank-stage",
        "256",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not classic (p4 0.2) ones"));

    // A tuning run of twos: refused naming the config's field and the bank
    // file, unless the config's bank says `other_variant: true`.
    let config = write_config(&dir, &bank, "MeanGain");
    let twos = std::fs::read_to_string(&config)
        .unwrap()
        .replace("variant: Classic(p4: 0.1),", "variant: Twos,");
    std::fs::write(&config, &twos).unwrap();
    let out = run(&[
        "tune",
        config.to_str().unwrap(),
        "--out",
        dir.join("refused").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("job.ron:") && stderr.contains("field `bank.file`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("classic.csv:2: field `variant`"),
        "{stderr}"
    );
    assert!(stderr.contains("other_variant: true"), "{stderr}");
    assert!(!dir.join("refused").exists());
    let intended = twos.replace(r#"stage: "256")"#, r#"stage: "256", other_variant: true)"#);
    assert_ne!(intended, twos);
    std::fs::write(&config, intended).unwrap();
    let folder = tune(&config, &dir.join("intended"), Some(2));
    let copy = std::fs::read_to_string(folder.join("config.ron")).unwrap();
    assert!(copy.contains("other_variant: true"), "{copy}");
}

#[test]
fn banks_without_header_fields_load_as_before() {
    // The shipped banks predate the fields: any variant may start from them.
    for (bank, stage, variant) in [
        ("banks/d2-default.csv", "8192", "twos"),
        ("banks/twos-16384.csv", "16384", "classic"),
    ] {
        let path = repo_path(bank);
        let head = std::fs::read_to_string(&path).unwrap();
        assert!(!head.contains("#!"), "{bank} has header fields");
        let out = run(&[
            "eval",
            "--variant",
            variant,
            "--depth",
            "0",
            "--games",
            "3",
            "--bank",
            path.to_str().unwrap(),
            "--bank-stage",
            stage,
            "--json",
        ]);
        assert!(out.status.success(), "{bank}: {}", text(&out.stderr));
    }
}

#[test]
fn malformed_header_fields_name_their_line_and_field() {
    let dir = TempDir::new("bankfields");
    let rows = "stage,board,score,moves,seed\n256,1200000000000000,0,0,1\n";
    for (head, expect) in [
        (
            "#! variant: hex\n",
            "h.csv:1: field `variant`: `hex` is not a variant",
        ),
        ("#! variant: classic\n", "h.csv:1: field `p4`"),
        (
            "#! variant: classic\n#! p4: 2\n",
            "h.csv:2: field `p4`: `2` is not a probability",
        ),
        (
            "# c\n#! variant: twos\n#! p4: 0.1\n",
            "h.csv:3: field `p4`: twos games spawn no 4",
        ),
        ("#! variant\n", "h.csv:1: field `header`"),
    ] {
        let path = dir.join("h.csv");
        std::fs::write(&path, format!("{head}{rows}")).unwrap();
        let out = twos_from(&path, &[]);
        assert_eq!(out.status.code(), Some(2), "{head}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expect), "{head}: {stderr}");
    }
    // A field after the column line is not a header field.
    let path = dir.join("late.csv");
    std::fs::write(&path, format!("{rows}#! variant: twos\n")).unwrap();
    let stderr = text(&twos_from(&path, &[]).stderr);
    assert!(stderr.contains("late.csv:3: field `header`"), "{stderr}");
    // A twos header feeds twos games.
    let path = dir.join("twos.csv");
    std::fs::write(&path, format!("#! variant: twos\n{rows}")).unwrap();
    let out = twos_from(&path, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn a_network_banks_the_positions_of_its_own_games() {
    let dir = TempDir::new("bank-network");
    let net = repo_path("configs/networks/twos.ntp");
    let make = |name: &str, threads: &str| {
        let path = dir.join(name);
        let out = run(&[
            "bank",
            "--network",
            net.to_str().unwrap(),
            "--variant",
            "twos",
            "--depth",
            "0",
            "--games",
            "4",
            "--seed",
            "5",
            "--move-limit",
            "1200",
            "--stage",
            "every:500",
            "--threads",
            threads,
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("stage every:500: 8 positions"),
            "{}",
            text(&out.stdout)
        );
        std::fs::read_to_string(path).unwrap()
    };
    let one = make("one.csv", "1");
    assert_eq!(one, make("two.csv", "2"));
    // The hash is the network file's, FNV-1a of all its bytes.
    let hash = tune2048::fnv::hash(&std::fs::read(&net).unwrap());
    assert!(
        one.contains("\n#! network_file: ")
            && one.contains(&format!("\n#! network_hash: {hash:016x}\n")),
        "{one}"
    );
    assert!(!one.contains("weights"), "{one}");
    // Each of the 4 games gives its boards after 500 and 1,000 moves.
    let rows: Vec<&str> = one
        .lines()
        .filter(|l| l.starts_with("every:500,"))
        .collect();
    assert_eq!(rows.len(), 8);
    let moves: Vec<&str> = rows.iter().map(|r| r.split(',').nth(3).unwrap()).collect();
    assert_eq!(moves, ["500", "1000"].repeat(4));

    // A network of another game, and a network beside weights, are refused.
    let out = run(&[
        "bank",
        "--network",
        net.to_str().unwrap(),
        "--games",
        "2",
        "--stage",
        "256",
        "--out",
        dir.join("bad.csv").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("a network for the twos game"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("bad.csv").exists());
    let out = run(&[
        "bank",
        "--network",
        net.to_str().unwrap(),
        "--weights",
        repo_path("configs/weights/nneonneo.ron").to_str().unwrap(),
        "--games",
        "2",
        "--stage",
        "256",
        "--out",
        dir.join("bad.csv").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bank_plays_with_search_settings_and_records_them() {
    let dir = TempDir::new("bank-settings");
    let settings = dir.join("late.search.ron");
    std::fs::write(&settings, "(downgrade_at: 4096, prob_cutoff: 0.001)\n").unwrap();
    let bank = |settings: &Path, name: &str| {
        run(&[
            "bank",
            "--weights",
            repo_path("configs/weights/nneonneo.ron").to_str().unwrap(),
            "--settings",
            settings.to_str().unwrap(),
            "--depth",
            "1",
            "--games",
            "3",
            "--seed",
            "8",
            "--move-limit",
            "300",
            "--stage",
            "every:100",
            "--out",
            dir.join(name).to_str().unwrap(),
        ])
    };
    let out = bank(&settings, "late.csv");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.join("late.csv")).unwrap();
    let search = written
        .lines()
        .find(|l| l.starts_with("#! search: "))
        .unwrap_or_else(|| panic!("no search field in {written}"));
    // 4096 is rank 12; the file's cutoff replaces the default 0.0001.
    assert!(
        search.contains("downgrade_at:12") && search.contains("prob_cutoff:0.001"),
        "{search}"
    );

    // A settings file with a field it does not know is refused, naming it.
    std::fs::write(&settings, "(downgrade_at: 4096,\n depth_rule: 3)\n").unwrap();
    let out = bank(&settings, "bad.csv");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("late.search.ron") && stderr.contains("depth_rule"),
        "{stderr}"
    );
    assert!(!dir.join("bad.csv").exists());
}
