//! Benchmarks that check what they time: every timed pass computes a
//! checksum or a count and compares it with a value known in advance (from
//! the reference rules or the perft golden file), so a fast wrong answer
//! fails instead of looking good.

pub mod search;

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::Rng;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::grid::Grid;
use crate::engine::perft::perft;
use crate::engine::{play_game, Board, Direction, Moved, RandomPlacer, TurnOrder, Variant};
use crate::seeds::game_seed;

/// Seed of the games the engine benchmark samples its boards from.
pub const BOARD_SEED: u64 = 2048;

/// Default number of sampled boards.
pub const DEFAULT_BOARDS: usize = 10_000;

/// Boards and depths the perft benchmark runs, with their leaf counts (the
/// counts are in `tests/data/perft.txt`, produced by the reference rules).
pub const PERFT_CASES: [(u64, u32, u64); 3] = [
    (0x0000_0000_0000_1001, 3, 874_312),
    (0x1234_0000_2100_0011, 3, 254_534),
    (0x2100_4321_0013_0000, 3, 182_294),
];

/// One line of a benchmark report.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub name: &'static str,
    /// Units of work done (moves, perft leaves).
    pub iterations: u64,
    pub elapsed: Duration,
    /// What one iteration is, for the rate column (`moves`, `leaves`).
    pub unit: &'static str,
}

impl Measurement {
    /// Iterations per second.
    pub fn rate(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-12)
    }
}

/// A timed pass gave a different answer than the reference.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("benchmark `{name}` computed {found:#x}, expected {expected:#x}: the fast code is wrong")]
pub struct BenchError {
    pub name: &'static str,
    pub expected: u64,
    pub found: u64,
}

/// What the engine benchmark runs on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// Boards sampled from random-play games.
    pub boards: usize,
    /// Time spent on each measurement (at least one full pass is made).
    pub secs: f64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            boards: DEFAULT_BOARDS,
            secs: 1.0,
        }
    }
}

/// `count` boards met in classic games played by uniformly random legal
/// moves, every position of each game in order, games seeded from [`BOARD_SEED`].
pub fn sample_boards(count: usize) -> Vec<Board> {
    let mut boards = Vec::with_capacity(count);
    let mut game = 0;
    while boards.len() < count {
        let seed = game_seed(BOARD_SEED, game);
        let mut placer = RandomPlacer::new(seed, Variant::CLASSIC.p4());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5EED);
        let mut policy = |b: Board| {
            let legal: Vec<Direction> = b.legal_moves().collect();
            legal[rng.gen_range(0..legal.len())]
        };
        let order = TurnOrder {
            timing: Variant::CLASSIC.timing(),
            start_tiles: Variant::CLASSIC.start_tiles(),
            move_limit: None,
        };
        play_game(order, Board::EMPTY, &mut policy, &mut placer, |b, _| {
            if boards.len() < count {
                boards.push(b);
            }
        });
        game += 1;
    }
    boards
}

/// Sum of every board after `shift` in all four directions (fast board).
#[inline(never)]
pub fn shift_checksum(boards: &[Board]) -> u64 {
    let mut sums = [0u64; 4];
    for &b in boards {
        // Written out so that every call sees a constant direction, as in a search.
        sums[0] = sums[0].wrapping_add(b.shift(Direction::Up).0);
        sums[1] = sums[1].wrapping_add(b.shift(Direction::Down).0);
        sums[2] = sums[2].wrapping_add(b.shift(Direction::Left).0);
        sums[3] = sums[3].wrapping_add(b.shift(Direction::Right).0);
    }
    combine(sums)
}

/// Sum over every legal move of its board and score, plus a constant for
/// each illegal one (fast board).
#[inline(never)]
pub fn make_move_checksum(boards: &[Board]) -> u64 {
    #[inline(always)]
    fn term(b: Board, dir: Direction) -> u64 {
        move_term(b.make_move(dir))
    }
    let mut sums = [0u64; 4];
    for &b in boards {
        sums[0] = sums[0].wrapping_add(term(b, Direction::Up));
        sums[1] = sums[1].wrapping_add(term(b, Direction::Down));
        sums[2] = sums[2].wrapping_add(term(b, Direction::Left));
        sums[3] = sums[3].wrapping_add(term(b, Direction::Right));
    }
    combine(sums)
}

/// The checksum of [`make_move_checksum`], from the four moves of each
/// board played at once ([`Board::moves`]).
#[inline(never)]
pub fn moves_checksum(boards: &[Board]) -> u64 {
    let mut sums = [0u64; 4];
    for &b in boards {
        let [up, down, left, right] = b.moves();
        sums[0] = sums[0].wrapping_add(move_term(up));
        sums[1] = sums[1].wrapping_add(move_term(down));
        sums[2] = sums[2].wrapping_add(move_term(left));
        sums[3] = sums[3].wrapping_add(move_term(right));
    }
    combine(sums)
}

