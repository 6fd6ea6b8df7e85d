//! `scripts/pair.py`, the pairing of two per-game CSVs that the results pages
//! cite: the paired difference and, with `--reach`, the share of games
//! reaching a tile on each side with McNemar's exact test.

use std::process::Command;

use crate::util::{repo_path, text, TempDir};

fn judge_csv(dir: &TempDir, name: &str, tiles: &[u32]) -> String {
    let mut body = String::from("game,seed,max_tile,moves,seconds,error\n");
    for (game, tile) in tiles.iter().enumerate() {
        body += &format!("{game},{},{tile},100,1.0,\n", 1000 + game);
    }
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path.display().to_string()
}

/// Runs the script with `args`; its standard output, once it succeeds.
fn pair(args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(repo_path("scripts/pair.py"))
        .args(args)
        .output()
        .expect("python3 runs scripts/pair.py");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn pairs_by_seed_and_counts_the_games_reaching_a_tile() {
    let dir = TempDir::new("pair");
    let base = judge_csv(&dir, "base.csv", &[32768, 32768, 16384, 16384, 8192, 16384]);
    let other = judge_csv(
        &dir,
        "other.csv",
        &[16384, 32768, 32768, 32768, 32768, 16384],
    );
    let stdout = pair(&["--column", "max_tile", "--reach", "32768", &base, &other]);
    // Differences −16384, 0, +16384, +16384, +24576, 0: mean +6827.
    assert!(
        stdout.contains("6 paired games: base 20480, other 27307"),
        "{stdout}"
    );
    assert!(stdout.contains("diff +6827"), "{stdout}");
    assert!(
        stdout.contains("other higher in 3 and lower in 1 of 6"),
        "{stdout}"
    );
    // Reached by base in games 0 and 1, by other in 1 to 4: one pair only
    // the base reached, three only the other; P(X <= 1 or X >= 3) for
    // Binomial(4, 1/2) is 10/16.
    assert!(
        stdout.contains(
            "reached 32768: base 2 of 6 (33.3%), other 4 of 6 (66.7%), 2.00x; \
             only base 1, only other 3, McNemar exact p = 0.625"
        ),
        "{stdout}"
    );
}

#[test]
fn mcnemar_holds_past_a_thousand_and_twenty_three_discordant_pairs() {
    // 600 games only the base takes to 16384, 500 only the other: 1,100
    // discordant pairs, where 2^n no longer fits a float. P(X <= 500 or
    // X >= 600) for Binomial(1100, 1/2) is 0.002820 (exact integers).
    let dir = TempDir::new("pair-large");
    let mut base = vec![16384; 600];
    base.extend([8192; 500]);
    let mut other = vec![8192; 600];
    other.extend([16384; 500]);
    let base = judge_csv(&dir, "base.csv", &base);
    let other = judge_csv(&dir, "other.csv", &other);
    let stdout = pair(&["--column", "max_tile", "--reach", "16384", &base, &other]);
    assert!(
        stdout.contains("only base 600, only other 500, McNemar exact p = 0.00282"),
        "{stdout}"
    );
}
