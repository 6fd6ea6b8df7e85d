//! The 4×4 bitboard: 16 cells of 4 bits (ranks), cell `i = 4·row + col` at
//! bits `4·i`, so row r is the 16-bit line at bit `16·r`, cell 0 of each line
//! the leftmost.

use std::fmt;

use super::tables::{
    columns_down, columns_up, rows_left, rows_right, unpack_line, LineSum, MoveTables, LINES,
    MAX_RANK, TABLES,
};

/// A direction of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    Up = 0,
    Down = 1,
    Left = 2,
    Right = 3,
}

impl Direction {
    /// All four, in the order searches try them.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The protocol word (`UP`, `DOWN`, `LEFT`, `RIGHT`).
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "UP",
            Direction::Down => "DOWN",
            Direction::Left => "LEFT",
            Direction::Right => "RIGHT",
        }
    }

    /// Parses a protocol word or its initial (`U`, `D`, `L`, `R`), any case.
    pub fn parse(word: &str) -> Option<Direction> {
        match word.to_ascii_uppercase().as_str() {
            "UP" | "U" => Some(Direction::Up),
            "DOWN" | "D" => Some(Direction::Down),
            "LEFT" | "L" => Some(Direction::Left),
            "RIGHT" | "R" => Some(Direction::Right),
            _ => None,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    pub board: Board,
    /// Points earned by the merges of this move.
    pub score: u32,
    /// The move merged two 32768 tiles into a 65536 this board cannot hold;
    /// `board` then shows a 32768 where the 65536 belongs.
    pub overflow: bool,
}

/// The low bit of every cell's nibble.
const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111_1111;

/// A 4×4 board of tile ranks (0 empty, 1 = 2, …, 15 = 32768). Small and `Copy`.
#[derive(
    Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Board(pub u64);

impl Board {
    pub const EMPTY: Board = Board(0);

    /// Builds a board from 16 ranks, row-major from the top left.
    pub fn from_ranks(ranks: [u8; 16]) -> Board {
        let mut b = 0u64;
        for (i, &r) in ranks.iter().enumerate() {
            debug_assert!(r <= MAX_RANK);
            b |= (r as u64 & 0xF) << (4 * i);
        }
        Board(b)
    }

    /// Builds a board from 16 tile values (0 = empty), row-major. `None` if a
    /// value is not 0 or a power of two from 2 to 32768.
    pub fn from_values(values: [u32; 16]) -> Option<Board> {
        let mut ranks = [0u8; 16];
        for (r, &v) in ranks.iter_mut().zip(&values) {
            *r = rank_of(v)?;
        }
        Some(Board::from_ranks(ranks))
    }

    /// The 16 ranks, row-major.
    pub fn ranks(self) -> [u8; 16] {
        std::array::from_fn(|i| self.rank(i))
    }

    /// The 16 tile values (0 = empty), row-major.
    pub fn values(self) -> [u32; 16] {
        std::array::from_fn(|i| value_of(self.rank(i)))
    }

    /// The rank at cell `i` (row-major).
    #[inline]
    pub fn rank(self, i: usize) -> u8 {
        ((self.0 >> (4 * i)) & 0xF) as u8
    }

    /// Row `r` as a 16-bit line.
    #[inline]
    pub fn row(self, r: usize) -> u16 {
        (self.0 >> (16 * r)) as u16
    }

    /// The four rows as lines.
    #[inline(always)]
    pub fn rows(self) -> [u16; 4] {
        std::array::from_fn(|r| self.row(r))
    }

    /// The four columns as lines, top cell first: the rows of the transpose.
    /// Column k's cells lie at bits 4·k + 16·r; masked out, one
    /// multiplication gathers them into the top 16 bits (the other partial
    /// products land in distinct nibbles below bit 48, so nothing carries).
    #[inline(always)]
    pub fn columns(self) -> [u16; 4] {
        const CELLS: u64 = 0x000F_000F_000F_000F;
        const GATHER: u64 = 1 << 12 | 1 << 24 | 1 << 36 | 1 << 48;
        std::array::from_fn(|k| ((self.0 >> (4 * k) & CELLS).wrapping_mul(GATHER) >> 48) as u16)
    }

    /// The board mirrored in its main diagonal: columns become rows.
    #[inline]
    pub fn transpose(self) -> Board {
        let x = self.0;
        let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
        let a2 = x & 0x0000_F0F0_0000_F0F0;
        let a3 = x & 0x0F0F_0000_0F0F_0000;
        let a = a1 | (a2 << 12) | (a3 >> 12);
        let b1 = a & 0xFF00_FF00_00FF_00FF;
        let b2 = a & 0x00FF_00FF_0000_0000;
        let b3 = a & 0x0000_0000_FF00_FF00;
        Board(b1 | (b2 >> 24) | (b3 << 24))
    }

    /// The board after sliding in `dir`, without checking legality. Two
    /// merging 32768s leave a 32768 (see [`Moved::overflow`]).
    #[inline(always)]
    pub fn shift(self, dir: Direction) -> Board {
        self.shift_with(&TABLES, dir)
    }

    /// Each direction is its own always-inlined function, so a call with a
    /// known direction compiles to the four lookups and nothing else.
    #[inline(always)]
    fn shift_with(self, t: &MoveTables, dir: Direction) -> Board {
        match dir {
            Direction::Left => self.shift_rows(&t.left),
            Direction::Right => self.shift_rows(&t.right),
            Direction::Up => Board(columns_up(entries(self.columns(), &t.columns))),
            Direction::Down => Board(columns_down(entries(self.columns(), &t.columns))),
        }
    }

    /// The four moves of a board given with its transpose `t`, each child as
    /// (board, transpose), in [`Direction::ALL`] order, so that a search
    /// carrying both forms transposes each child once and its heuristic
    /// needs no transpose. A row move moves the board's rows, a column move
    /// the transpose's rows; only the two 128 KiB row tables are read.
    #[inline(always)]
    pub fn shifts_pair(self, t: Board, tables: &MoveTables) -> [(Board, Board); 4] {
        let up = t.shift_rows(&tables.left);
        let down = t.shift_rows(&tables.right);
        let left = self.shift_rows(&tables.left);
        let right = self.shift_rows(&tables.right);
        [
            (up.transpose(), up),
            (down.transpose(), down),
            (left, left.transpose()),
            (right, right.transpose()),
        ]
    }

    #[inline(always)]
    fn shift_rows(self, table: &[u16; LINES]) -> Board {
        let b = self.0;
        let r0 = table[b as u16 as usize] as u64;
        let r1 = table[(b >> 16) as u16 as usize] as u64;
        let r2 = table[(b >> 32) as u16 as usize] as u64;
        let r3 = table[(b >> 48) as u16 as usize] as u64;
        Board(r0 | r1 << 16 | r2 << 32 | r3 << 48)
    }

    /// The moves that change the board and stay within the tile cap (a
    /// move making a 65536 the board cannot hold is left out).
    pub fn capped_moves(self) -> impl Iterator<Item = Moved> {
        self.moves().into_iter().flatten().filter(|m| !m.overflow)
    }

    /// All four moves in [`Direction::ALL`] order, as [`Board::make_move`]
    /// plays them, for less than four calls cost: four lookups serve both
    /// row moves, four both column moves, and four more the columns'
    /// legality and points.
    #[inline(always)]
    pub fn moves(self) -> [Option<Moved>; 4] {
        let t = &TABLES;
        let columns = self.columns();
        let r = entries(self.rows(), &t.rows);
        let c = entries(columns, &t.columns);
        let row_sum = LineSum::of(r);
        let column_sum = LineSum::of(entries(columns, &t.rows));
        [
            moved(column_sum.moves_toward_start(), columns_up(c), column_sum),
            moved(column_sum.moves_toward_end(), columns_down(c), column_sum),
            moved(row_sum.moves_toward_start(), rows_left(r), row_sum),
            moved(row_sum.moves_toward_end(), rows_right(r), row_sum),
        ]
    }

    /// Plays a move: `None` if it changes nothing (an illegal move).
    ///
    /// A row move is four lookups in the row table, whose entries hold both
    /// row moves of a line, whether each changes it, its points and whether
    /// it merges two 32768s; the four entries' sum gives the legality, the
    /// score and the 65536 check. A column move gathers the columns with
    /// four multiplications (no transpose), looks them up in the column
    /// table, and reads the rest from the row table: a column moves UP as a
    /// row moves LEFT. Only legality branches, and only a legal move's
    /// board is assembled.
    #[inline(always)]
    pub fn make_move(self, dir: Direction) -> Option<Moved> {
        let t = &TABLES;
        match dir {
            Direction::Left | Direction::Right => {
                let e = entries(self.rows(), &t.rows);
                let sum = LineSum::of(e);
                match dir {
                    Direction::Left => moved(sum.moves_toward_start(), rows_left(e), sum),
                    _ => moved(sum.moves_toward_end(), rows_right(e), sum),
                }
            }
            Direction::Up | Direction::Down => {
                let columns = self.columns();
                let e = entries(columns, &t.columns);
                let sum = LineSum::of(entries(columns, &t.rows));
                match dir {
                    Direction::Up => moved(sum.moves_toward_start(), columns_up(e), sum),
                    _ => moved(sum.moves_toward_end(), columns_down(e), sum),
                }
            }
        }
    }

    /// Whether `dir` is a legal move.
    #[inline]
    pub fn can_move(self, dir: Direction) -> bool {
        self.shift(dir) != self
    }

    /// Whether any move is legal.
    #[inline]
    pub fn has_move(self) -> bool {
        // A board with tiles and an empty cell has a tile beside an empty
        // cell, which can slide into it: the four moves need trying only on
        // a full (or an empty) board.
        let empty = self.count_empty();
        if empty > 0 && empty < 16 {
            return true;
        }
        Direction::ALL.iter().any(|&d| self.can_move(d))
    }

    /// The legal moves.
    pub fn legal_moves(self) -> impl Iterator<Item = Direction> {
        Direction::ALL
            .into_iter()
            .filter(move |&d| self.can_move(d))
    }

    /// Number of empty cells.
    #[inline]
    pub fn count_empty(self) -> u32 {
        self.empty_bits().count_ones()
    }

    /// One bit per empty cell: the low bit of its nibble.
    #[inline]
    pub fn empty_bits(self) -> u64 {
        // Fold each nibble onto its low bit: set iff the cell holds a tile.
        let mut x = self.0;
        x |= x >> 2;
        x |= x >> 1;
        !x & NIBBLE_LOW_BITS
    }

    /// Bit mask of the empty cells (bit i for cell i).
    #[inline]
    pub fn empty_mask(self) -> u16 {
        // The empty cells' nibble bits, packed.
        let empty = self.empty_bits();
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            // SAFETY: the target has BMI2 (checked at compile time).
            unsafe { core::arch::x86_64::_pext_u64(empty, NIBBLE_LOW_BITS) as u16 }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            (0..16).fold(0u16, |m, i| m | (((empty >> (4 * i)) & 1) as u16) << i)
        }
    }

    /// The largest rank on the board.
    #[inline]
    pub fn max_rank(self) -> u8 {
        (0..16).map(|i| self.rank(i)).max().unwrap_or(0)
    }

    /// The ranks of its largest tile and of the largest in another cell
    /// (equal when two cells hold the largest; 0 for a board of one tile).
    #[inline]
    pub fn top_two_ranks(self) -> (u8, u8) {
        let (mut top, mut second) = (0, 0);
        for i in 0..16 {
            let r = self.rank(i);
            if r > top {
                second = top;
                top = r;
            } else if r > second {
                second = r;
            }
        }
        (top, second)
    }

    /// The ranks of its three largest tiles, each in a cell of its own,
    /// the largest first (0 where the board has fewer tiles).
    #[inline]
    pub fn top_three_ranks(self) -> (u8, u8, u8) {
        let (mut top, mut second, mut third) = (0, 0, 0);
        for i in 0..16 {
            let r = self.rank(i);
            if r > top {
                (top, second, third) = (r, top, second);
            } else if r > second {
                (second, third) = (r, second);
            } else if r > third {
                third = r;
            }
        }
        (top, second, third)
    }

    /// Number of distinct non-empty ranks (the reference depth rule uses it).
    #[inline]
    pub fn distinct_ranks(self) -> u32 {
        let mut seen = 0u16;
        let mut x = self.0;
        while x != 0 {
            seen |= 1 << (x & 0xF);
            x >>= 4;
        }
        (seen >> 1).count_ones()
    }

    /// Puts a tile of `rank` on the empty cell `cell`.
    pub fn place(self, cell: usize, rank: u8) -> Result<Board, PlaceError> {
        if cell >= 16 {
            return Err(PlaceError::OutOfRange(cell));
        }
        if self.rank(cell) != 0 {
            return Err(PlaceError::Occupied(cell));
        }
        Ok(Board(self.0 | (rank as u64) << (4 * cell)))
    }

    /// The board mirrored left to right.
    pub fn mirror(self) -> Board {
        let rows: [u16; 4] = std::array::from_fn(|r| super::tables::reverse_line(self.row(r)));
        Board(
            rows.iter()
                .enumerate()
                .fold(0, |b, (r, &l)| b | (l as u64) << (16 * r)),
        )
    }

    /// The board mirrored top to bottom.
    pub fn flip(self) -> Board {
        let b = self.0;
        Board(
            (b << 48)
                | ((b << 16) & 0x0000_FFFF_0000_0000)
                | ((b >> 16) & 0x0000_0000_FFFF_0000)
                | (b >> 48),
        )
    }

    /// The 8 symmetries of the square (identity first).
    pub fn symmetries(self) -> [Board; 8] {
        let t = self.transpose();
        [
            self,
            self.mirror(),
            self.flip(),
            self.mirror().flip(),
            t,
            t.mirror(),
            t.flip(),
            t.mirror().flip(),
        ]
    }
}

