//! The rules of the place-a-2 puzzle on an N×N board (N from 2 to 8).
//!
//! A board holds one rank per cell in a byte (0 empty, r = the tile 2^r), so
//! every tile the puzzle can make fits exactly: a game on N×N never passes
//! 2^(N²), rank 64 at most. The 4×4 bitboard of the engine stops at rank 15
//! (32768); this board has no cap, and a merge of two 32768s is a 65536.
//!
//! A turn is a placement of a 2 on an empty cell, then a move that changes
//! the board. The game is over when, after the placement, no move changes the
//! board.

use std::fmt;

use crate::engine::Direction;

/// Smallest side length of a puzzle board.
pub const MIN_SIDE: usize = 2;
/// Largest side length of a puzzle board.
pub const MAX_SIDE: usize = 8;
/// Cells of the largest board.
const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// The value of a tile of rank `rank` (2^rank; 0 for an empty cell).
pub fn value(rank: u8) -> u128 {
    if rank == 0 {
        0
    } else {
        1u128 << rank
    }
}

/// The largest rank any game on an `n`×`n` board can reach: each placement
/// adds 2 to the sum of the tiles, distinct powers of two need a cell each,
/// so the tiles never pass 2^(n²).
pub fn rank_bound(n: usize) -> u8 {
    (n * n) as u8
}

/// An N×N board of ranks, row-major from the top left. Small and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlaceBoard {
    n: u8,
    cells: [u8; MAX_CELLS],
}

/// Why a placement is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("row {row}, column {col} is outside the {n}×{n} board")]
    OutOfRange { row: usize, col: usize, n: usize },
    #[error("row {row}, column {col} is occupied")]
    Occupied { row: usize, col: usize },
}

impl PlaceBoard {
    /// The empty `n`×`n` board; `None` unless `n` is within [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn empty(n: usize) -> Option<PlaceBoard> {
        (MIN_SIDE..=MAX_SIDE).contains(&n).then_some(PlaceBoard {
            n: n as u8,
            cells: [0; MAX_CELLS],
        })
    }

    /// Builds a board from its ranks, row-major; `None` for a bad size or a
    /// rank above the board's bound.
    pub fn from_ranks(n: usize, ranks: &[u8]) -> Option<PlaceBoard> {
        let mut b = PlaceBoard::empty(n)?;
        if ranks.len() != n * n || ranks.iter().any(|&r| r > rank_bound(n)) {
            return None;
        }
        b.cells[..n * n].copy_from_slice(ranks);
        Some(b)
    }

    /// The side length.
    #[inline]
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// The ranks of the `n²` cells, row-major.
    #[inline]
    pub fn ranks(&self) -> &[u8] {
        &self.cells[..self.n() * self.n()]
    }

    /// The rank at row-major cell `i`.
    #[inline]
    pub fn rank(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The largest rank on the board (0 when empty).
    pub fn max_rank(&self) -> u8 {
        self.ranks().iter().copied().max().unwrap_or(0)
    }

    /// The sum of the tiles: twice the number of turns played.
    pub fn sum(&self) -> u128 {
        self.ranks().iter().map(|&r| value(r)).sum()
    }

    /// Number of empty cells.
    pub fn count_empty(&self) -> usize {
        self.ranks().iter().filter(|&&r| r == 0).count()
    }

    /// Puts a 2 on row `row`, column `col` (both from 0).
    pub fn place(&self, row: usize, col: usize) -> Result<PlaceBoard, PlacementError> {
        let n = self.n();
        if row >= n || col >= n {
            return Err(PlacementError::OutOfRange { row, col, n });
        }
        let i = row * n + col;
        if self.cells[i] != 0 {
            return Err(PlacementError::Occupied { row, col });
        }
        let mut b = *self;
        b.cells[i] = 1;
        Ok(b)
    }

    /// Puts a 2 on the empty row-major cell `i` (the caller knows it is empty).
    #[inline]
    pub fn place_at(&self, i: usize) -> PlaceBoard {
        debug_assert_eq!(self.cells[i], 0);
        let mut b = *self;
        b.cells[i] = 1;
        b
    }

    /// Slides every tile toward `dir`; equal neighbours merge once per move,
    /// the pair nearest the side first. Returns the board as it is if
    /// nothing moves.
    pub fn slide(&self, dir: Direction) -> PlaceBoard {
        let n = self.n();
        // Cell `step` of line `line`, counted from the side `dir` moves to.
        let (start, along, across): (isize, isize, isize) = match dir {
            Direction::Left => (0, 1, n as isize),
            Direction::Right => (n as isize - 1, -1, n as isize),
            Direction::Up => (0, n as isize, 1),
            Direction::Down => ((n * (n - 1)) as isize, -(n as isize), 1),
        };
        let mut out = PlaceBoard {
            n: self.n,
            cells: [0; MAX_CELLS],
        };
        for line in 0..n as isize {
            let first = start + line * across;
            let mut put = 0isize; // next free step
            let mut last = 0u8; // rank at step put - 1, if it may still merge
            for step in 0..n as isize {
                let r = self.cells[(first + step * along) as usize];
                if r == 0 {
                    continue;
                }
                if r == last {
                    out.cells[(first + (put - 1) * along) as usize] = r + 1;
                    last = 0;
                } else {
                    out.cells[(first + put * along) as usize] = r;
                    put += 1;
                    last = r;
                }
            }
        }
        out
    }

    /// The board after a move in `dir`; `None` if the move changes nothing.
    #[inline]
    pub fn make_move(&self, dir: Direction) -> Option<PlaceBoard> {
        let b = self.slide(dir);
        (b != *self).then_some(b)
    }

    /// Whether any move changes the board.
    pub fn has_move(&self) -> bool {
        Direction::ALL.iter().any(|&d| self.make_move(d).is_some())
    }

    /// Whether a turn can still be played: some placement leaves a move.
    pub fn can_play(&self) -> bool {
        (0..self.n() * self.n()).any(|i| self.cells[i] == 0 && self.place_at(i).has_move())
    }
}

