//! Golden games: seeded self-play through the library's public API, pinned
//! in `tests/data/games.csv`. The rules have their perft golden; this pins
//! what the heuristic and the search make of them. A change to the engine,
//! the heuristic, its tables, the search (cutoffs, transposition table) or the
//! seeding of games shows up here as a different score, length or tile.

use std::fmt::Write as _;

use tune2048::engine::Variant;
use tune2048::heuristic::{Heuristic, Weights};
use tune2048::search::{Depth, SearchParams};
use tune2048::selfplay::{play_one, GameSpec};

use crate::util::repo_path;

const GOLDEN: &str = "tests/data/games.csv";

const HEADER: &str = "seed,weights,variant,depth,move_limit,score,moves,max_tile";

/// What names a game: everything `play_one` is given.
#[derive(Clone, Debug, PartialEq)]
struct Case {
    seed: u64,
    /// A file of `configs/weights/`.
    weights: String,
    /// `classic` (a 4 with probability 0.1) or `twos`.
    variant: String,
    depth: u32,
    /// Moves after which the game stops (`None`: played to the end).
    move_limit: Option<u32>,
}

/// What a game gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    score: u64,
    moves: u32,
    max_tile: u32,
}

impl Case {
    fn play(&self) -> Played {
        let variant = match self.variant.as_str() {
            "classic" => Variant::CLASSIC,
            "twos" => Variant::Twos,
            other => panic!("unknown variant {other}"),
        };
        let path = repo_path("configs/weights").join(&self.weights);
        let weights = Weights::load(&path).unwrap();
        let mut spec = GameSpec::new(
            variant,
            SearchParams::new(Depth::Fixed(self.depth), variant),
        );
        spec.move_limit = self.move_limit;
        let r = play_one(&spec, &Heuristic::new(&weights), self.seed).record;
        Played {
            score: r.score,
            moves: r.moves,
            max_tile: r.max_tile,
        }
    }
}

/// The games the golden file holds. Depths 0 and 1 play whole games; most
/// depth-2 games stop at 600 moves (a whole one takes thousands) and two play
/// to the end, so that the check stays within seconds. Seeds are small
/// numbers and a few wide ones.
fn cases() -> Vec<Case> {
    let wide = [u64::MAX, 0x2048_2048_2048_2048, 1 << 63];
    let mut cases = Vec::new();
    let mut add = |seeds: &[u64], weights: &str, variant: &str, depth: u32, limit: Option<u32>| {
        for &seed in seeds {
            cases.push(Case {
                seed,
                weights: weights.to_string(),
                variant: variant.to_string(),
                depth,
                move_limit: limit,
            });
        }
    };
    // Depth 0: greedy on the heuristic.
    add(&[0, 1, 2, 3, 4, 5], "nneonneo.ron", "classic", 0, None);
    add(&wide, "nneonneo.ron", "classic", 0, None);
    add(&[6, 7, 8], "classic-d1.ron", "classic", 0, None);
    add(&[0, 1, 2, 3], "twos.ron", "twos", 0, None);
    add(&[4, 5], "twos-d1.ron", "twos", 0, None);
    // Depth 1: every shipped set once or more.
    add(&[10, 11, 12, 13], "nneonneo.ron", "classic", 1, None);
    add(&wide[..1], "nneonneo.ron", "classic", 1, None);
    add(&[14, 15, 16], "classic-d1.ron", "classic", 1, None);
    add(&[17, 18], "classic-d2.ron", "classic", 1, None);
    add(&[19], "default.ron", "classic", 1, None);
    add(&[10, 11, 12], "twos.ron", "twos", 1, None);
    add(&wide[1..2], "twos.ron", "twos", 1, None);
    add(&[13, 14], "twos-d1.ron", "twos", 1, None);
    // A move limit at depth 1, where the game would go on.
    add(&[20], "nneonneo.ron", "classic", 1, Some(300));
    add(&[21], "twos.ron", "twos", 1, Some(300));
    // Depth 2, cut short.
    add(&[30, 31, 32], "nneonneo.ron", "classic", 2, Some(600));
    add(&[33, 34], "classic-d2.ron", "classic", 2, Some(600));
    add(&wide[2..], "classic-d2.ron", "classic", 2, Some(600));
    add(&[30, 31, 32], "twos.ron", "twos", 2, Some(600));
    add(&[33], "twos-d1.ron", "twos", 2, Some(600));
    // Depth 2, whole games.
    add(&[35], "nneonneo.ron", "classic", 2, None);
    add(&[34], "twos.ron", "twos", 2, None);
    cases
}

