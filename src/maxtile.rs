//! BOJ 12100 "2048 (Easy)": the largest tile an N×N board (N ≤ 20) can hold
//! after at most K moves, no tiles spawned.
//!
//! The search runs on the reference rules ([`Grid`]): K is small, so the work
//! is a few thousand slides even for N = 20. It is exact, and pruned three
//! ways, none of which can lose the answer:
//! - a move that changes nothing is skipped (it only wastes a move);
//! - a move at most doubles the largest tile, so a branch whose largest tile
//!   times 2^(moves left) cannot beat the best found is cut;
//! - a board already searched with at least as many moves left is skipped.
//!
//! And the search stops once the best equals the largest power of two not
//! above the sum of the tiles (merges keep the sum, so nothing beats that).

use std::collections::HashMap;

use crate::engine::grid::{Grid, MAX_N};
use crate::engine::Direction;

/// Largest tile the input may hold.
pub const MAX_INPUT_TILE: u64 = 1024;

/// Why an input could not be read. Lines and columns count from 1; a column
/// is the position of a number within its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaxtileError {
    #[error("empty input: expected N (1..={MAX_N}) on the first line")]
    Empty,
    #[error("line {line}: expected N (1..={MAX_N}) alone on the line, found `{text}`")]
    NotN { line: usize, text: String },
    #[error("line {line}: N must be 1..={MAX_N}, found {n}")]
    BadN { line: usize, n: u64 },
    #[error("line {line}: expected {expected} numbers, found {found}")]
    Count {
        line: usize,
        expected: usize,
        found: usize,
    },
    #[error("line {line}, column {column}: `{text}` is not a number")]
    NotANumber {
        line: usize,
        column: usize,
        text: String,
    },
    #[error("line {line}, column {column}: {value} is not 0 or a power of two from 2 to {MAX_INPUT_TILE}")]
    Value {
        line: usize,
        column: usize,
        value: u64,
    },
    #[error("line {line}: expected row {row} of {n}, found the end of the input")]
    MissingRow { line: usize, row: usize, n: usize },
    #[error("line {line}: unexpected text after the board")]
    Trailing { line: usize },
    #[error("the board has no tile: at least one cell must hold 2 to {MAX_INPUT_TILE}")]
    NoTile,
}

/// Reads the problem's input: N, then N lines of N numbers. Blank lines are
/// skipped (they still count in line numbers).
pub fn parse_input(text: &str) -> Result<Grid, MaxtileError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (line, first) = lines.next().ok_or(MaxtileError::Empty)?;
    let n = match first.parse::<u64>() {
        Ok(n) if (1..=MAX_N as u64).contains(&n) => n as usize,
        Ok(n) => return Err(MaxtileError::BadN { line, n }),
        Err(_) => {
            return Err(MaxtileError::NotN {
                line,
                text: first.to_string(),
            })
        }
    };
    let mut cells = Vec::with_capacity(n * n);
    let mut last_line = line;
    for row in 1..=n {
        let Some((line, words)) = lines.next() else {
            return Err(MaxtileError::MissingRow {
                line: last_line + 1,
                row,
                n,
            });
        };
        last_line = line;
        let words: Vec<&str> = words.split_whitespace().collect();
        if words.len() != n {
            return Err(MaxtileError::Count {
                line,
                expected: n,
                found: words.len(),
            });
        }
        for (i, word) in words.iter().enumerate() {
            let column = i + 1;
            let value = word.parse::<u64>().map_err(|_| MaxtileError::NotANumber {
                line,
                column,
                text: word.to_string(),
            })?;
            let ok =
                value == 0 || (value.is_power_of_two() && (2..=MAX_INPUT_TILE).contains(&value));
            if !ok {
                return Err(MaxtileError::Value {
                    line,
                    column,
                    value,
                });
            }
            cells.push(value);
        }
    }
    if let Some((line, _)) = lines.next() {
        return Err(MaxtileError::Trailing { line });
    }
    if cells.iter().all(|&v| v == 0) {
        return Err(MaxtileError::NoTile);
    }
    Ok(Grid::new(n, cells).expect("cells were checked above"))
}

/// The largest tile `grid` can hold after at most `moves` moves.
pub fn max_tile(grid: &Grid, moves: u32) -> u64 {
    let sum: u64 = grid.cells().iter().sum();
    let mut search = Search {
        best: grid.max_tile(),
        // The largest power of two not above the sum (0 on an empty board).
        ceiling: if sum == 0 { 0 } else { 1 << sum.ilog2() },
        seen: HashMap::new(),
    };
    search.visit(grid, moves);
    search.best
}

