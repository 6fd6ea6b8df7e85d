//! Move tables for the 4×4 bitboard, built at compile time.
//!
//! A line (a row, or a column after a transpose) is 16 bits: four 4-bit
//! ranks, cell 0 in the low nibble. Moving "toward cell 0" is LEFT for rows
//! and UP for columns. Every table is derived from [`slide_line`], the one
//! place where the merge rule is written for the fast board; the N×N
//! reference in `grid.rs` is written independently and the tests compare them.

/// Largest rank a 4-bit cell holds (32768).
pub const MAX_RANK: u8 = 15;

/// Number of distinct 16-bit lines.
pub const LINES: usize = 1 << 16;

/// All per-line move data.
pub struct MoveTables {
    /// Row after moving toward cell 0 (LEFT). Every table has exactly one
    /// entry per line, so indexing by a `u16` needs no bounds check.
    pub left: [u16; LINES],
    /// Row after moving toward cell 3 (RIGHT).
    pub right: [u16; LINES],
    /// Both row moves of a line, the points they earn and whether they merge
    /// two 32768s, in one word (see `row_entry`): one lookup per row serves
    /// LEFT, RIGHT, the score and the 65536 check.
    pub rows: [u64; LINES],
    /// Both column moves of a line, spread into board columns (see
    /// `column_entry`): one lookup per column serves UP and DOWN.
    pub columns: [u64; LINES],
}

/// The move tables, a constant of the program: built by the compiler, so
/// no lookup pays for a lazy-initialisation check.
pub static TABLES: MoveTables = MoveTables::build();

/// Unpacks a line into its four ranks, cell 0 first.
#[inline]
pub const fn unpack_line(line: u16) -> [u8; 4] {
    [
        (line & 0xF) as u8,
        ((line >> 4) & 0xF) as u8,
        ((line >> 8) & 0xF) as u8,
        ((line >> 12) & 0xF) as u8,
    ]
}

/// Packs four ranks (cell 0 first) into a line.
#[inline]
pub const fn pack_line(cells: [u8; 4]) -> u16 {
    (cells[0] as u16) | (cells[1] as u16) << 4 | (cells[2] as u16) << 8 | (cells[3] as u16) << 12
}

/// Reverses the order of the four cells of a line.
#[inline]
pub const fn reverse_line(line: u16) -> u16 {
    (line >> 12) | ((line >> 4) & 0x00F0) | ((line << 4) & 0x0F00) | (line << 12)
}

/// Spreads a line into a board column: cell k goes to bits 16·k.
#[inline]
pub const fn spread_column(line: u16) -> u64 {
    let l = line as u64;
    (l & 0xF) | ((l >> 4) & 0xF) << 16 | ((l >> 8) & 0xF) << 32 | ((l >> 12) & 0xF) << 48
}

/// The result of sliding one line toward cell 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// Ranks after the move; a merge of two 32768s saturates at rank 15.
    pub cells: [u8; 4],
    /// Points earned: the value of every merged tile (65536 for 32768+32768).
    pub score: u32,
    /// Whether two 32768 tiles merged (a 65536 this board cannot hold).
    pub overflow: bool,
}

/// Slides one line toward cell 0 with the game's merge rule: tiles move as
/// far as they go, equal neighbours merge once, the pair nearest cell 0 first.
pub const fn slide_line(cells: [u8; 4]) -> Slide {
    let mut out = [0u8; 4];
    let mut len = 0;
    let mut score = 0u32;
    let mut overflow = false;
    // Whether out[len - 1] may still absorb an equal tile (it is no merge product).
    let mut open = false;
    let mut i = 0;
    while i < 4 {
        let r = cells[i];
        if r != 0 {
            if open && out[len - 1] == r {
                let merged = r + 1;
                score += 1u32 << merged;
                if merged > MAX_RANK {
                    overflow = true;
                } else {
                    out[len - 1] = merged;
                }
                open = false;
            } else {
                out[len] = r;
                len += 1;
                open = true;
            }
        }
        i += 1;
    }
    Slide {
        cells: out,
        score,
        overflow,
    }
}

/// The fields of a [`MoveTables::rows`] entry between LEFT (bits 0–15)
/// and RIGHT (bits 48–63). Each flag field and the points field has room
/// for the sum of four entries: four LEFT lines sum to less than 2^18 (two
/// bits carry into 16–17), four flags to at most 4 (three bits), four
/// quarters of points to at most 2^17 (18 bits, ending at bit 44). So
/// four entries added whole keep every sum in its own field.
const LEFT_MOVES_SHIFT: u32 = 18;
const RIGHT_MOVES_SHIFT: u32 = 21;
const OVERFLOW_SHIFT: u32 = 24;
const POINTS_SHIFT: u32 = 27;

