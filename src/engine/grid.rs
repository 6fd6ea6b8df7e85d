//! The reference rules: an N×N board (N from 1 to 20) of plain tile values.
//!
//! Written for obviousness, not speed, and independently of the move tables
//! in `tables.rs`: the tests compare the fast 4×4 board with this one on every
//! row and on millions of random boards. Values are the tiles themselves
//! (2, 4, 8, …; 0 = empty), so a 65536 is just a number here.

use std::fmt;

use super::board::{rank_of, Board, Direction};

/// Largest side length of a reference board.
pub const MAX_N: usize = 20;

/// Largest tile value a new board may hold. Merges keep the sum of the tiles,
/// so no tile can ever exceed `400 · 2^32 < 2^41`: no arithmetic overflows.
pub const MAX_VALUE: u64 = 1 << 32;

/// An N×N board of tile values, row-major from the top left.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    n: usize,
    cells: Vec<u64>,
}

/// Why a [`Grid`] could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("the side length must be 1..={MAX_N}, found {0}")]
    Size(usize),
    #[error("expected {expected} cells, found {found}")]
    CellCount { expected: usize, found: usize },
    #[error("row {row}, column {col}: {value} is not 0 or a power of two from 2 to 2^32")]
    Value { row: usize, col: usize, value: u64 },
}

/// The outcome of sliding a [`Grid`], legal or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMove {
    pub grid: Grid,
    /// Sum of the values of the tiles made by merges.
    pub score: u64,
    /// Whether any cell changed; a move that changes nothing is illegal.
    pub changed: bool,
}

/// Whether `v` may stand in a cell: empty, or a power of two from 2 to [`MAX_VALUE`].
pub fn is_tile_value(v: u64) -> bool {
    v == 0 || ((2..=MAX_VALUE).contains(&v) && v.is_power_of_two())
}

impl Grid {
    /// Builds an `n`×`n` board from its cells, row-major.
    pub fn new(n: usize, cells: Vec<u64>) -> Result<Grid, GridError> {
        if n == 0 || n > MAX_N {
            return Err(GridError::Size(n));
        }
        if cells.len() != n * n {
            return Err(GridError::CellCount {
                expected: n * n,
                found: cells.len(),
            });
        }
        for (i, &value) in cells.iter().enumerate() {
            if !is_tile_value(value) {
                return Err(GridError::Value {
                    row: i / n,
                    col: i % n,
                    value,
                });
            }
        }
        Ok(Grid { n, cells })
    }

    /// An empty `n`×`n` board.
    pub fn empty(n: usize) -> Result<Grid, GridError> {
        Grid::new(n, vec![0; n * n])
    }

    /// The side length.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The value at row `r`, column `c` (0 = empty).
    pub fn get(&self, r: usize, c: usize) -> u64 {
        self.cells[r * self.n + c]
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[u64] {
        &self.cells
    }

    /// The largest tile (0 on an empty board).
    pub fn max_tile(&self) -> u64 {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// Row-major indices of the empty cells.
    pub fn empty_cells(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == 0)
            .collect()
    }

    /// The board with `value` put on cell `index` (row-major), which must be empty.
    pub fn with_tile(&self, index: usize, value: u64) -> Grid {
        assert_eq!(self.cells[index], 0, "cell {index} is occupied");
        assert!(is_tile_value(value) && value != 0, "bad tile {value}");
        let mut grid = self.clone();
        grid.cells[index] = value;
        grid
    }

    /// The row-major index of the cell `step` cells away from the side that
    /// `dir` moves toward, on line `line` (a row for LEFT/RIGHT, a column for
    /// UP/DOWN).
    fn index(&self, dir: Direction, line: usize, step: usize) -> usize {
        let n = self.n;
        let (r, c) = match dir {
            Direction::Left => (line, step),
            Direction::Right => (line, n - 1 - step),
            Direction::Up => (step, line),
            Direction::Down => (n - 1 - step, line),
        };
        r * n + c
    }

    /// Slides every tile toward the side of `dir`. Equal neighbours merge once
    /// per move, the pair nearest the side first; each merge scores the new
    /// tile's value.
    pub fn slide(&self, dir: Direction) -> GridMove {
        let n = self.n;
        let mut out = vec![0u64; n * n];
        let mut score = 0;
        for line in 0..n {
            // The tiles of this line, nearest the side first, gaps dropped.
            let tiles: Vec<u64> = (0..n)
                .map(|step| self.cells[self.index(dir, line, step)])
                .filter(|&v| v != 0)
                .collect();
            // Pair them off from the side: equal neighbours merge.
            let mut placed = Vec::with_capacity(n);
            let mut i = 0;
            while i < tiles.len() {
                if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
                    placed.push(2 * tiles[i]);
                    score += 2 * tiles[i];
                    i += 2;
                } else {
                    placed.push(tiles[i]);
                    i += 1;
                }
            }
            for (step, &v) in placed.iter().enumerate() {
                out[self.index(dir, line, step)] = v;
            }
        }
        let changed = out != self.cells;
        GridMove {
            grid: Grid { n, cells: out },
            score,
            changed,
        }
    }