/// Why a tile could not be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error("cell {0} is outside the board (cells are 0..16)")]
    OutOfRange(usize),
    #[error("cell {0} is occupied")]
    Occupied(usize),
}

/// The move to `board`, if it is `legal`, with the points and the
/// overflow flag of the lines that moved.
#[inline(always)]
fn moved(legal: bool, board: u64, lines: LineSum) -> Option<Moved> {
    legal.then(|| Moved {
        board: Board(board),
        score: lines.points(),
        overflow: lines.overflows(),
    })
}

/// The entries of `table` for four lines.
#[inline(always)]
fn entries(lines: [u16; 4], table: &[u64; LINES]) -> [u64; 4] {
    lines.map(|l| table[l as usize])
}

/// The value of a tile of `rank` (0 for an empty cell).
#[inline]
pub fn value_of(rank: u8) -> u32 {
    if rank == 0 {
        0
    } else {
        1 << rank
    }
}

/// The rank of a tile value (0 for empty); `None` for a value that is not
/// 0 or a power of two from 2 to 32768.
pub fn rank_of(value: u32) -> Option<u8> {
    match value {
        0 => Some(0),
        v if v.is_power_of_two() && (2..=32768).contains(&v) => Some(v.trailing_zeros() as u8),
        _ => None,
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board({:#018x})", self.0)?;
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Board {
    /// Draws the grid, one row a line, `.` for an empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..4 {
            let cells = unpack_line(self.row(r));
            for (c, &rank) in cells.iter().enumerate() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                if rank == 0 {
                    write!(f, "{:>5}", ".")?;
                } else {
                    write!(f, "{:>5}", value_of(rank))?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(values: [u32; 16]) -> Board {
        Board::from_values(values).unwrap()
    }

    /// `count` boards of random bits (any rank in any cell), from `seed`.
    fn random_boards(seed: u64, count: usize) -> impl Iterator<Item = Board> {
        std::iter::successors(Some(crate::seeds::mix64(seed)), |&x| {
            Some(crate::seeds::mix64(x))
        })
        .take(count)
        .map(Board)
    }

    #[test]
    fn columns_are_the_rows_of_the_transpose() {
        for b in random_boards(0x0123_4567_89AB_CDEF, 10_000) {
            assert_eq!(b.columns(), b.transpose().rows(), "{b:?}");
        }
        assert_eq!(Board(u64::MAX).columns(), [0xFFFF; 4]);
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let b = Board::from_ranks(std::array::from_fn(|i| i as u8));
        let t = b.transpose();
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!(t.rank(4 * r + c), b.rank(4 * c + r));
            }
        }
        assert_eq!(t.transpose(), b);
    }

    #[test]
    fn all_four_moves_at_once_equal_four_single_moves() {
        for (k, b) in random_boards(0x0F1E_2D3C_4B5A_6978, 20_000).enumerate() {
            // Every other board has only 32768s and gaps, to reach overflows.
            let b = if k % 2 == 0 {
                b
            } else {
                Board(b.0 & 0xFF0F_F0FF_0FF0_F00F)
            };
            let all = b.moves();
            for (k, dir) in Direction::ALL.into_iter().enumerate() {
                assert_eq!(all[k], b.make_move(dir), "{b:?} {dir}");
            }
        }
    }

    #[test]
    fn paired_shifts_carry_the_transpose() {
        for b in random_boards(0x0123_4567_89AB_CDEF, 1000) {
            let pairs = b.shifts_pair(b.transpose(), &TABLES);
            for (k, dir) in Direction::ALL.into_iter().enumerate() {
                assert_eq!(pairs[k].0, b.shift(dir), "{b:?} {dir}");
                assert_eq!(pairs[k].1, b.shift(dir).transpose(), "{b:?} {dir}");
            }
        }
    }

    #[test]
    fn moves_in_all_directions() {
        let b = board([2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
        let up = b.make_move(Direction::Up).unwrap();
        assert_eq!(
            up.board,
            board([4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        );
        assert_eq!(up.score, 4);
        let right = b.make_move(Direction::Right).unwrap();
        assert_eq!(
            right.board,
            board([0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])
        );
        let down = b.make_move(Direction::Down).unwrap();
        assert_eq!(
            down.board,
            board([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2, 0, 0])
        );
        assert!(b.make_move(Direction::Left).is_some());
        let stuck = board([2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(stuck.make_move(Direction::Left), None);
        assert_eq!(stuck.make_move(Direction::Up), None);
    }

    #[test]
    fn empty_cells_and_legality_agree_with_the_cells_and_the_four_moves() {
        // By a fixed LCG: boards of a few ranks with empty cells, and full
        // boards of up to 10 ranks, some of them without a move.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut stuck = 0;
        for n in 0..20_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (low, high) = if n % 2 == 0 { (0, 3) } else { (1, 10) };
            let b = Board((0..16u32).fold(0, |b, i| {
                let r = low + (x.rotate_left(4 * i) >> 56) % (high - low + 1);
                b | r << (4 * i)
            }));
            let mask = (0..16usize).fold(0u16, |m, i| m | u16::from(b.rank(i) == 0) << i);
            assert_eq!(b.empty_mask(), mask, "{b:?}");
            let legal = Direction::ALL.iter().any(|&d| b.make_move(d).is_some());
            assert_eq!(b.has_move(), legal, "{b:?}");
            stuck += u32::from(!legal);
        }
        assert!(stuck > 10, "{stuck} boards without a move");
        assert!(!Board::EMPTY.has_move());
        assert_eq!(Board::EMPTY.empty_mask(), u16::MAX);
    }

    #[test]
    fn counts_and_symmetries() {
        let b = board([2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1024]);
        assert_eq!(b.count_empty(), 12);
        assert_eq!(b.empty_mask().count_ones(), 12);
        assert_eq!(b.max_rank(), 10);
        assert_eq!(b.top_two_ranks(), (10, 2));
        assert_eq!(b.top_three_ranks(), (10, 2, 1));
        let one = board([0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(one.top_three_ranks(), (3, 0, 0));
        let pairs = board([4, 16, 0, 0, 16, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 4]);
        assert_eq!(pairs.top_three_ranks(), (4, 4, 3));
        assert_eq!(b.distinct_ranks(), 3);
        let syms = b.symmetries();
        for s in syms {
            assert_eq!(s.count_empty(), 12);
            assert_eq!(s.max_rank(), 10);
        }
        let distinct: std::collections::HashSet<_> = syms.iter().collect();
        assert_eq!(distinct.len(), 8);
    }

    #[test]
    fn overflow_is_reported_not_hidden() {
        let b = board([32768, 32768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let m = b.make_move(Direction::Left).unwrap();
        assert!(m.overflow);
        assert_eq!(m.score, 65536);
        let m = b.make_move(Direction::Down).unwrap();
        assert!(!m.overflow);
    }

    #[test]
    fn place_checks_the_cell() {
        let b = Board::EMPTY.place(5, 1).unwrap();
        assert_eq!(b.rank(5), 1);
        assert_eq!(b.place(5, 1), Err(PlaceError::Occupied(5)));
        assert_eq!(b.place(16, 1), Err(PlaceError::OutOfRange(16)));
    }
}
