//! The fast 4×4 board against the reference rules (`Grid`): every row and
//! column, a million random boards, golden move vectors, symmetries, whole
//! games of every variant, and perft counts from the golden file.

use rand::Rng;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use tune2048::engine::grid::Grid;
use tune2048::engine::perft::{perft, perft_reference};
use tune2048::engine::{play_game, Board, Direction, Outcome, RandomPlacer, TurnOrder, Variant};

/// Asserts that the fast board and the reference agree on every move of `b`.
fn check_board(b: Board) {
    let grid = Grid::from_board(b);
    for dir in Direction::ALL {
        let want = grid.slide(dir);
        let got = b.make_move(dir);
        let shifted = b.shift(dir);
        if !want.changed {
            assert_eq!(got, None, "{b:?} {dir}: the reference says illegal");
            assert_eq!(shifted, b, "{b:?} {dir}");
            continue;
        }
        let m = got.unwrap_or_else(|| panic!("{b:?} {dir}: the reference says legal"));
        assert_eq!(u64::from(m.score), want.score, "{b:?} {dir}: score");
        let overflow = want.grid.max_tile() > 32768;
        assert_eq!(m.overflow, overflow, "{b:?} {dir}: overflow");
        // Where a 65536 was made the fast board shows a 32768.
        let capped: Vec<u64> = want.grid.cells().iter().map(|&v| v.min(32768)).collect();
        let expect = Grid::new(4, capped).unwrap().to_board().unwrap();
        assert_eq!(m.board, expect, "{b:?} {dir}: board");
        assert_eq!(shifted, expect, "{b:?} {dir}: shift");
    }
}

#[test]
fn every_row_in_every_position_and_as_every_column() {
    for line in 0..=u16::MAX {
        for pos in 0..4 {
            let b = Board((line as u64) << (16 * pos));
            check_board(b);
            check_board(b.transpose());
        }
    }
}

#[test]
fn two_32768s_make_65536_in_the_reference_and_overflow_in_the_board() {
    let b = Board::from_values([32768, 32768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let want = Grid::from_board(b).slide(Direction::Left);
    assert_eq!(want.grid.get(0, 0), 65536);
    assert_eq!(want.score, 65536);
    let m = b.make_move(Direction::Left).unwrap();
    assert!(m.overflow);
    assert_eq!(m.score, 65536);
    check_board(b);
    check_board(b.transpose());
}

/// A random board: each board has its own largest rank, so some are full of
/// equal small tiles (many merges) and some spread over all 15 ranks.
fn random_board(rng: &mut impl Rng) -> Board {
    let top = rng.gen_range(1..=15u8);
    let empty = rng.gen_range(0.0..0.7);
    Board::from_ranks(std::array::from_fn(|_| {
        if rng.gen_bool(empty) {
            0
        } else {
            rng.gen_range(1..=top)
        }
    }))
}

#[test]
fn a_million_random_boards() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x2048);
    for _ in 0..1_000_000 {
        check_board(random_board(&mut rng));
    }
}

#[test]
fn golden_move_vectors() {
    let text = include_str!("data/moves-4x4.txt");
    let mut count = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("moves-4x4.txt line {}", i + 1);
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "{at}");
        let values =
            |s: &str| -> Vec<u64> { s.split_whitespace().map(|w| w.parse().unwrap()).collect() };
        let before = Grid::new(4, values(fields[0])).unwrap();
        let dir = Direction::parse(fields[1]).unwrap();
        let after = Grid::new(4, values(fields[2])).unwrap();
        let score: u64 = fields[3].parse().unwrap();
        let changed = fields[4] == "1";

        let want = before.slide(dir);
        assert_eq!(
            (&want.grid, want.score, want.changed),
            (&after, score, changed),
            "{at}: reference"
        );
        let b = before.to_board().unwrap();
        match b.make_move(dir) {
            Some(m) => {
                assert!(changed, "{at}");
                assert_eq!(
                    (Some(m.board), u64::from(m.score)),
                    (after.to_board(), score),
                    "{at}"
                );
            }
            None => assert!(!changed, "{at}: fast board says illegal"),
        }
        count += 1;
    }
    assert!(count > 2_900, "only {count} vectors");
}