/// A [`MoveTables::rows`] entry: LEFT in bits 0–15; whether LEFT changes
/// the line (bit 18), whether RIGHT does (bit 21), whether the move merges
/// two 32768s (bit 24); a quarter of the points from bit 27 (every merge
/// earns a multiple of 4 and a line at most 131,072, so a quarter fits 16
/// bits); RIGHT in bits 48–63. A line earns the same points and overflows
/// alike in both directions: merges happen within runs of equal ranks,
/// whichever end they start at.
const fn row_entry(line: u16, left: u16, right: u16, slide: &Slide) -> u64 {
    let points = slide.score;
    debug_assert!(points.is_multiple_of(4) && points / 4 <= u16::MAX as u32);
    left as u64
        | ((left != line) as u64) << LEFT_MOVES_SHIFT
        | ((right != line) as u64) << RIGHT_MOVES_SHIFT
        | (slide.overflow as u64) << OVERFLOW_SHIFT
        | ((points / 4) as u64) << POINTS_SHIFT
        | (right as u64) << 48
}

/// The board whose rows are the LEFT moves of four row entries.
#[inline(always)]
pub const fn rows_left(e: [u64; 4]) -> u64 {
    e[0] as u16 as u64 | (e[1] as u16 as u64) << 16 | (e[2] as u16 as u64) << 32 | e[3] << 48
}

/// The board whose rows are the RIGHT moves of four row entries.
#[inline(always)]
pub const fn rows_right(e: [u64; 4]) -> u64 {
    e[0] >> 48 | e[1] >> 48 << 16 | e[2] >> 48 << 32 | e[3] & 0xFFFF << 48
}

/// Four row entries added whole, for three additions: the points of four
/// lines, whether a move toward either end changes one of them, and
/// whether one of them merges two 32768s.
#[derive(Clone, Copy, Debug)]
pub struct LineSum(u64);

impl LineSum {
    /// Adds four row entries (the rows of a board, or its columns as lines).
    #[inline(always)]
    pub const fn of(e: [u64; 4]) -> LineSum {
        LineSum(
            e[0].wrapping_add(e[1])
                .wrapping_add(e[2])
                .wrapping_add(e[3]),
        )
    }

    /// The points the four lines earn.
    #[inline(always)]
    pub const fn points(self) -> u32 {
        4 * (self.0 >> POINTS_SHIFT & ((1 << 18) - 1)) as u32
    }

    /// Whether sliding toward cell 0 (LEFT for rows, UP for columns)
    /// changes one of the lines: whether the move is legal.
    #[inline(always)]
    pub const fn moves_toward_start(self) -> bool {
        self.0 >> LEFT_MOVES_SHIFT & 0b111 != 0
    }

    /// Whether sliding toward cell 3 (RIGHT for rows, DOWN for columns)
    /// changes one of the lines.
    #[inline(always)]
    pub const fn moves_toward_end(self) -> bool {
        self.0 >> RIGHT_MOVES_SHIFT & 0b111 != 0
    }

    /// Whether one of the lines merges two 32768 tiles.
    #[inline(always)]
    pub const fn overflows(self) -> bool {
        self.0 >> OVERFLOW_SHIFT & 0b111 != 0
    }
}

/// The low byte of every 16-bit group.
const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;

/// A [`MoveTables::columns`] entry: the UP line spread into a board column
/// (cell k at bit 16·k) and the DOWN line spread 8 bits higher. Entry k
/// shifted by 4·k puts column k's cells in place, and two columns' entries
/// can share a word, since UP's nibbles and DOWN's are a byte apart.
const fn column_entry(up: u16, down: u16) -> u64 {
    spread_column(up) | spread_column(down) << 8
}

/// Columns 0 and 1 of a board in the low byte of each group (UP's), the
/// same of DOWN's in the high byte; columns 2 and 3 likewise.
#[inline(always)]
const fn column_pairs(e: [u64; 4]) -> (u64, u64) {
    (e[0] | e[1] << 4, e[2] | e[3] << 4)
}

/// The board whose columns are the UP moves of four column entries.
#[inline(always)]
pub const fn columns_up(e: [u64; 4]) -> u64 {
    let (a, b) = column_pairs(e);
    a & LOW_BYTES | b << 8 & !LOW_BYTES
}

/// The board whose columns are the DOWN moves of four column entries.
#[inline(always)]
pub const fn columns_down(e: [u64; 4]) -> u64 {
    let (a, b) = column_pairs(e);
    a >> 8 & LOW_BYTES | b & !LOW_BYTES
}

impl MoveTables {
    const fn build() -> Self {
        let mut t = MoveTables {
            left: [0; LINES],
            right: [0; LINES],
            rows: [0; LINES],
            columns: [0; LINES],
        };
        let mut i = 0;
        while i < LINES {
            let line = i as u16;
            let slide = slide_line(unpack_line(line));
            let left = pack_line(slide.cells);
            let right = reverse_line(pack_line(slide_line(unpack_line(reverse_line(line))).cells));
            t.left[i] = left;
            t.right[i] = right;
            t.rows[i] = row_entry(line, left, right, &slide);
            t.columns[i] = column_entry(left, right);
            i += 1;
        }
        t
    }