struct Search {
    best: u64,
    ceiling: u64,
    /// Boards already searched, with the moves that were left then.
    seen: HashMap<Grid, u32>,
}

impl Search {
    fn visit(&mut self, grid: &Grid, left: u32) {
        let top = grid.max_tile();
        self.best = self.best.max(top);
        if left == 0 || self.best >= self.ceiling {
            return;
        }
        // Even doubling the largest tile on every move left cannot beat the best.
        if top.saturating_mul(1u64.checked_shl(left).unwrap_or(u64::MAX)) <= self.best {
            return;
        }
        match self.seen.get(grid) {
            Some(&had) if had >= left => return,
            _ => {
                self.seen.insert(grid.clone(), left);
            }
        }
        for dir in Direction::ALL {
            let moved = grid.slide(dir);
            if moved.changed {
                self.visit(&moved.grid, left - 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use rand_xoshiro::rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Every sequence of up to `moves` moves, no pruning at all.
    fn brute_force(grid: &Grid, moves: u32) -> u64 {
        let mut best = grid.max_tile();
        if moves > 0 {
            for dir in Direction::ALL {
                best = best.max(brute_force(&grid.slide(dir).grid, moves - 1));
            }
        }
        best
    }

    #[test]
    fn reference_test_vector() {
        let g = parse_input("3\n2 2 2\n4 4 4\n8 8 8\n").unwrap();
        assert_eq!(max_tile(&g, 5), 16);
        assert_eq!(max_tile(&g, 0), 8);
    }

    #[test]
    fn golden_cases() {
        let mut input = String::new();
        let mut count = 0;
        for line in include_str!("../tests/data/boj12100-cases.txt").lines() {
            if line.starts_with('#') {
                continue;
            }
            if let Some(answer) = line.strip_prefix('=') {
                let answer: u64 = answer.trim().parse().unwrap();
                let grid = parse_input(&input).unwrap();
                assert_eq!(max_tile(&grid, 5), answer, "{grid:?}");
                input.clear();
                count += 1;
            } else {
                input += line;
                input.push('\n');
            }
        }
        assert_eq!(count, 60);
    }

    #[test]
    fn pruned_search_equals_brute_force() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12100);
        for case in 0..300 {
            let n = rng.gen_range(1..=6);
            let top = rng.gen_range(1..=10);
            let cells: Vec<u64> = (0..n * n)
                .map(|_| {
                    if rng.gen_bool(0.4) {
                        0
                    } else {
                        1 << rng.gen_range(1..=top)
                    }
                })
                .collect();
            let g = Grid::new(n, cells).unwrap();
            let moves = rng.gen_range(0..=5);
            assert_eq!(
                max_tile(&g, moves),
                brute_force(&g, moves),
                "case {case}: {g:?}"
            );
        }
    }

    #[test]
    fn errors_name_the_line() {
        let err = |text: &str| parse_input(text).unwrap_err().to_string();
        assert_eq!(
            err(""),
            "empty input: expected N (1..=20) on the first line"
        );
        assert_eq!(
            err("\n  \n"),
            "empty input: expected N (1..=20) on the first line"
        );
        assert_eq!(err("25\n"), "line 1: N must be 1..=20, found 25");
        assert_eq!(err("0\n"), "line 1: N must be 1..=20, found 0");
        assert_eq!(
            err("x\n"),
            "line 1: expected N (1..=20) alone on the line, found `x`"
        );
        assert_eq!(
            err("4\n2 2 2 2\n2 2 2 2\n2 2 2\n2 2 2 2\n"),
            "line 4: expected 4 numbers, found 3"
        );
        assert_eq!(
            err("5\n0 0 0 0 3\n"),
            "line 2, column 5: 3 is not 0 or a power of two from 2 to 1024"
        );
        assert_eq!(
            err("2\n2048 0\n0 0\n"),
            "line 2, column 1: 2048 is not 0 or a power of two from 2 to 1024"
        );
        assert_eq!(
            err("2\n2 -4\n0 0\n"),
            "line 2, column 2: `-4` is not a number"
        );
        assert_eq!(
            err("2\n2 0\n"),
            "line 3: expected row 2 of 2, found the end of the input"
        );
        assert_eq!(
            err("4\n2 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n\n7\n"),
            "line 7: unexpected text after the board"
        );
        assert_eq!(
            err("2\n0 0\n0 0\n"),
            "the board has no tile: at least one cell must hold 2 to 1024"
        );
    }

    #[test]
    fn accepts_windows_line_ends_and_trailing_blank_lines() {
        let g = parse_input("2\r\n2 2\r\n0 0\r\n\r\n").unwrap();
        assert_eq!(max_tile(&g, 5), 4);
    }
}