    /// The 4×4 reference board of a fast board.
    pub fn from_board(board: Board) -> Grid {
        let cells = board.values().iter().map(|&v| u64::from(v)).collect();
        Grid { n: 4, cells }
    }

    /// The fast board of a 4×4 grid; `None` for another size or a tile above 32768.
    pub fn to_board(&self) -> Option<Board> {
        if self.n != 4 {
            return None;
        }
        let mut values = [0u32; 16];
        for (slot, &v) in values.iter_mut().zip(&self.cells) {
            let v = u32::try_from(v).ok()?;
            rank_of(v)?;
            *slot = v;
        }
        Board::from_values(values)
    }
}

impl fmt::Display for Grid {
    /// One row a line, values separated by spaces (`0` for empty), as the
    /// BOJ 12100 input writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.n) {
            let words: Vec<String> = row.iter().map(u64::to_string).collect();
            writeln!(f, "{}", words.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Grid({}×{})", self.n, self.n)?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    fn row(values: &[u64]) -> Grid {
        // A 4-wide line as the top row of a 4×4 board.
        let mut cells = values.to_vec();
        cells.resize(16, 0);
        Grid::new(4, cells).unwrap()
    }

    fn top_row(g: &Grid) -> Vec<u64> {
        g.cells()[..4].to_vec()
    }

    #[test]
    fn reference_examples() {
        let m = row(&[2, 2, 2, 0]).slide(Left);
        assert_eq!(
            (top_row(&m.grid), m.score, m.changed),
            (vec![4, 2, 0, 0], 4, true)
        );
        let m = row(&[2, 2, 2, 0]).slide(Right);
        assert_eq!((top_row(&m.grid), m.score), (vec![0, 0, 2, 4], 4));
        let m = row(&[2, 2, 2, 2]).slide(Left);
        assert_eq!((top_row(&m.grid), m.score), (vec![4, 4, 0, 0], 8));
        // A merged tile does not merge again in the same move.
        let m = row(&[4, 2, 2, 0]).slide(Left);
        assert_eq!((top_row(&m.grid), m.score), (vec![4, 4, 0, 0], 4));
        // Gaps close before tiles meet.
        let m = row(&[2, 0, 0, 2]).slide(Right);
        assert_eq!(top_row(&m.grid), vec![0, 0, 0, 4]);
    }

    #[test]
    fn a_move_that_changes_nothing_is_flagged() {
        let m = row(&[2, 4, 0, 0]).slide(Left);
        assert!(!m.changed);
        assert_eq!(m.score, 0);
        assert!(row(&[2, 4, 0, 0]).slide(Up).grid == row(&[2, 4, 0, 0]));
        assert!(row(&[2, 4, 0, 0]).slide(Down).changed);
    }

    #[test]
    fn columns_move_up_and_down() {
        // 3×3: 2 2 2 / 4 4 4 / 8 8 8 from the reference.
        let g = Grid::new(3, vec![2, 2, 2, 4, 4, 4, 8, 8, 8]).unwrap();
        let up = g.slide(Up);
        assert!(!up.changed);
        let left = g.slide(Left);
        assert_eq!(left.grid.cells(), &[4, 2, 0, 8, 4, 0, 16, 8, 0]);
        assert_eq!(left.score, 4 + 8 + 16);
        let g = Grid::new(3, vec![2, 0, 0, 2, 0, 0, 2, 0, 0]).unwrap();
        assert_eq!(g.slide(Down).grid.cells(), &[0, 0, 0, 2, 0, 0, 4, 0, 0]);
        assert_eq!(g.slide(Up).grid.cells(), &[4, 0, 0, 2, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn sizes_and_values_are_checked() {
        assert_eq!(Grid::new(0, vec![]), Err(GridError::Size(0)));
        assert_eq!(Grid::empty(21), Err(GridError::Size(21)));
        assert_eq!(
            Grid::new(2, vec![0; 3]),
            Err(GridError::CellCount {
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            Grid::new(2, vec![0, 0, 3, 0]),
            Err(GridError::Value {
                row: 1,
                col: 0,
                value: 3
            })
        );
        assert!(Grid::new(2, vec![1, 0, 0, 0]).is_err());
        let one = Grid::new(1, vec![2]).unwrap();
        for d in Direction::ALL {
            assert!(!one.slide(d).changed);
        }
        assert_eq!(Grid::empty(20).unwrap().max_tile(), 0);
    }

    #[test]
    fn converts_to_and_from_the_fast_board() {
        let b = Board::from_values([2, 0, 4, 8, 0, 0, 0, 32768, 16, 0, 0, 0, 0, 0, 0, 2]).unwrap();
        let g = Grid::from_board(b);
        assert_eq!(g.get(1, 3), 32768);
        assert_eq!(g.to_board(), Some(b));
        let big = Grid::new(4, {
            let mut c = vec![0; 16];
            c[0] = 65536;
            c
        })
        .unwrap();
        assert_eq!(big.to_board(), None);
        assert_eq!(Grid::empty(3).unwrap().to_board(), None);
    }
}