/// The golden file's rows: each case with what it gave when the file was written.
fn read_golden() -> Vec<(Case, Played)> {
    let text = std::fs::read_to_string(repo_path(GOLDEN)).unwrap();
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let (_, header) = lines.next().expect("a header line");
    assert_eq!(header, HEADER, "{GOLDEN}: header");
    lines
        .map(|(i, line)| {
            let at = format!("{GOLDEN} line {}", i + 1);
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 8, "{at}: {line}");
            let number = |s: &str| -> u64 { s.parse().unwrap_or_else(|e| panic!("{at}: {e}")) };
            let case = Case {
                seed: number(f[0]),
                weights: f[1].to_string(),
                variant: f[2].to_string(),
                depth: number(f[3]) as u32,
                move_limit: (!f[4].is_empty()).then(|| number(f[4]) as u32),
            };
            let played = Played {
                score: number(f[5]),
                moves: number(f[6]) as u32,
                max_tile: number(f[7]) as u32,
            };
            (case, played)
        })
        .collect()
}

#[test]
fn games_match_the_golden_file() {
    let golden = read_golden();
    // The file holds exactly the games `cases` names: neither drifts alone.
    let named: Vec<Case> = golden.iter().map(|(c, _)| c.clone()).collect();
    assert_eq!(named, cases(), "{GOLDEN} and cases() name different games");
    let mut depths = [0; 3];
    for (case, want) in &golden {
        assert_eq!(case.play(), *want, "{case:?}");
        depths[case.depth as usize] += 1;
    }
    assert!(depths.iter().all(|&n| n >= 5), "{depths:?}");
}

/// Rewrites `tests/data/games.csv` by playing every case with the current
/// code. Do this only on purpose, when a change is meant to alter play (the
/// engine, the heuristic, the search or the seeding), and give the reason in
/// the commit that carries the new file:
/// `TUNE2048_BLESS=1 cargo test --test integration -- --ignored regenerate_games_golden`.
/// Without `TUNE2048_BLESS=1` it writes nothing, so `--include-ignored` leaves
/// every golden file as it is.
#[test]
#[ignore]
fn regenerate_games_golden() {
    if !crate::util::blessing("tests/data/games.csv") {
        return;
    }
    let mut out = String::from(
        "# Golden games, checked by tests/golden_games.rs. Each row is one game of\n\
         # tune2048::selfplay::play_one: the seed, a weights file of configs/weights/,\n\
         # the variant (classic: a 4 with probability 0.1; twos: only 2s, placed\n\
         # before each move), the fixed search depth and an optional move limit\n\
         # (empty: the whole game), then the game's score, moves and largest tile.\n\
         # Written by the ignored test regenerate_games_golden; do not edit by hand.\n",
    );
    out += HEADER;
    out.push('\n');
    for case in cases() {
        let p = case.play();
        let limit = case.move_limit.map_or(String::new(), |m| m.to_string());
        writeln!(
            out,
            "{},{},{},{},{limit},{},{},{}",
            case.seed, case.weights, case.variant, case.depth, p.score, p.moves, p.max_tile
        )
        .unwrap();
    }
    std::fs::write(repo_path(GOLDEN), out).unwrap();
}
