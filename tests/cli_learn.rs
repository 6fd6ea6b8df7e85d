//! `learn` and the network player through the binary.

use std::path::Path;

use tune2048::engine::Variant;
use tune2048::network::{Boundary, Network};
use tune2048::search::{Depth, SearchParams};
use tune2048::seeds::game_seed;
use tune2048::selfplay::{play_one, GameSpec};

use crate::util::{run, text, TempDir};

pub(crate) fn learn(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["learn", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn a_learning_run_resumed_after_a_kill_ends_where_an_unbroken_one_does() {
    let tmp = TempDir::new("learn");
    let whole = tmp.join("whole");
    let out = learn(&whole, &["--games", "60", "--block", "20", "--seed", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let progress = std::fs::read_to_string(whole.join("progress.csv")).unwrap();
    assert_eq!(progress.lines().count(), 4, "{progress}");
    assert!(progress.lines().nth(3).unwrap().starts_with("60,0.1,"));

    // A run stopped after its first block; the kill came after the next
    // block's progress row was written but before its network was: resume
    // drops that row.
    let piece = tmp.join("piece");
    assert!(
        learn(&piece, &["--games", "20", "--block", "20", "--seed", "4"])
            .status
            .success()
    );
    let rows = std::fs::read_to_string(piece.join("progress.csv")).unwrap();
    let stray = rows.lines().nth(1).unwrap().replacen("20,", "40,", 1);
    std::fs::write(piece.join("progress.csv"), format!("{rows}{stray}\n")).unwrap();
    let again = learn(&piece, &["--games", "60", "--block", "20", "--resume"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let a = std::fs::read(whole.join("network.nt")).unwrap();
    let b = std::fs::read(piece.join("network.nt")).unwrap();
    assert!(
        a == b,
        "the resumed network differs from the unbroken run's"
    );
    let resumed = std::fs::read_to_string(piece.join("progress.csv")).unwrap();
    let games = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(games(&resumed), games(&progress));
}

/// Networks learned by the methods, pinned by their files' hashes: each
/// is what the learner of 7d45f40 (weights and sums in tables of their
/// own) learned, bit for bit, so a change in how learning is computed
/// cannot change what it learns unnoticed.
#[test]
fn the_methods_learn_the_networks_they_always_learned() {
    let tmp = TempDir::new("learn-golden");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--lambda", "0.5", "--coherence", "--restarts"],
            "ba71fa8fcb7e06c9",
        ),
        (
            &[
                "--coherence",
                "--stages",
                "2048",
                "--promote",
                "--rounds",
                "4",
                "--block",
                "100",
            ],
            "4bbd6209f1a07f64",
        ),
        (
            &[
                "--lambda",
                "0.5",
                "--rounds",
                "4",
                "--block",
                "100",
                "--stages",
                "1024",
                "--promote",
            ],
            "60db0c45cd3c7c8c",
        ),
        (
            &[
                "--coherence",
                "--lambda",
                "0.3",
                "--stages",
                "512",
                "--promote",
                "--block",
                "100",
            ],
            "85e11947af04c247",
        ),
    ];
    for (k, (method, hash)) in cases.into_iter().enumerate() {
        let dir = tmp.join(format!("m{k}"));
        let mut args = vec![
            "--tuples",
            "five",
            "--games",
            "300",
            "--alpha",
            "0.5",
            "--threads",
            "2",
        ];
        args.extend_from_slice(method);
        let out = learn(&dir, &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(&format!("(300 games, hash {hash})")),
            "{method:?}: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn saving_seldom_learns_the_network_saving_every_block_does() {
    let tmp = TempDir::new("learn-save");
    let every = tmp.join("every");
    let seldom = tmp.join("seldom");
    let base = ["--games", "60", "--block", "20", "--seed", "6"];
    let a = learn(&every, &[&base[..], &["--save-secs", "0"]].concat());
    let b = learn(&seldom, &[&base[..], &["--save-secs", "1e9"]].concat());
    assert!(a.status.success() && b.status.success());
    let saved = |out: &std::process::Output| -> Vec<bool> {
        text(&out.stderr)
            .lines()
            .filter(|l| l.starts_with("games "))
            .map(|l| l.ends_with("saved"))
            .collect()
    };
    assert_eq!(saved(&a), [true, true, true]);
    assert_eq!(saved(&b), [false, false, true]);
    assert!(
        std::fs::read(every.join("network.nt")).unwrap()
            == std::fs::read(seldom.join("network.nt")).unwrap(),
        "the networks differ"
    );
    assert_eq!(
        std::fs::read_to_string(seldom.join("progress.csv"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    for bad in ["-1", "nan", "1e10"] {
        let flag = format!("--save-secs={bad}");
        let out = learn(&tmp.join("bad"), &["--games", "20", &flag]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("--save-secs"), "{bad}");
    }
}

#[test]
fn learn_refuses_to_overwrite_a_network_and_names_bad_input() {
    let tmp = TempDir::new("learn-bad");
    let dir = tmp.join("run");
    assert!(learn(&dir, &["--games", "5", "--block", "5"])
        .status
        .success());
    let again = learn(&dir, &["--games", "10"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        text(&again.stderr).contains("--resume"),
        "{}",
        text(&again.stderr)
    );
    let bad = learn(&tmp.join("other"), &["--games", "5", "--tuples", "0,1,16"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("cell 16"),
        "{}",
        text(&bad.stderr)
    );
    let unknown = learn(&tmp.join("other"), &["--games", "5", "--tuples", "sixes"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("lines-squares"));
    assert!(!tmp.join("other").exists(), "a refused run made its folder");

    // A damaged network: every command that reads it names the file and
    // the fault, exits 2 and leaves the file as it was.
    let net = dir.join("network.nt");
    let mut bytes = std::fs::read(&net).unwrap();
    let n = bytes.len();
    bytes[n - 100] ^= 0x40;
    std::fs::write(&net, &bytes).unwrap();
    let net_arg = net.to_str().unwrap();
    for args in [
        vec!["eval", "--network", net_arg, "--games", "2", "--depth", "0"],
        vec!["learn", dir.to_str().unwrap(), "--games", "10", "--resume"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("network.nt") && err.contains("hash"), "{err}");
    }
    assert_eq!(std::fs::read(&net).unwrap(), bytes);
}

#[test]
fn eval_plays_a_network_as_the_library_does() {
    let tmp = TempDir::new("learn-eval");
    let dir = tmp.join("run");
    assert!(learn(&dir, &["--games", "30", "--block", "30"])
        .status
        .success());
    let path = dir.join("network.nt");
    let out = run(&[
        "eval",
        "--network",
        path.to_str().unwrap(),
        "--games",
        "3",
        "--depth",
        "1",
        "--seed",
        "8",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let net = Network::load(&path).unwrap();
    let spec = GameSpec::new(
        Variant::CLASSIC,
        SearchParams::new(Depth::Fixed(1), Variant::CLASSIC),
    );
    let total: u64 = (0..3)
        .map(|i| play_one(&spec, &net, game_seed(8, i)).record.score)
        .sum();
    let mean = json["mean_score"].as_f64().unwrap();
    assert!(
        (mean - total as f64 / 3.0).abs() < 1e-6,
        "{mean} vs {total}"
    );
}

#[test]
fn a_twos_network_plays_judged_games_and_play_shows_one() {
    let tmp = TempDir::new("learn-twos");
    let dir = tmp.join("run");
    let out = learn(
        &dir,
        &["--games", "40", "--block", "40", "--variant", "twos"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let net = Network::load(&dir.join("network.nt")).unwrap();
    assert_eq!(net.trained.variant, Variant::Twos);
    let path = dir.join("network.nt");
    let path = path.to_str().unwrap();
    let judged = run(&[
        "judge",
        "--games",
        "2",
        "--seed",
        "3",
        "--",
        crate::util::bin_path(),
        "interact",
        "--network",
        path,
        "--depth",
        "1",
        "--untimed",
    ]);
    assert!(judged.status.success(), "{}", text(&judged.stderr));
    let played = run(&[
        "play",
        "--network",
        path,
        "--variant",
        "twos",
        "--depth",
        "1",
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    assert!(
        text(&played.stdout).starts_with("seed "),
        "{}",
        text(&played.stdout)
    );
    assert!(text(&played.stderr).contains("network "));
}

#[test]
fn plot_draws_a_learning_folder_and_names_a_bad_row() {
    let tmp = TempDir::new("learn-plot");
    let dir = tmp.join("run");
    assert!(learn(&dir, &["--games", "20", "--block", "5"])
        .status
        .success());
    let out = tmp.join("plots");
    let drawn = run(&[
        "plot",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "svg",
    ]);
    assert!(drawn.status.success(), "{}", text(&drawn.stderr));
    let svg = std::fs::read_to_string(out.join("run-learning.svg")).unwrap();
    assert!(svg.contains("greedy play while learning"));
    let progress = dir.join("progress.csv");
    let rows = std::fs::read_to_string(&progress).unwrap();
    std::fs::write(&progress, rows.replacen("\n10,", "\n1x,", 1)).unwrap();
    let bad = run(&[
        "plot",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(
        err.contains("progress.csv:3") && err.contains("`games`"),
        "{err}"
    );
}

#[test]
fn a_resume_keeps_the_rate_the_network_last_learned_at() {
    let tmp = TempDir::new("learn-alpha");
    let dir = tmp.join("run");
    let first = learn(&dir, &["--games", "10", "--block", "5", "--alpha", "0.05"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(learn(&dir, &["--games", "20", "--block", "5", "--resume"])
        .status
        .success());
    let rows = std::fs::read_to_string(dir.join("progress.csv")).unwrap();
    let rates: Vec<&str> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(rates, ["0.05"; 4], "{rows}");
    assert_eq!(
        Network::load(&dir.join("network.nt"))
            .unwrap()
            .trained
            .alpha,
        0.05
    );
}

/// The mean score `eval` gives the network file at `path` over games 0 and
/// 1 of seed 8 at depth 1.
fn depth_1_mean(path: &Path) -> f64 {
    let played = run(&[
        "eval",
        "--network",
        path.to_str().unwrap(),
        "--games",
        "2",
        "--depth",
        "1",
        "--seed",
        "8",
        "--json",
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    let json: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    json["mean_score"].as_f64().unwrap()
}

#[test]
fn a_packed_network_plays_as_its_rounded_weights_and_refuses_damage() {
    let tmp = TempDir::new("learn-pack");
    let dir = tmp.join("run");
    assert!(learn(&dir, &["--games", "30", "--block", "30"])
        .status
        .success());
    let full = dir.join("network.nt");
    let packed = tmp.join("small.ntp");
    let out = run(&[
        "pack",
        full.to_str().unwrap(),
        "--step",
        "0.5",
        "--out",
        packed.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("small.ntp ("),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("largest change"));
    assert!(
        std::fs::metadata(&packed).unwrap().len() < std::fs::metadata(&full).unwrap().len() / 10
    );

    // The packed file is the full network with each weight rounded to the
    // step, and eval plays exactly that network.
    let (net, packing) = Network::read(&std::fs::read(&packed).unwrap()).unwrap();
    let packing = packing.expect("a packed file");
    assert_eq!(packing.step, 0.5);
    let original = Network::load(&full).unwrap();
    assert_eq!(net.trained, original.trained);
    for (a, b) in original
        .tables()
        .iter()
        .flatten()
        .zip(net.tables().iter().flatten())
    {
        assert_eq!(*b, (a / 0.5).round() * 0.5);
    }
    let spec = GameSpec::new(
        Variant::CLASSIC,
        SearchParams::new(Depth::Fixed(1), Variant::CLASSIC),
    );
    let total: u64 = (0..2)
        .map(|i| play_one(&spec, &net, game_seed(8, i)).record.score)
        .sum();
    assert_eq!(depth_1_mean(&packed), total as f64 / 2.0);

    // Bad input: exit 2, the file or flag named, nothing written. A
    // negative value reaches the range check, not the argument parser.
    for (flags, says) in [
        (
            &["--step", "0"][..],
            "the step must be a positive number, not 0",
        ),
        (
            &["--step", "-1"][..],
            "the step must be a positive number, not -1",
        ),
        (
            &["--step", "1", "--drop", "-1"][..],
            "the drop must be 0 or a positive",
        ),
    ] {
        let never = tmp.join("never.ntp");
        let mut args = vec![
            "pack",
            full.to_str().unwrap(),
            "--out",
            never.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let bad = run(&args);
        assert_eq!(bad.status.code(), Some(2), "{flags:?}");
        assert!(
            text(&bad.stderr).contains(says),
            "{flags:?}: {}",
            text(&bad.stderr)
        );
        assert!(!never.exists(), "{flags:?}");
    }
    let mut bytes = std::fs::read(&packed).unwrap();
    let n = bytes.len();
    bytes[n - 9] ^= 0x04;
    std::fs::write(&packed, &bytes).unwrap();
    let damaged = run(&[
        "eval",
        "--network",
        packed.to_str().unwrap(),
        "--games",
        "1",
    ]);
    assert_eq!(damaged.status.code(), Some(2));
    let err = text(&damaged.stderr);
    assert!(err.contains("small.ntp") && err.contains("hash"), "{err}");
    let missing = run(&[
        "pack",
        tmp.join("nothing.nt").to_str().unwrap(),
        "--step",
        "1",
        "--out",
        tmp.join("never.ntp").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("nothing.nt"));
}

#[test]
fn pack_writes_a_stage_split_from_another_as_its_differences() {
    let tmp = TempDir::new("learn-pack-deltas");
    let first = tmp.join("first");
    assert!(learn(&first, &["--games", "30", "--block", "30"])
        .status
        .success());
    // A second stage for boards with a 64, split from the first and learned on.
    let split = tmp.join("split");
    let source = first.join("network.nt");
    let out = learn(
        &split,
        &[
            "--from",
            source.to_str().unwrap(),
            "--stages",
            "64",
            "--games",
            "40",
            "--block",
            "10",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let full = split.join("network.nt");
    let packed = |name: &str, deltas: bool| {
        let path = tmp.join(name);
        let mut args = vec!["pack", full.to_str().unwrap(), "--step", "0.5", "--out"];
        args.push(path.to_str().unwrap());
        if deltas {
            args.push("--stage-deltas");
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        (std::fs::read(&path).unwrap(), text(&out.stderr), path)
    };
    let (alone, _, alone_path) = packed("alone.ntp", false);
    let (coded, said, coded_path) = packed("coded.ntp", true);
    assert!(
        said.contains("stages 1 written as their differences"),
        "{said}"
    );
    assert!(coded.starts_with(b"tune2048 n-tuple network, packed 2\n"));
    assert!(coded.len() < alone.len(), "{} {}", coded.len(), alone.len());
    let (a, c) = (
        Network::from_bytes(&alone).unwrap(),
        Network::from_bytes(&coded).unwrap(),
    );
    assert_eq!(a.tables(), c.tables());
    assert_eq!(depth_1_mean(&coded_path), depth_1_mean(&alone_path));
    // A one-stage network has nothing to code so: the first format.
    let one = tmp.join("one.ntp");
    let out = run(&[
        "pack",
        source.to_str().unwrap(),
        "--step",
        "0.5",
        "--stage-deltas",
        "--out",
        one.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("each is written alone"));
    assert!(std::fs::read(one)
        .unwrap()
        .starts_with(b"tune2048 n-tuple network, packed 1\n"));
}

#[test]
fn pack_keeps_the_weights_learning_moved_most_by_the_folders_coherence_sums() {
    let tmp = TempDir::new("learn-pack-keep");
    let dir = tmp.join("run");
    let mut args = vec!["--games", "16"];
    args.extend_from_slice(&FULL);
    let out = learn(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let full = dir.join("network.nt");
    let net = Network::load(&full).unwrap();
    let live = net
        .tables()
        .iter()
        .flatten()
        .filter(|w| (*w / 0.25).round() != 0.0)
        .count();
    assert!(live > 100, "{live}");
    let keep = live / 3;
    let packed = tmp.join("kept.ntp");
    let pack = |extra: &[&str], out: &Path| {
        let mut args = vec!["pack", full.to_str().unwrap(), "--step", "0.25"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        run(&args)
    };
    // The sums are found beside the network.
    let out = pack(&["--keep", &keep.to_string()], &packed);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(&format!("kept {keep} of")));
    let (back, packing) = Network::read(&std::fs::read(&packed).unwrap()).unwrap();
    let packing = packing.unwrap();
    assert_eq!(packing.kept, keep);
    let sums_file = dir.join("coherence-16.tc");
    let sums_hash = tune2048::network::header::stored_hash(&std::fs::read(&sums_file).unwrap());
    assert_eq!(
        packing.most_learned.map(|m| (m.count, m.sums)),
        Some((keep, sums_hash))
    );
    // Every weight kept learned at least as much as every weight left out.
    let (_, sums) =
        tune2048::network::Coherence::from_bytes(&std::fs::read(&sums_file).unwrap(), &net)
            .unwrap();
    let sizes: Vec<f32> = sums.sums().map(|s| s[1]).collect();
    let (least_kept, most_left) = ranks_kept_and_left(&net, &back, &sizes, |s, _| s);
    assert!(least_kept >= most_left, "{least_kept} < {most_left}");
    // Named with --coherence, the same file.
    let named = tmp.join("named.ntp");
    let sums_arg = sums_file.to_str().unwrap();
    let out = pack(
        &["--keep", &keep.to_string(), "--coherence", sums_arg],
        &named,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&named).unwrap(),
        std::fs::read(&packed).unwrap()
    );

    // Ranked by impact: every weight kept weighs at least as much, sum ×
    // multiple², as every weight left out, and the header says how.
    let impact = tmp.join("impact.ntp");
    let out = pack(
        &["--keep", &keep.to_string(), "--keep-by", "impact"],
        &impact,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (back, packing) = Network::read(&std::fs::read(&impact).unwrap()).unwrap();
    let most = packing.unwrap().most_learned.unwrap();
    assert_eq!(most.by, tune2048::network::KeepBy::Impact);
    assert_eq!((most.count, most.sums), (keep, sums_hash));
    let (least_kept, most_left) = ranks_kept_and_left(&net, &back, &sizes, |s, k| s * k * k);
    assert!(least_kept >= most_left, "{least_kept} < {most_left}");
    assert_ne!(
        std::fs::read(&impact).unwrap(),
        std::fs::read(&packed).unwrap()
    );

    // Bad input: exit 2, the reason named, nothing written.
    let never = tmp.join("never.ntp");
    let plain = tmp.join("plain");
    assert!(learn(&plain, &["--games", "4", "--block", "4"])
        .status
        .success());
    let mut args = vec!["pack", "--step", "1", "--keep", "5", "--out"];
    args.push(never.to_str().unwrap());
    let plain_net = plain.join("network.nt");
    args.push(plain_net.to_str().unwrap());
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("temporal coherence"),
        "{}",
        text(&out.stderr)
    );
    let other = tmp.join("other");
    let mut args = vec!["--games", "8"];
    args.extend_from_slice(&FULL);
    assert!(learn(&other, &args).status.success());
    let other_sums = other.join("coherence-8.tc");
    for (extra, expect) in [
        (vec!["--keep", "0"], "--keep"),
        (vec!["--coherence", sums_arg], "--keep"),
        (vec!["--keep-by", "impact"], "--keep"),
        (vec!["--keep-unmet"], "--keep"),
        (vec!["--keep", "5", "--keep-by", "size"], "--keep-by"),
        (
            vec!["--keep", "5", "--coherence", other_sums.to_str().unwrap()],
            "the sums of 8 games",
        ),
        (
            vec!["--keep", "5", "--coherence", "missing.tc"],
            "missing.tc",
        ),
    ] {
        let out = pack(&extra, &never);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(
            text(&out.stderr).contains(expect),
            "{extra:?}: {}",
            text(&out.stderr)
        );
    }
    assert!(!never.exists());
}

/// Packed at step 0.25 from `net` as `back`: the lowest rank of a weight
/// kept and the highest of one left out (not rounding to 0), each weight's
/// rank `rank(size, multiple)` from its error sizes `sizes`; every weight
/// kept must be `net`'s rounded to the step.
fn ranks_kept_and_left(
    net: &Network,
    back: &Network,
    sizes: &[f32],
    rank: impl Fn(f32, f32) -> f32,
) -> (f32, f32) {
    let (mut least_kept, mut most_left) = (f32::INFINITY, 0.0f32);
    for ((w, b), s) in net
        .tables()
        .iter()
        .flatten()
        .zip(back.tables().iter().flatten())
        .zip(sizes)
    {
        let k = (w / 0.25).round();
        if *b != 0.0 {
            assert_eq!(*b, k * 0.25);
            least_kept = least_kept.min(rank(*s, k));
        } else if k != 0.0 {
            most_left = most_left.max(rank(*s, k));
        }
    }
    (least_kept, most_left)
}

#[test]
fn the_shipped_classic_network_is_w_packed_and_plays_as_measured() {
    let path = crate::util::repo_path("configs/networks/six.ntp");
    let (net, packing) = Network::read(&std::fs::read(&path).unwrap()).unwrap();
    let packing = packing.expect("a packed file");
    // `learn`'s hash of W's network after 2,350,000 games, and of the
    // coherence sums saved with it (the commands are in
    // runs/curated/networks/wide-on/run.sh). W is G5's four tuples widened
    // by five; its stage below 16384 is still C2's.
    assert_eq!(packing.source, 0xa24e_fc16_9a4a_f899);
    assert_eq!((packing.step, packing.drop), (16.0, 0.0));
    assert_eq!(
        packing.most_learned,
        Some(tune2048::network::MostLearned {
            count: 9_400_000,
            sums: 0x0719_209d_f442_ba96,
            by: tune2048::network::KeepBy::Impact,
            unmet: true,
        })
    );
    assert_eq!(packing.deltas.text(), "");
    assert_eq!(packing.kept, 9_400_000);
    assert_eq!(net.trained.games, 2_350_000);
    assert_eq!(
        net.trained.method.text(),
        "lambda 0.5 coherence restarts rounds 20"
    );
    let six = tune2048::network::named_tuples("six").unwrap();
    assert_eq!(net.tuples()[..4], six[..]);
    let widened: Vec<Vec<u8>> = [
        [2, 3, 4, 5, 6, 9],
        [0, 1, 2, 5, 9, 10],
        [3, 4, 5, 6, 7, 8],
        [1, 3, 4, 5, 6, 7],
        [0, 1, 4, 8, 9, 10],
    ]
    .map(Vec::from)
    .to_vec();
    assert_eq!(net.tuples()[4..], widened[..]);
    assert_eq!(
        tune2048::network::stage::stages_text(net.stages()),
        "16384,16384+8192,16384+8192+4096"
    );

    // Its first greedy games on seed 9001 are those of the evidence folder.
    let tmp = TempDir::new("shipped-network");
    let csv = tmp.join("d0.csv");
    let out = run(&[
        "eval",
        "--network",
        path.to_str().unwrap(),
        "--depth",
        "0",
        "--games",
        "12",
        "--seed",
        "9001",
        "--threads",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let scores = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .take(12)
            .map(|l| l.split(',').nth(2).unwrap().to_string())
            .collect()
    };
    let measured = std::fs::read_to_string(crate::util::repo_path(
        "runs/curated/networks/wide-on/W2350000-d0-9001.csv",
    ))
    .unwrap();
    assert_eq!(
        scores(&std::fs::read_to_string(&csv).unwrap()),
        scores(&measured)
    );
}

#[test]
fn the_shipped_classic_network_plays_its_32768s_with_its_search_settings() {
    // Game 6 of seed 14001, greedily, makes a 32768 either way; from there
    // the settings downgrade the board for the network, and the game ends
    // elsewhere (runs/curated/networks/wide-on/, both rows).
    let tmp = TempDir::new("shipped-search");
    let net = crate::util::repo_path("configs/networks/six.ntp");
    let net = net.to_str().unwrap();
    let file = crate::util::repo_path("configs/networks/six.search.ron");
    let with_file = ["--settings", file.to_str().unwrap()];
    let csv = tmp.join("game.csv");
    let play = |settings: &[&str]| -> String {
        let mut args = vec!["eval", "--network", net, "--depth", "0", "--first", "6"];
        args.extend_from_slice(&["--games", "1", "--seed", "14001"]);
        args.extend_from_slice(&["--csv", csv.to_str().unwrap()]);
        args.extend_from_slice(settings);
        let out = run(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Without them, the command points at the settings beside the network.
        let note = text(&out.stderr).contains("six.search.ron holds search settings");
        assert_eq!(note, settings.is_empty(), "{}", text(&out.stderr));
        let row = std::fs::read_to_string(&csv).unwrap();
        row.lines().nth(1).unwrap().to_string()
    };
    let evidence = |file: &str| -> String {
        let path = format!("runs/curated/networks/wide-on/{file}");
        let rows = std::fs::read_to_string(crate::util::repo_path(&path)).unwrap();
        rows.lines().nth(7).unwrap().to_string()
    };
    let plain = play(&[]);
    assert_eq!(plain, evidence("W2350000-d0-14001.csv"));
    assert!(plain.contains(",621104,32768,"), "{plain}");
    let downgraded = play(&with_file);
    assert_eq!(downgraded, evidence("W2350000-settings-d0-14001.csv"));
    assert!(downgraded.contains(",594636,32768,"), "{downgraded}");

    // `play` takes the same file, and plays the same game from its seed.
    let one = |settings: &[&str]| -> (String, String) {
        let seed = "10506601290621895393";
        let mut args = vec!["play", "--network", net, "--depth", "0", "--seed", seed];
        args.extend_from_slice(settings);
        let out = run(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let record = text(&out.stdout);
        let first = record.lines().next().unwrap().to_string();
        (first, text(&out.stderr))
    };
    let (plain, err) = one(&[]);
    assert!(plain.contains("score 621104 max_tile 32768"), "{plain}");
    assert!(
        err.contains("six.search.ron holds search settings"),
        "{err}"
    );
    let (with, err) = one(&with_file);
    assert!(with.contains("score 594636 max_tile 32768"), "{with}");
    assert!(!err.contains("holds search settings"), "{err}");
    // A file that is not settings: exit 2, the file named.
    let readme = crate::util::repo_path("README.md");
    let out = run(&[
        "play",
        "--network",
        net,
        "--settings",
        readme.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("README.md:1:"), "{err}");
}

#[test]
fn learning_from_a_bank_names_a_bad_bank_and_is_a_function_of_its_flags() {
    let tmp = TempDir::new("learn-bank");
    let bank = "banks/twos-16384.csv";
    let flags = [
        "--bank",
        bank,
        "--bank-stage",
        "16384",
        "--bank-share",
        "0.5",
    ];
    let twos = ["--variant", "twos", "--games", "4", "--block", "2"];
    let a = tmp.join("a");
    let out = learn(&a, &[&twos[..], &flags[..]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("50% of the games start from the 211 positions"));
    // In two pieces, the flags given again: the same network.
    let b = tmp.join("b");
    let first = [&twos[..2], &["--games", "2", "--block", "2"], &flags[..]].concat();
    assert!(learn(&b, &first).status.success());
    let rest = [
        &["--resume", "--games", "4", "--block", "2"][..],
        &flags[..],
    ]
    .concat();
    let out = learn(&b, &rest);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(a.join("network.nt")).unwrap(),
        std::fs::read(b.join("network.nt")).unwrap()
    );
    // Bad input: exit 2, the flag or file named, nothing written.
    for (extra, expect) in [
        (
            vec!["--bank", bank, "--bank-stage", "16384", "--bank-share", "0"],
            "--bank-share must be in (0, 1]",
        ),
        (
            vec!["--bank", bank, "--bank-stage", "8192"],
            "has no position of stage `8192`",
        ),
        (
            vec!["--bank", "no/such.csv", "--bank-stage", "1"],
            "no/such.csv",
        ),
        (
            vec!["--bank", bank, "--bank-stage", "16384", "--until", "16384"],
            "--until 16384: 211 of the 211 positions of banks/twos-16384.csv hold a 16384",
        ),
    ] {
        let dir = tmp.join("bad");
        let out = learn(&dir, &[&twos[..], &extra[..]].concat());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{extra:?}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains(expect), "{}", text(&out.stderr));
        assert!(!dir.join("network.nt").exists());
    }
}

#[test]
fn interacts_default_is_the_packed_twos_network_of_td_lambda_and_coherence() {
    let path = crate::util::repo_path("configs/networks/twos.ntp");
    let (net, packing) = Network::read(&std::fs::read(&path).unwrap()).unwrap();
    let packing = packing.expect("a packed file");
    // The hash of the learning folder's network after 65,000 games (the
    // commands are in docs/src/results/networks.md), packed on a grid of 64
    // without the weights nearer 0 than 320 (under the 16 MB a shipped
    // network may take).
    assert_eq!(packing.source, 0x836a_2cf8_f18b_d13b);
    assert_eq!((packing.step, packing.drop), (64.0, 320.0));
    assert_eq!((net.trained.games, net.trained.alpha), (65_000, 1.0));
    assert_eq!(net.trained.variant, Variant::Twos);
    let method = net.trained.method;
    assert_eq!(
        (method.lambda, method.coherence, method.restarts),
        (0.5, true, true)
    );
    assert_eq!(
        net.tuples(),
        tune2048::network::named_tuples("six").unwrap()
    );
}

#[test]
fn a_network_split_by_stage_goes_on_from_its_source_and_names_bad_stages() {
    let tmp = TempDir::new("learn-stages");
    let base = tmp.join("base");
    let out = learn(&base, &["--games", "40", "--block", "40", "--seed", "6"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let source = Network::load(&base.join("network.nt")).unwrap();

    // Split at 256 and learned 20 more games: the games go on from the
    // source's count with its seed, and the header names the stages.
    let split = tmp.join("split");
    let from = base.join("network.nt");
    let args = [
        "--from",
        from.to_str().unwrap(),
        "--stages",
        "256",
        "--games",
        "60",
    ];
    let out = learn(&split, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("stages at 256"),
        "{}",
        text(&out.stderr)
    );
    let net = Network::load(&split.join("network.nt")).unwrap();
    assert_eq!(net.stages(), [Boundary::tile(8)]);
    assert_eq!((net.trained.games, net.trained.seed), (60, 6));
    assert_eq!(net.weight_count(), 2 * source.weight_count());
    let bytes = std::fs::read(split.join("network.nt")).unwrap();
    assert!(text(&bytes[..200]).contains("\nstages 256\nvariant classic 0.1\n"));
    // The split run learned the same games as the source would have: its
    // value of a board both stages score alike moved as the source's did.
    let plain = tmp.join("plain");
    let out = learn(&plain, &["--from", from.to_str().unwrap(), "--games", "60"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let plain = Network::load(&plain.join("network.nt")).unwrap();
    assert!(plain.stages().is_empty());
    assert_ne!(plain.tables(), source.tables());
    assert_eq!(plain.trained.games, 60);

    // Bad input: a stage that is not a tile, a second split, and --from
    // beside the flags it replaces.
    let refused = |extra: &[&str]| {
        let out = learn(&tmp.join("bad"), extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        text(&out.stderr)
    };
    let err = refused(&["--games", "60", "--stages", "300"]);
    assert!(err.contains("--stages: `300` is not a tile"), "{err}");
    let err = refused(&["--games", "60", "--stages", "512+256,512"]);
    assert!(err.contains("`512` after `512+256`"), "{err}");
    let twice = split.join("network.nt");
    let twice = twice.to_str().unwrap();
    let err = refused(&["--games", "90", "--from", twice, "--stages", "512"]);
    assert!(err.contains("split already"), "{err}");
    // A source that has learned the games asked for already leaves nothing
    // to learn.
    let err = refused(&["--games", "60", "--from", twice]);
    assert!(
        err.contains("learned from 60 games already, so --games 60 leaves nothing"),
        "{err}"
    );
    refused(&["--games", "90", "--from", twice, "--seed", "3"]);
    for flags in [
        &["--promote"][..],
        &["--promote", "--from", twice, "--stages", "512"],
    ] {
        let err = refused(&[&["--games", "60"][..], flags].concat());
        assert!(err.contains("--promote"), "{flags:?}: {err}");
    }
    // A method refused for its values or its rounds.
    let err = refused(&["--games", "60", "--lambda", "2"]);
    assert!(err.contains("--lambda"), "{err}");
    let err = refused(&["--games", "60", "--block", "7", "--rounds", "3"]);
    assert!(err.contains("--block 7"), "{err}");
    // No refusal made the folder it would have learned in.
    assert!(!tmp.join("bad").exists());
}

#[test]
fn a_network_widened_by_tuples_learns_on_all_of_them_and_names_bad_tuples() {
    let tmp = TempDir::new("learn-widen");
    let base = tmp.join("base");
    let method = [
        "--coherence",
        "--alpha",
        "1.0",
        "--block",
        "10",
        "--save-secs",
        "0",
    ];
    run_to(&base, "40", &[&method[..], &["--seed", "4"]].concat());
    let from = base.join("network.nt");
    let from = from.to_str().unwrap();
    let source = Network::load(&base.join("network.nt")).unwrap();

    // Two tuples added: the header lists them after the source's, its
    // own tables learn on from theirs and the new ones from zeros.
    let wide = tmp.join("wide");
    let widen = ["--from", from, "--add-tuples", "0,4,8 1,5,9,13"];
    run_to(&wide, "60", &[&method[..], &widen[..]].concat());
    let bytes = std::fs::read(wide.join("network.nt")).unwrap();
    let header = text(&bytes[..300]);
    assert!(
        header.contains("\ntuples 0,1,2,3 4,5,6,7 0,1,4,5 1,2,5,6 5,6,9,10 0,4,8 1,5,9,13\n"),
        "{header}"
    );
    let net = Network::load(&wide.join("network.nt")).unwrap();
    assert_eq!((net.trained.games, net.trained.seed), (60, 4));
    assert_eq!(net.tuples()[..5], source.tuples()[..]);
    assert_ne!(net.tables()[..5], source.tables()[..]);
    assert!(net.tables()[5..]
        .iter()
        .all(|t| t.iter().any(|&w| w != 0.0)));
    // A name adds those of its tuples the network lacks, and a widened
    // folder resumes to the network an unbroken run gives.
    let named = tmp.join("named");
    let by_name = ["--from", from, "--add-tuples", "five", "--threads", "1"];
    run_to(&named, "50", &[&method[..], &by_name[..]].concat());
    run_to(
        &named,
        "60",
        &["--resume", "--block", "10", "--threads", "1"],
    );
    let whole = tmp.join("whole");
    run_to(&whole, "60", &[&method[..], &by_name[..]].concat());
    let named_net = Network::load(&named.join("network.nt")).unwrap();
    assert_eq!(named_net.tuples().len(), 9);
    assert!(
        std::fs::read(named.join("network.nt")).unwrap()
            == std::fs::read(whole.join("network.nt")).unwrap(),
        "the resumed widened network differs from the unbroken run's"
    );

    // Refused with exit 2, leaving no folder: a tuple the network has, a
    // cell off the board, a name it holds all of, and no --from.
    let refused = |extra: &[&str]| {
        let out = learn(&tmp.join("bad"), &[&["--games", "60"][..], extra].concat());
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        text(&out.stderr)
    };
    let err = refused(&["--from", from, "--add-tuples", "0,4,8 0,1,4,5"]);
    assert!(
        err.contains("--add-tuples: tuple 0,1,4,5 is in the network already"),
        "{err}"
    );
    let err = refused(&["--from", from, "--add-tuples", "0,4,16"]);
    assert!(
        err.contains("--add-tuples:") && err.contains("cell 16"),
        "{err}"
    );
    let err = refused(&["--from", from, "--add-tuples", "lines-squares"]);
    assert!(err.contains("--add-tuples: no tuples to add"), "{err}");
    let err = refused(&["--add-tuples", "0,4,8"]);
    assert!(err.contains("--from"), "{err}");
    assert!(!tmp.join("bad").exists());
}

#[test]
fn going_on_from_a_network_learned_with_coherence_takes_the_sums_beside_it() {
    let tmp = TempDir::new("learn-from-sums");
    let method = [
        "--coherence",
        "--alpha",
        "1.0",
        "--lambda",
        "0.5",
        "--block",
        "20",
    ];
    let base = tmp.join("base");
    let out = learn(
        &base,
        &[&method[..], &["--games", "40", "--seed", "8"]].concat(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(base.join("coherence-40.tc").exists());

    // The folder resumed, and a new folder started from its network: the
    // same sums carried over, so the same network 40 games on.
    let resumed = tmp.join("resumed");
    std::fs::create_dir(&resumed).unwrap();
    for file in ["network.nt", "coherence-40.tc", "progress.csv"] {
        std::fs::copy(base.join(file), resumed.join(file)).unwrap();
    }
    let out = learn(&resumed, &["--resume", "--games", "80"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let from = base.join("network.nt");
    let from = from.to_str().unwrap();
    let carried = tmp.join("carried");
    let out = learn(
        &carried,
        &[&method[..], &["--from", from, "--games", "80"]].concat(),
    );
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("coherence sums of its 40 games from beside"),
        "{err}"
    );
    let tables = |dir: &Path| {
        Network::load(&dir.join("network.nt"))
            .unwrap()
            .tables()
            .to_vec()
    };
    assert!(tables(&carried) == tables(&resumed), "--from lost the sums");

    // The network alone, without its sums: every rate starts at 1 again,
    // said on stderr, and the run learns another network.
    let alone = tmp.join("alone");
    std::fs::create_dir(&alone).unwrap();
    std::fs::copy(base.join("network.nt"), alone.join("copy.nt")).unwrap();
    let copy = alone.join("copy.nt");
    let fresh = tmp.join("fresh");
    let args = [
        &method[..],
        &["--from", copy.to_str().unwrap(), "--games", "80"],
    ]
    .concat();
    let out = learn(&fresh, &args);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("no coherence sums beside"), "{err}");
    assert!(tables(&fresh) != tables(&resumed));

    // Split into stages, every stage's sums a copy: its first 40 games
    // below the boundary learn the first stage alike.
    let split = tmp.join("split");
    let args = [
        &method[..],
        &["--from", from, "--stages", "32768", "--games", "80"],
    ]
    .concat();
    let out = learn(&split, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let split_tables = tables(&split);
    assert_eq!(split_tables.len(), 2 * tables(&resumed).len());
    assert!(split_tables[..split_tables.len() / 2] == tables(&resumed)[..]);

    // Split further below its boundary, with its sums: the new stage starts
    // as a copy of the first, and no game of 40 reaches it, so it and the
    // last stage stay as they were split while the first learns.
    let refined = tmp.join("refined");
    let twice = split.join("network.nt");
    let further = [
        &method[..],
        &["--from", twice.to_str().unwrap(), "--stages", "16384,32768"],
        &["--games", "120"],
    ]
    .concat();
    let out = learn(&refined, &further);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("coherence sums of its 80 games from beside") && err.contains("16384,32768"),
        "{err}"
    );
    let refined = tables(&refined);
    let n = split_tables.len() / 2;
    assert_eq!(refined.len(), 3 * n);
    assert!(refined[n..2 * n] == split_tables[..n] && refined[2 * n..] == split_tables[n..]);
    assert!(refined[..n] != split_tables[..n]);
    let lost = [
        &method[..],
        &["--from", twice.to_str().unwrap(), "--stages", "16384"],
        &["--games", "120"],
    ]
    .concat();
    let out = learn(&tmp.join("lost-boundary"), &lost);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`32768` is missing"), "{err}");

    // Damaged sums beside it: refused, naming the file, nothing learned.
    std::fs::write(alone.join("coherence-40.tc"), b"tune2048 coherence 1\n").unwrap();
    let bad = tmp.join("bad");
    let out = learn(
        &bad,
        &args
            .iter()
            .map(|a| {
                if *a == from {
                    copy.to_str().unwrap()
                } else {
                    a
                }
            })
            .collect::<Vec<_>>(),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("coherence-40.tc"), "{err}");
    assert!(!bad.join("network.nt").exists());
}

#[test]
fn promoting_stages_open_as_reached_and_a_resume_ends_as_an_unbroken_run() {
    let tmp = TempDir::new("learn-promote");
    // By the largest tile, and by the two largest (a 512 with a 256 beside it).
    for stages in ["512,1024", "512,512+256"] {
        let flags = [
            "--stages",
            stages,
            "--promote",
            "--seed",
            "4",
            "--block",
            "4",
        ];
        let whole = tmp.join(format!("whole-{stages}"));
        let out = learn(&whole, &[&flags[..], &["--games", "200"]].concat());
        let err = text(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(
            err.contains(&format!("stages at {stages}, 1 in use")),
            "{err}"
        );
        let net = Network::load(&whole.join("network.nt")).unwrap();
        assert!(
            net.all_opened(),
            "200 games reached no last stage of {stages}"
        );
        let bytes = std::fs::read(whole.join("network.nt")).unwrap();
        assert!(text(&bytes[..300]).contains(&format!("\nstages {stages}\n")));
        // Stopped early, while only some stages are in use, then resumed.
        let part = tmp.join(format!("part-{stages}"));
        let out = learn(&part, &[&flags[..], &["--games", "4"]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let early = Network::load(&part.join("network.nt")).unwrap();
        assert_eq!(early.opened(), 1, "4 games reached a 512");
        let out = learn(&part, &["--games", "200", "--resume"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let resumed = std::fs::read(part.join("network.nt")).unwrap();
        assert_eq!(resumed, bytes, "{stages}");
    }
}

#[test]
fn blend_writes_the_mean_of_networks_and_names_a_mismatch() {
    let tmp = TempDir::new("blend");
    let (a, b, c) = (tmp.join("a"), tmp.join("b"), tmp.join("c"));
    for (dir, seed, tuples) in [
        (&a, "1", "lines-squares"),
        (&b, "2", "lines-squares"),
        (&c, "3", "0,1,2 4,5"),
    ] {
        let out = learn(
            dir,
            &[
                "--games", "30", "--block", "30", "--seed", seed, "--tuples", tuples,
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let (a, b, c) = (
        a.join("network.nt"),
        b.join("network.nt"),
        c.join("network.nt"),
    );
    let mixed = tmp.join("mixed.nt");
    let out = run(&[
        "blend",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        mixed.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("the mean of 2 networks"),
        "{}",
        text(&out.stdout)
    );
    let (na, nb) = (Network::load(&a).unwrap(), Network::load(&b).unwrap());
    let blend = Network::load(&mixed).unwrap();
    for ((x, y), m) in na
        .tables()
        .iter()
        .flatten()
        .zip(nb.tables().iter().flatten())
        .zip(blend.tables().iter().flatten())
    {
        assert_eq!(*m, ((f64::from(*x) + f64::from(*y)) / 2.0) as f32);
    }
    let out = run(&[
        "blend",
        a.to_str().unwrap(),
        c.to_str().unwrap(),
        "--out",
        tmp.join("bad.nt").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("network 2 has tuple 0,1,2 that network 1 lacks")
            && err.contains(c.to_str().unwrap()),
        "{err}"
    );
    assert!(!tmp.join("bad.nt").exists());
    for (shares, says) in [
        ("1,0", "share 0 is not a positive number"),
        ("1,2,3", "3 shares for 2 networks"),
        ("1,x", "invalid value 'x'"),
    ] {
        let out = run(&[
            "blend",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--shares",
            shares,
            "--out",
            tmp.join("bad.nt").to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{shares}");
        assert!(text(&out.stderr).contains(says), "{}", text(&out.stderr));
        assert!(!tmp.join("bad.nt").exists());
    }
    let out = run(&[
        "blend",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--shares",
        "3,1",
        "--out",
        mixed.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("the mean of 2 networks in shares 3,1"),
        "{}",
        text(&out.stdout)
    );
    let blend = Network::load(&mixed).unwrap();
    for ((x, y), m) in na
        .tables()
        .iter()
        .flatten()
        .zip(nb.tables().iter().flatten())
        .zip(blend.tables().iter().flatten())
    {
        assert_eq!(*m, ((3.0 * f64::from(*x) + f64::from(*y)) * 0.25) as f32);
    }
    let out = run(&[
        "blend",
        a.to_str().unwrap(),
        "--out",
        tmp.join("bad.nt").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// The flags of the full method on a small network: TD(0.5), coherence,
/// restarts, rounds of 4, blocks of 8.
const FULL: [&str; 9] = [
    "--lambda",
    "0.5",
    "--coherence",
    "--restarts",
    "--rounds",
    "4",
    "--block",
    "8",
    "--alpha=1.0",
];

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Learns in `dir` to `games` games with `extra` flags; the run must succeed.
fn run_to(dir: &Path, games: &str, extra: &[&str]) {
    let mut args = vec!["--games", games];
    args.extend_from_slice(extra);
    let out = learn(dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The bytes of `dir`'s network, whose header must say `method` on its
/// `method` line.
fn has_method_line(dir: &Path, method: &str) -> Vec<u8> {
    let bytes = std::fs::read(dir.join("network.nt")).unwrap();
    let header = String::from_utf8_lossy(&bytes[..200]).into_owned();
    assert!(header.contains(&format!("\nmethod {method}\n")), "{header}");
    bytes
}

/// Learns `flags` in `dir` to 8 games on one thread, then resumes to 16
/// with the folder's method: the network must be `whole`, byte for byte.
fn resumes_on_one_thread_to(dir: &Path, flags: &[&str], whole: &[u8]) {
    run_to(dir, "8", &[flags, &["--threads", "1"]].concat());
    run_to(dir, "16", &["--resume", "--block", "8", "--threads", "1"]);
    assert!(
        std::fs::read(dir.join("network.nt")).unwrap() == whole,
        "the resumed network differs from the unbroken run's"
    );
}

#[test]
fn the_full_method_records_itself_resumes_after_a_kill_and_ignores_the_thread_count() {
    let tmp = TempDir::new("learn-full");
    let whole = tmp.join("whole");
    run_to(&whole, "24", &[&FULL[..], &["--threads", "2"]].concat());
    has_method_line(&whole, "lambda 0.5 coherence restarts rounds 4");
    // The sums of the last block only.
    assert_eq!(
        files(&whole),
        ["coherence-24.tc", "lock", "network.nt", "progress.csv"]
    );

    // One thread, stopped after 8 games; killed after the next block's sums
    // were written but before its network was: the stray sums are left and
    // the run goes on from game 8 with the folder's method.
    let piece = tmp.join("piece");
    run_to(&piece, "8", &[&FULL[..], &["--threads", "1"]].concat());
    std::fs::copy(whole.join("coherence-24.tc"), piece.join("coherence-16.tc")).unwrap();
    run_to(
        &piece,
        "24",
        &["--resume", "--block", "8", "--threads", "1"],
    );
    let a = std::fs::read(whole.join("network.nt")).unwrap();
    let b = std::fs::read(piece.join("network.nt")).unwrap();
    assert!(
        a == b,
        "the resumed network differs from the unbroken run's"
    );
    let sums = |d: &Path| std::fs::read(d.join("coherence-24.tc")).unwrap();
    assert!(sums(&whole) == sums(&piece));
    assert_eq!(files(&piece), files(&whole));
}

#[test]
fn lookahead_records_itself_and_resumes_on_any_thread_count_to_the_unbroken_network() {
    let tmp = TempDir::new("learn-lookahead");
    let ahead = [&FULL[..], &["--lookahead"]].concat();
    let whole = tmp.join("whole");
    run_to(&whole, "16", &[&ahead[..], &["--threads", "2"]].concat());
    let bytes = has_method_line(&whole, "lambda 0.5 coherence restarts lookahead rounds 4");
    // Resumed with the folder's method, on one thread.
    resumes_on_one_thread_to(&tmp.join("piece"), &ahead, &bytes);
    // Greedy learning games learn another network.
    let greedy = tmp.join("greedy");
    run_to(&greedy, "16", &[&FULL[..], &["--threads", "2"]].concat());
    assert!(std::fs::read(greedy.join("network.nt")).unwrap() != bytes);
}

#[test]
fn a_stop_tile_records_itself_learns_below_it_and_resumes_to_the_unbroken_network() {
    let tmp = TempDir::new("learn-until");
    let staged = [&FULL[..], &["--stages", "256"]].concat();
    let until = [&staged[..], &["--until", "256"]].concat();
    let whole = tmp.join("whole");
    run_to(&whole, "16", &[&until[..], &["--threads", "2"]].concat());
    let bytes = has_method_line(&whole, "lambda 0.5 coherence restarts until 256 rounds 4");
    // The stage from 256 on was never learned: its weights are as new,
    // where the same games without the stop tile learn it.
    let learned = |dir: &Path| {
        let net = Network::load(&dir.join("network.nt")).unwrap();
        let half = net.tables().len() / 2;
        let moved = |t: &[Vec<f32>]| t.iter().any(|t| t.iter().any(|&w| w != 0.0));
        (moved(&net.tables()[..half]), moved(&net.tables()[half..]))
    };
    assert_eq!(learned(&whole), (true, false));
    let free = tmp.join("free");
    run_to(&free, "16", &[&staged[..], &["--threads", "2"]].concat());
    assert_eq!(learned(&free), (true, true));
    // Resumed with the folder's method on one thread: the same file.
    resumes_on_one_thread_to(&tmp.join("piece"), &until, &bytes);
}

#[test]
fn bad_method_flags_and_missing_coherence_sums_exit_2_with_the_reason() {
    let tmp = TempDir::new("learn-method-bad");
    let dir = tmp.join("net");
    for (flags, says) in [
        (&["--lambda", "1"][..], "--lambda"),
        (&["--lambda", "x"][..], "--lambda"),
        (&["--rounds", "0"][..], "--rounds"),
        (
            &["--rounds", "3", "--block", "10"][..],
            "whole number of rounds",
        ),
        (&["--optimistic=-5"][..], "--optimistic"),
        (
            &["--optimistic", "-5"][..],
            "--optimistic must be 0 or a positive",
        ),
        (
            &["--alpha", "-1"][..],
            "--alpha must be a positive number, not -1",
        ),
        (
            &["--save-secs", "-1"][..],
            "--save-secs must be a number of seconds",
        ),
        (
            &["--until", "100"][..],
            "--until: the stop tile must be a power of two",
        ),
        (&["--until", "65536"][..], "--until"),
        (
            &["--threads", "0", "--rounds", "2", "--block", "2"][..],
            "--threads",
        ),
    ] {
        let mut args = vec!["--games", "4"];
        args.extend_from_slice(flags);
        let out = learn(&dir, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(says), "{flags:?}: {err}");
        assert!(!dir.exists(), "{flags:?}: a refused run left its folder");
    }
    let out = learn(&dir, &[&FULL[..], &["--games", "8"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_file(dir.join("coherence-8.tc")).unwrap();
    let out = learn(&dir, &["--games", "16", "--resume"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("coherence-8.tc"), "{err}");
}

#[test]
fn an_optimistic_start_values_every_board_alike() {
    let tmp = TempDir::new("learn-optimistic");
    let dir = tmp.join("net");
    let out = learn(
        &dir,
        &["--games", "1", "--block", "1", "--optimistic", "400"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let net = Network::load(&dir.join("network.nt")).unwrap();
    // No game reaches a board of 15 tiles of 32768: its weights are as
    // they started.
    let unseen = tune2048::engine::Board::from_ranks([15; 16]);
    assert_eq!(net.value(unseen), 400.0);
}

#[test]
fn a_network_exports_as_ziaps_weights_file_and_what_it_cannot_play_is_refused() {
    let tmp = TempDir::new("export-ziap");
    let dir = tmp.join("net");
    let out = learn(
        &dir,
        &["--tuples", "lines-squares", "--games", "20", "--seed", "3"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let net = dir.join("network.nt");
    let weights = tmp.join("nw5x4").join("weights.bin");
    let export = |net: &Path, extra: &[&str]| {
        let mut args = vec!["export", net.to_str().unwrap(), "--format", "ziap"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = export(&net, &["--out", weights.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("STRUCTURE=nw5x4"),
        "{}",
        text(&out.stderr)
    );
    // Five tables of 16^4 f32, nothing else; the weights are learning's own.
    let bytes = std::fs::read(&weights).unwrap();
    assert_eq!(bytes.len(), 5 * 65536 * 4);
    let learned = Network::load(&net).unwrap();
    let sum = |w: &mut dyn Iterator<Item = f32>| w.map(f64::from).sum::<f64>();
    let theirs = sum(&mut bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap())));
    let ours = sum(&mut learned.tables().iter().flatten().copied());
    assert!(
        ours != 0.0 && (theirs - ours).abs() <= 1e-9 * ours.abs(),
        "{theirs} vs {ours}"
    );

    let refused = |out: std::process::Output, says: &str| {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains(says), "{}", text(&out.stderr));
    };
    refused(export(&net, &[]), "--out");
    let not_a_network = tmp.join("w.ron");
    std::fs::write(&not_a_network, "Weights(empty: 1.0)").unwrap();
    refused(
        export(&not_a_network, &["--out", "x.bin"]),
        "not a tune2048 network file",
    );
    let twos = tmp.join("twos");
    let out = learn(
        &twos,
        &[
            "--tuples",
            "lines-squares",
            "--games",
            "2",
            "--variant",
            "twos",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    refused(
        export(
            &twos.join("network.nt"),
            &["--out", tmp.join("t.bin").to_str().unwrap()],
        ),
        "plays the classic one",
    );
    assert!(!tmp.join("t.bin").exists());
}