impl fmt::Debug for PlaceBoard {
    /// One row a line, tile values separated by spaces (`0` for empty).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        for row in self.ranks().chunks(n) {
            let words: Vec<String> = row.iter().map(|&r| value(r).to_string()).collect();
            writeln!(f, "{}", words.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grid::Grid;
    use rand::Rng;
    use rand_xoshiro::rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn to_grid(b: &PlaceBoard) -> Grid {
        let cells = b.ranks().iter().map(|&r| value(r) as u64).collect();
        Grid::new(b.n(), cells).unwrap()
    }

    #[test]
    fn slides_equal_the_reference_rules() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..20_000 {
            let n = rng.gen_range(MIN_SIDE..=MAX_SIDE);
            let top = rng.gen_range(1..=6.min(n * n) as u8);
            let ranks: Vec<u8> = (0..n * n)
                .map(|_| {
                    if rng.gen_bool(0.4) {
                        0
                    } else {
                        rng.gen_range(1..=top)
                    }
                })
                .collect();
            let b = PlaceBoard::from_ranks(n, &ranks).unwrap();
            for dir in Direction::ALL {
                let want = to_grid(&b).slide(dir);
                assert_eq!(to_grid(&b.slide(dir)), want.grid, "{b:?} {dir}");
                assert_eq!(b.make_move(dir).is_some(), want.changed);
            }
        }
    }

    #[test]
    fn two_32768s_make_an_exact_65536() {
        let mut ranks = [0u8; 16];
        ranks[0] = 15;
        ranks[1] = 15;
        let b = PlaceBoard::from_ranks(4, &ranks).unwrap();
        let m = b.make_move(Direction::Left).unwrap();
        assert_eq!(m.max_rank(), 16);
        assert_eq!(value(m.max_rank()), 65536);
        assert_eq!(m.sum(), 65536);
    }

    #[test]
    fn placements_are_checked() {
        let b = PlaceBoard::empty(3).unwrap().place(1, 2).unwrap();
        assert_eq!(b.ranks(), &[0, 0, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(
            b.place(1, 2),
            Err(PlacementError::Occupied { row: 1, col: 2 })
        );
        assert_eq!(
            b.place(3, 0),
            Err(PlacementError::OutOfRange {
                row: 3,
                col: 0,
                n: 3
            })
        );
        assert!(PlaceBoard::empty(1).is_none());
        assert!(PlaceBoard::empty(9).is_none());
        assert!(PlaceBoard::from_ranks(2, &[5, 0, 0, 0]).is_none());
    }

    #[test]
    fn a_full_board_without_pairs_cannot_play() {
        let b = PlaceBoard::from_ranks(2, &[1, 2, 3, 0]).unwrap();
        // The last cell takes a 2 beside the 8 and under the 4: no move.
        assert!(!b.place(1, 1).unwrap().has_move());
        assert!(!b.can_play());
        let b = PlaceBoard::from_ranks(2, &[1, 2, 0, 0]).unwrap();
        assert!(b.can_play());
    }
}