    /// Whether moving this line would merge two 32768 tiles.
    #[inline]
    pub fn overflows(&self, line: u16) -> bool {
        self.rows[line as usize] >> OVERFLOW_SHIFT & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slide(cells: [u8; 4]) -> ([u8; 4], u32) {
        let s = slide_line(cells);
        (s.cells, s.score)
    }

    #[test]
    fn merge_rules_from_the_reference() {
        // 2 2 2 0 LEFT -> 4 2 0 0 (the pair nearest the side merges first).
        assert_eq!(slide([1, 1, 1, 0]), ([2, 1, 0, 0], 4));
        // 2 2 2 2 LEFT -> 4 4 0 0 (two merges, no chain).
        assert_eq!(slide([1, 1, 1, 1]), ([2, 2, 0, 0], 8));
        // A merged tile does not merge again: 4 2 2 0 -> 4 4 0 0.
        assert_eq!(slide([2, 1, 1, 0]), ([2, 2, 0, 0], 4));
        // Gaps close before merging: 2 0 0 2 -> 4.
        assert_eq!(slide([1, 0, 0, 1]), ([2, 0, 0, 0], 4));
        assert_eq!(slide([0, 0, 0, 0]), ([0, 0, 0, 0], 0));
    }

    #[test]
    fn right_moves_merge_nearest_the_right_side() {
        let t = &TABLES;
        // 2 2 2 0 RIGHT -> 0 0 2 4.
        let row = pack_line([1, 1, 1, 0]);
        assert_eq!(unpack_line(t.right[row as usize]), [0, 0, 1, 2]);
    }

    #[test]
    fn two_32768s_overflow_and_score_65536() {
        let s = slide_line([15, 15, 0, 0]);
        assert!(s.overflow);
        assert_eq!(s.score, 65536);
        assert!(TABLES.overflows(pack_line([15, 0, 15, 3])));
        assert!(!TABLES.overflows(pack_line([15, 14, 15, 3])));
    }

    #[test]
    fn row_entries_hold_both_moves_and_the_points() {
        let t = &TABLES;
        for line in 0..=u16::MAX {
            let i = line as usize;
            let slide = slide_line(unpack_line(line));
            let points = slide.score;
            let right = slide_line(unpack_line(reverse_line(line)));
            assert_eq!(
                (right.score, right.overflow),
                (points, slide.overflow),
                "{line:#06x}"
            );
            // The line as row 1 of a board whose other rows stay put.
            let e = [t.rows[0], t.rows[i], t.rows[0], t.rows[0]];
            assert_eq!(rows_left(e), (t.left[i] as u64) << 16, "{line:#06x}");
            assert_eq!(rows_right(e), (t.right[i] as u64) << 16, "{line:#06x}");
            assert_eq!(LineSum::of(e).points(), points, "{line:#06x}");
            assert_eq!(LineSum::of(e).overflows(), slide.overflow, "{line:#06x}");
            assert_eq!(LineSum::of(e).moves_toward_start(), t.left[i] != line);
            assert_eq!(LineSum::of(e).moves_toward_end(), t.right[i] != line);
            assert_eq!(t.overflows(line), slide.overflow, "{line:#06x}");
            let e = [t.rows[i], t.rows[0], t.rows[0], t.rows[i]];
            assert_eq!(rows_left(e), t.left[i] as u64 | (t.left[i] as u64) << 48);
            assert_eq!(rows_right(e), t.right[i] as u64 | (t.right[i] as u64) << 48);
            assert_eq!(LineSum::of(e).points(), 2 * points, "{line:#06x}");
        }
        // The most four lines earn: each two 65536 merges. The sum of
        // four LEFT lines of 0xFFFF carries nothing into the points.
        let full = LineSum::of([t.rows[0xFFFF]; 4]);
        assert_eq!((full.points(), full.overflows()), (4 * 131_072, true));
        assert!(full.moves_toward_start() && full.moves_toward_end());
        // Four lines that every move changes: each flag field holds a 4.
        let moving = LineSum::of([t.rows[0x0201]; 4]);
        assert!(moving.moves_toward_start() && moving.moves_toward_end());
        assert_eq!((moving.points(), moving.overflows()), (0, false));
    }

    #[test]
    fn column_entries_hold_both_moves() {
        let t = &TABLES;
        for line in 0..=u16::MAX {
            let i = line as usize;
            let (up, down) = (spread_column(t.left[i]), spread_column(t.right[i]));
            for k in 0..4 {
                let mut e = [t.columns[0]; 4];
                e[k] = t.columns[i];
                assert_eq!(columns_up(e), up << (4 * k), "{line:#06x} in column {k}");
                assert_eq!(
                    columns_down(e),
                    down << (4 * k),
                    "{line:#06x} in column {k}"
                );
            }
        }
    }

    #[test]
    fn line_helpers_round_trip() {
        for line in [0u16, 0x1234, 0xFEDC, 0x0F0F] {
            assert_eq!(pack_line(unpack_line(line)), line);
            assert_eq!(reverse_line(reverse_line(line)), line);
        }
        assert_eq!(reverse_line(0x1234), 0x4321);
    }
}