#[test]
fn moves_commute_with_the_symmetries_of_the_square() {
    use Direction::*;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let mapped = |m: Option<tune2048::engine::Moved>, f: fn(Board) -> Board| {
        m.map(|m| (f(m.board), m.score, m.overflow))
    };
    for _ in 0..200_000 {
        let b = random_board(&mut rng);
        let mv = |b: Board, d| b.make_move(d).map(|m| (m.board, m.score, m.overflow));
        // Mirror left-right: LEFT and RIGHT swap, UP and DOWN stay.
        assert_eq!(
            mv(b.mirror(), Left),
            mapped(b.make_move(Right), Board::mirror)
        );
        assert_eq!(
            mv(b.mirror(), Right),
            mapped(b.make_move(Left), Board::mirror)
        );
        assert_eq!(mv(b.mirror(), Up), mapped(b.make_move(Up), Board::mirror));
        // Flip top-bottom: UP and DOWN swap.
        assert_eq!(mv(b.flip(), Up), mapped(b.make_move(Down), Board::flip));
        assert_eq!(mv(b.flip(), Left), mapped(b.make_move(Left), Board::flip));
        // Transpose: rows and columns swap, so LEFT ↔ UP and RIGHT ↔ DOWN.
        assert_eq!(
            mv(b.transpose(), Left),
            mapped(b.make_move(Up), Board::transpose)
        );
        assert_eq!(
            mv(b.transpose(), Down),
            mapped(b.make_move(Right), Board::transpose)
        );
        // All eight images have the same number of legal moves.
        let legal = b.legal_moves().count();
        assert!(b
            .symmetries()
            .iter()
            .all(|s| s.legal_moves().count() == legal));
    }
}

/// The one tile `after` has that `before` lacks, all else equal.
fn added_tile(before: &Grid, after: Board, at: &str) -> u64 {
    let after = Grid::from_board(after);
    let diff: Vec<usize> = (0..16)
        .filter(|&i| before.cells()[i] != after.cells()[i])
        .collect();
    assert_eq!(
        diff.len(),
        1,
        "{at}: expected one new tile\n{before:?}{after:?}"
    );
    assert_eq!(
        before.cells()[diff[0]],
        0,
        "{at}: tile placed on an occupied cell"
    );
    after.cells()[diff[0]]
}