/// Both checksums computed with the reference rules, for comparison.
pub fn reference_checksums(boards: &[Board]) -> (u64, u64) {
    let mut shift = [0u64; 4];
    let mut moves = [0u64; 4];
    for &b in boards {
        let grid = Grid::from_board(b);
        for (k, dir) in Direction::ALL.into_iter().enumerate() {
            let m = grid.slide(dir);
            let overflow = m.grid.max_tile() > 32768;
            // The fast board keeps a 32768 where a 65536 was made.
            let cells: Vec<u64> = m.grid.cells().iter().map(|&v| v.min(32768)).collect();
            let after = Grid::new(4, cells).unwrap().to_board().unwrap();
            shift[k] = shift[k].wrapping_add(after.0);
            let add = if m.changed {
                after.0.wrapping_add(m.score << 1 | u64::from(overflow))
            } else {
                ILLEGAL
            };
            moves[k] = moves[k].wrapping_add(add);
        }
    }
    (combine(shift), combine(moves))
}

/// A move's part of the checksum: its board, score and overflow flag.
#[inline(always)]
fn move_term(m: Option<Moved>) -> u64 {
    match m {
        Some(m) => m
            .board
            .0
            .wrapping_add(u64::from(m.score) << 1 | u64::from(m.overflow)),
        None => ILLEGAL,
    }
}

const ILLEGAL: u64 = 0x9E37_79B9_7F4A_7C15;

fn combine(sums: [u64; 4]) -> u64 {
    sums.iter().fold(0u64, |acc, &s| acc.rotate_left(17) ^ s)
}

/// Repeats `pass` until `secs` have gone by, checking every answer.
fn measure(
    name: &'static str,
    unit: &'static str,
    per_pass: u64,
    secs: f64,
    expected: u64,
    mut pass: impl FnMut() -> u64,
) -> Result<Measurement, BenchError> {
    let budget = Duration::from_secs_f64(secs.max(0.0));
    let start = Instant::now();
    let mut passes = 0u64;
    loop {
        let found = black_box(pass());
        if found != expected {
            return Err(BenchError {
                name,
                expected,
                found,
            });
        }
        passes += 1;
        if start.elapsed() >= budget {
            break;
        }
    }
    Ok(Measurement {
        name,
        iterations: passes * per_pass,
        elapsed: start.elapsed(),
        unit,
    })
}

/// The engine suite: `shift`, `make_move` and `moves` (all four at once)
/// over sampled boards in all four directions, and perft on fixed boards.
pub fn engine(config: EngineConfig) -> Result<Vec<Measurement>, BenchError> {
    let boards = sample_boards(config.boards);
    let (shift_expected, move_expected) = reference_checksums(&boards);
    let moves = 4 * boards.len() as u64;
    let mut out = vec![
        measure("shift", "moves", moves, config.secs, shift_expected, || {
            shift_checksum(black_box(&boards))
        })?,
        measure(
            "make_move",
            "moves",
            moves,
            config.secs,
            move_expected,
            || make_move_checksum(black_box(&boards)),
        )?,
        measure("moves", "moves", moves, config.secs, move_expected, || {
            moves_checksum(black_box(&boards))
        })?,
    ];
    let leaves: u64 = PERFT_CASES.iter().map(|c| c.2).sum();
    out.push(measure(
        "perft",
        "leaves",
        leaves,
        config.secs,
        leaves,
        || {
            PERFT_CASES
                .iter()
                .map(|&(b, depth, _)| perft(black_box(Board(b)), depth))
                .sum()
        },
    )?);
    Ok(out)
}

/// Renders measurements as an aligned table.
pub fn table(rows: &[Measurement]) -> String {
    let mut s = format!(
        "{:<10} {:>14} {:>9} {:>16}\n",
        "name", "iterations", "time (s)", "rate"
    );
    for r in rows {
        s += &format!(
            "{:<10} {:>14} {:>9.3} {:>9.3e} {}/s\n",
            r.name,
            r.iterations,
            r.elapsed.as_secs_f64(),
            r.rate(),
            r.unit
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_checksums_equal_the_reference() {
        let boards = sample_boards(2_000);
        assert_eq!(boards.len(), 2_000);
        let (shift, moves) = reference_checksums(&boards);
        assert_eq!(shift_checksum(&boards), shift);
        assert_eq!(make_move_checksum(&boards), moves);
        assert_eq!(moves_checksum(&boards), moves);
        // The sample is reproducible.
        assert_eq!(sample_boards(500), boards[..500]);
    }

    #[test]
    fn perft_cases_come_from_the_golden_file() {
        let golden = include_str!("../../tests/data/perft.txt");
        for (board, depth, count) in PERFT_CASES {
            let line = format!("{board:#018x} | {depth} | {count}");
            assert!(golden.lines().any(|l| l == line), "{line}");
        }
    }

    #[test]
    fn a_wrong_answer_fails_the_benchmark() {
        let err = measure("x", "moves", 1, 0.0, 7, || 8).unwrap_err();
        assert_eq!((err.expected, err.found), (7, 8));
        let ok = measure("x", "moves", 3, 0.0, 7, || 7).unwrap();
        assert_eq!(ok.iterations, 3);
    }

    #[test]
    fn table_has_a_line_per_measurement() {
        let rows = [Measurement {
            name: "shift",
            iterations: 10,
            elapsed: Duration::from_secs(2),
            unit: "moves",
        }];
        let t = table(&rows);
        assert_eq!(t.lines().count(), 2);
        assert!(t.contains("5.000e0 moves/s"), "{t}");
    }
}
