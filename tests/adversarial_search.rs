//! The adversarial search against plain minimax, and matches between players.

use tune2048::adversarial::eval::Eval;
use tune2048::adversarial::matchplay::{
    opening, play_match, MatchSpec, MatchSummary, MatchVerdict,
};
use tune2048::adversarial::player::Player;
use tune2048::adversarial::search::{minimax, AlphaBeta, Limits};
use tune2048::adversarial::{AdversarialPosition, Rules, Side};

use crate::util::{run, text};

/// Positions from random play: 3 to 25 turns in, either side to move.
fn positions(rules: Rules, count: u64) -> Vec<AdversarialPosition> {
    (0..count)
        .map(|i| {
            let turns = 3 + (i * 7) % 23;
            let mut p = opening(rules, turns as u32, 1000 + i).position;
            if i % 2 == 1 && p.to_move == Side::Attacker {
                let mut actions = Vec::new();
                p.actions(rules, &mut actions);
                p = p
                    .play(rules, actions[(i as usize * 5) % actions.len()])
                    .unwrap();
            }
            p
        })
        .collect()
}

fn evals() -> [Eval; 3] {
    [Eval::Score, Eval::Edges, Eval::Smooth]
}

#[test]
fn alpha_beta_equals_minimax_with_far_fewer_evaluations() {
    let mut ab_evals = 0u64;
    let mut mm_evals = 0u64;
    for rules in [Rules::Gpcc2015, Rules::Gpcc2016] {
        for eval in evals() {
            let mut s = AlphaBeta::new(rules, eval.clone(), 16);
            for pos in positions(rules, 12) {
                for plies in 1..=4 {
                    let (want, n) = minimax(rules, &eval, pos, plies);
                    let got = s.value(pos, plies);
                    assert_eq!(got, want, "{rules:?} {pos:?} {plies}");
                    if plies == 4 {
                        mm_evals += n;
                        ab_evals += s.counts().1;
                    }
                }
            }
        }
    }
    let ratio = mm_evals as f64 / ab_evals as f64;
    eprintln!("4 plies: minimax {mm_evals} evaluations, alpha-beta {ab_evals} ({ratio:.1}x fewer)");
    assert!(ratio > 5.0, "{ratio}");
}

#[test]
fn the_table_and_ordering_keep_the_value_at_depth_5() {
    let rules = Rules::Gpcc2016;
    for pos in positions(rules, 4) {
        let (want, _) = minimax(rules, &Eval::Smooth, pos, 5);
        let mut s = AlphaBeta::new(rules, Eval::Smooth, 14);
        assert_eq!(s.value(pos, 5), want);
        // Again with the table warm from the first search.
        assert_eq!(s.value(pos, 5), want);
        s.use_table = false;
        assert_eq!(s.value(pos, 5), want);
    }
}

#[test]
fn decisions_play_the_searched_value_and_honour_limits() {
    let rules = Rules::Gpcc2016;
    for pos in positions(rules, 6) {
        let mut s = AlphaBeta::new(rules, Eval::Edges, 16);
        let d = s.decide(pos, Limits::plies(4)).unwrap();
        assert_eq!(d.plies, 4);
        let (want, _) = minimax(rules, &Eval::Edges, pos, 4);
        assert_eq!(d.value, want);
        let child = pos.play(rules, d.action).unwrap();
        let (v, _) = minimax(rules, &Eval::Edges, child, 3);
        assert_eq!(-v, want, "the chosen action reaches the value");
        // A node budget stops deepening early, the same way every time.
        let limits = Limits {
            plies: 30,
            nodes: Some(2000),
            time: None,
        };
        let a = AlphaBeta::new(rules, Eval::Edges, 16)
            .decide(pos, limits)
            .unwrap();
        let b = AlphaBeta::new(rules, Eval::Edges, 16)
            .decide(pos, limits)
            .unwrap();
        assert_eq!(a, b);
        assert!(a.plies < 30 && a.plies >= 1);
    }
}

fn spec(rules: Rules, plies: u32, matches: u64) -> MatchSpec {
    MatchSpec {
        rules,
        limits: Limits::plies(plies),
        opening_turns: 2,
        matches,
        seed: 5,
    }
}

#[test]
fn matches_are_deterministic_and_games_end_stuck() {
    let a = Player::builtin("eval2").unwrap();
    let b = Player::builtin("eval1").unwrap();
    let s = spec(Rules::Gpcc2015, 2, 2);
    for i in 0..2 {
        let m = play_match(&s, &a, &b, i);
        assert_eq!(m, play_match(&s, &a, &b, i));
        for g in [m.a_defends, m.b_defends] {
            assert!(!g.board.has_move(), "the game ran to its end");
            assert!(g.moves > 10 && g.score > 0);
            // Every 2 placed is on the board or inside a merged tile.
            let sum: u64 = g.board.values().iter().map(|&v| u64::from(v)).sum();
            assert_eq!(sum % 2, 0);
        }
        let want = match m.a_defends.score.cmp(&m.b_defends.score) {
            std::cmp::Ordering::Greater => MatchVerdict::Win,
            std::cmp::Ordering::Equal => MatchVerdict::Draw,
            std::cmp::Ordering::Less => MatchVerdict::Loss,
        };
        assert_eq!(m.verdict, want);
    }
}

#[test]
fn a_summary_counts_from_a_side() {
    let a = Player::builtin("eval1").unwrap();
    let b = Player::builtin("score").unwrap();
    let s = spec(Rules::Gpcc2016, 2, 3);
    let results: Vec<_> = (0..3).map(|i| play_match(&s, &a, &b, i)).collect();
    let sum = MatchSummary::of(&results);
    assert_eq!(sum.wins + sum.draws + sum.losses, 3);
    let diff: f64 = results
        .iter()
        .map(|r| r.a_defends.score as f64 - r.b_defends.score as f64)
        .sum::<f64>()
        / 3.0;
    assert!((sum.mean_diff - diff).abs() < 1e-9);
    assert!(sum.mean_diff_ci95[0] <= diff && diff <= sum.mean_diff_ci95[1]);
}

#[test]
fn match_command_prints_json_and_rejects_bad_players() {
    let out = run(&[
        "match",
        "--rules",
        "gpcc2015",
        "--a",
        "eval2",
        "--b",
        "eval1",
        "--plies",
        "2",
        "--matches",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["matches"].as_array().unwrap().len(), 2);
    let s = &v["summary"];
    let total =
        s["wins"].as_u64().unwrap() + s["draws"].as_u64().unwrap() + s["losses"].as_u64().unwrap();
    assert_eq!(total, 2);
    let out = run(&[
        "match", "--rules", "gpcc2015", "--a", "nobody", "--b", "eval1", "--plies", "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--a nobody"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&[
        "match", "--rules", "gpcc2015", "--a", "eval1", "--b", "eval1",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_weights_file_is_a_player() {
    let out = run(&[
        "match",
        "--rules",
        "gpcc2016",
        "--a",
        "configs/weights/default.ron",
        "--b",
        "eval2",
        "--nodes",
        "300",
        "--matches",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1 matches"));
}