/// Plays seeded games of `variant` with random legal moves and replays every
/// move on the reference board.
fn replay_games(variant: Variant, games: u64) {
    for seed in 0..games {
        let at = format!("{} game {seed}", variant.name());
        let mut placer = RandomPlacer::new(seed, variant.p4());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed + 1000);
        let mut policy = |b: Board| {
            let legal: Vec<Direction> = b.legal_moves().collect();
            legal[rng.gen_range(0..legal.len())]
        };
        let order = TurnOrder {
            timing: variant.timing(),
            start_tiles: variant.start_tiles(),
            move_limit: None,
        };
        let mut seen = Vec::new();
        let record = play_game(order, Board::EMPTY, &mut policy, &mut placer, |b, d| {
            seen.push((b, d))
        });
        assert_eq!(record.outcome, Outcome::GameOver, "{at}");
        assert_eq!(record.moves as usize, seen.len(), "{at}");

        // Before the first move: classic has its two start tiles, twos the
        // one 2 placed before the move.
        let first = Grid::from_board(seen[0].0);
        let tiles: Vec<u64> = first.cells().iter().copied().filter(|&v| v != 0).collect();
        match variant {
            Variant::Classic { .. } => {
                assert_eq!(tiles.len(), 2, "{at}");
                assert!(tiles.iter().all(|&v| v == 2 || v == 4), "{at}");
            }
            Variant::Twos => assert_eq!(tiles, [2], "{at}"),
        }

        // Each move, then exactly one tile (the classic spawn after the move,
        // or the twos placement before the next one).
        let mut score = 0;
        let mut fours = u32::from(tiles.contains(&4));
        for (i, &(b, d)) in seen.iter().enumerate() {
            let moved = Grid::from_board(b).slide(d);
            assert!(moved.changed, "{at}, move {i}: illegal move played");
            score += moved.score;
            let next = seen.get(i + 1).map_or(record.board, |s| s.0);
            let tile = added_tile(&moved.grid, next, &format!("{at}, move {i}"));
            match variant {
                Variant::Classic { .. } => assert!(tile == 2 || tile == 4, "{at}"),
                Variant::Twos => assert_eq!(tile, 2, "{at}"),
            }
            fours += u32::from(tile == 4);
        }
        assert_eq!(record.score, score, "{at}");
        assert_eq!(record.fours, fours, "{at}");
        let last = Grid::from_board(record.board);
        assert!(
            Direction::ALL.iter().all(|&d| !last.slide(d).changed),
            "{at}: not over"
        );
        assert_eq!(u64::from(record.max_tile), last.max_tile(), "{at}");
    }
}

#[test]
fn classic_games_replay_on_the_reference() {
    replay_games(Variant::CLASSIC, 30);
}

#[test]
fn twos_games_replay_on_the_reference() {
    replay_games(Variant::Twos, 30);
}

/// `board hex | depth | count` lines of the perft golden file.
fn perft_golden() -> Vec<(Board, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let hex = f[0].trim_start_matches("0x").replace('_', "");
            (
                Board(u64::from_str_radix(&hex, 16).unwrap()),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

/// Boards of the golden file: a start position, sparse and crowded middle
/// games, a near-dead end, and a pair of 32768s at the tile cap.
const PERFT_BOARDS: [u64; 6] = [
    0x0000_0000_0000_1001,
    0x1234_0000_2100_0011,
    0x2100_4321_0013_0000,
    0x1212_2121_1212_0021,
    0x0000_0000_0000_ff00,
    0x3456_2345_1234_0123,
];

#[test]
fn fast_perft_matches_the_golden_file() {
    let golden = perft_golden();
    assert!(golden.len() >= 12);
    for (b, depth, count) in golden {
        assert_eq!(perft(b, depth), count, "{b:?} depth {depth}");
    }
}

#[test]
fn reference_perft_matches_the_golden_file_to_depth_2() {
    for (b, depth, count) in perft_golden() {
        if depth <= 2 {
            assert_eq!(perft_reference(&Grid::from_board(b), depth), count, "{b:?}");
        }
    }
}

/// Rewrites `tests/data/perft.txt` from the reference rules:
/// `TUNE2048_BLESS=1 cargo test --release --test integration -- --ignored write_perft_golden`.
/// Without `TUNE2048_BLESS=1` it writes nothing, so `--include-ignored` leaves
/// every golden file as it is.
#[test]
#[ignore]
fn write_perft_golden() {
    if !crate::util::blessing("tests/data/perft.txt") {
        return;
    }
    let mut out = String::from(
        "# Perft counts for the 4x4 game (classic model: a legal move, then a 2 or a 4\n\
         # on each empty cell; a move that makes a 65536 ends the game). Produced by\n\
         # perft_reference on the N×N reference rules (engine/grid.rs).\n\
         # board hex | depth | leaves\n",
    );
    for b in PERFT_BOARDS {
        for depth in 1..=3 {
            let count = perft_reference(&Grid::from_board(Board(b)), depth);
            out += &format!("{b:#018x} | {depth} | {count}\n");
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    std::fs::write(path, out).unwrap();
}
