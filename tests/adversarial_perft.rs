//! Perft of adversarial 2048 (GPCC rules): the golden file, the fast count
//! against the N×N reference, and the `perft` command.

use tune2048::adversarial::perft::{perft, perft_reference};
use tune2048::adversarial::{Rules, Side};
use tune2048::engine::grid::Grid;
use tune2048::engine::Board;

use crate::util::{run, text};

/// `rules | first side | board hex | plies | leaves` lines of the golden file.
fn golden() -> Vec<(Rules, Side, Board, u32, u64)> {
    include_str!("data/perft-gpcc.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let side = match f[1] {
                "attacker" => Side::Attacker,
                "defender" => Side::Defender,
                other => panic!("side {other}"),
            };
            let hex = f[2].trim_start_matches("0x");
            (
                Rules::parse(f[0]).unwrap(),
                side,
                Board(u64::from_str_radix(hex, 16).unwrap()),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

/// Starts of the golden file: the empty board, a sparse and a crowded
/// middle game, and a board one move from the end.
const BOARDS: [u64; 4] = [
    0,
    0x0000_0000_0120_0011,
    0x2100_4321_0013_0012,
    0x1212_2121_1212_0021,
];

/// Plies up to which the fast test recounts the golden file.
const FAST_PLIES: u32 = 6;

#[test]
fn fast_perft_matches_the_golden_file() {
    let g = golden();
    assert!(g.len() >= 30);
    for (rules, side, b, plies, count) in g {
        if plies <= FAST_PLIES {
            assert_eq!(
                perft(rules, b, side, plies),
                count,
                "{rules:?} {side:?} {b:?} {plies}"
            );
        }
    }
}

#[test]
fn reference_perft_matches_the_golden_file_to_4_plies() {
    for (rules, side, b, plies, count) in golden() {
        if plies <= 4 {
            let r = perft_reference(rules, &Grid::from_board(b), side, plies);
            assert_eq!(r, count, "{rules:?} {side:?} {b:?} {plies}");
        }
    }
}

/// 9 plies from the empty board, attacker first: 2,802,218,688 under
/// gpcc2016 (about a second of one core).
#[test]
fn nine_plies_from_the_empty_board() {
    for (rules, side, b, plies, count) in golden() {
        if plies > FAST_PLIES {
            assert_eq!(
                perft(rules, b, side, plies),
                count,
                "{rules:?} {side:?} {b:?} {plies}"
            );
        }
    }
}

#[test]
fn perft_command_prints_the_count_last() {
    let out = run(&["perft", "--rules", "gpcc2016", "--plies", "5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    let last = line.split_whitespace().last().unwrap();
    assert_eq!(
        last.parse::<u64>().unwrap(),
        perft(Rules::Gpcc2016, Board::EMPTY, Side::Attacker, 5)
    );
    let out = run(&[
        "perft",
        "--rules",
        "gpcc2015",
        "--plies",
        "2",
        "--side",
        "defender",
        "--board",
        "2,2,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // LEFT/RIGHT merge, DOWN slides: three moves, 15, 15 and 14 empty cells.
    assert!(
        text(&out.stdout).trim_end().ends_with(" 44"),
        "{}",
        text(&out.stdout)
    );
    let out = run(&[
        "perft", "--rules", "classic", "--plies", "1", "--board", "0x1001",
    ]);
    assert!(text(&out.stdout).trim_end().ends_with(" 88"));
}

#[test]
fn perft_command_rejects_a_bad_board_with_exit_2() {
    for bad in [
        "2,2,2",
        "3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
        "0xZZ",
        "0x12345678901234567",
    ] {
        let out = run(&[
            "perft", "--rules", "gpcc2016", "--plies", "1", "--board", bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).contains("--board"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// Rewrites `tests/data/perft-gpcc.txt`: depths up to 4 from the reference
/// rules, deeper ones from the fast count, the 9-ply line last:
/// `TUNE2048_BLESS=1 cargo test --release --test integration -- --ignored write_gpcc_perft_golden`.
/// Without `TUNE2048_BLESS=1` it writes nothing, so `--include-ignored` leaves
/// every golden file as it is.
#[test]
#[ignore]
fn write_gpcc_perft_golden() {
    if !crate::util::blessing("tests/data/perft-gpcc.txt") {
        return;
    }
    let mut out = String::from(
        "# Perft of adversarial 2048: attacker and defender plies each count one; the\n\
         # attacker places on any empty cell (gpcc2015: a 2; gpcc2016: a 2 or a 4), the\n\
         # defender makes any move that changes the board. Up to 4 plies the counts come\n\
         # from the N×N reference rules (engine/grid.rs), deeper ones from the bitboard.\n\
         # rules | first | board hex | plies | leaves\n",
    );
    for rules in [Rules::Gpcc2015, Rules::Gpcc2016] {
        for b in BOARDS {
            for (side, name) in [(Side::Attacker, "attacker"), (Side::Defender, "defender")] {
                for plies in 1..=FAST_PLIES {
                    let count = if plies <= 4 {
                        perft_reference(rules, &Grid::from_board(Board(b)), side, plies)
                    } else {
                        perft(rules, Board(b), side, plies)
                    };
                    out += &format!(
                        "{} | {name} | {b:#018x} | {plies} | {count}\n",
                        rules.name()
                    );
                }
            }
        }
    }
    for rules in [Rules::Gpcc2015, Rules::Gpcc2016] {
        let count = perft(rules, Board::EMPTY, Side::Attacker, 9);
        out += &format!("{} | attacker | {:#018x} | 9 | {count}\n", rules.name(), 0);
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-gpcc.txt");
    std::fs::write(path, out).unwrap();
}
