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
    /// Column after moving toward cell 0 (UP), spread into a board column:
    /// cell k at bit 16·k.
    pub up: [u64; LINES],
    /// Column after moving toward cell 3 (DOWN), spread likewise.
    pub down: [u64; LINES],
    /// LEFT with its points: the row after the move in the low 16 bits and a
    /// quarter of the points it earns in the high 16 (every merge earns a
    /// multiple of 4, and a line earns at most 131,072), so one lookup gives
    /// both and [`scored_points`] sums four lines' points without masking.
    pub left_scored: [u32; LINES],
    /// RIGHT with its points, packed as [`MoveTables::left_scored`]. A line
    /// earns the same points in both directions, since merges happen within
    /// runs of equal ranks, whichever end they start at.
    pub right_scored: [u32; LINES],
    /// Bit set of lines whose move would merge two 32768 tiles.
    pub overflow: [u64; LINES / 64],
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

/// Packs a moved line and the points it earned into a scored-table entry.
const fn scored_entry(moved: u16, score: u32) -> u32 {
    debug_assert!(score.is_multiple_of(4) && score / 4 <= u16::MAX as u32);
    moved as u32 | (score / 4) << 16
}

/// The moved line of a scored-table entry.
#[inline(always)]
pub const fn scored_line(entry: u32) -> u16 {
    entry as u16
}

/// The points of four scored-table entries together.
#[inline(always)]
pub const fn scored_points(entries: [u32; 4]) -> u32 {
    // Each quarter is at most 32,768, so the sum fits and only one
    // multiplication is needed.
    4 * ((entries[0] >> 16) + (entries[1] >> 16) + (entries[2] >> 16) + (entries[3] >> 16))
}

impl MoveTables {
    const fn build() -> Self {
        let mut t = MoveTables {
            left: [0; LINES],
            right: [0; LINES],
            up: [0; LINES],
            down: [0; LINES],
            left_scored: [0; LINES],
            right_scored: [0; LINES],
            overflow: [0; LINES / 64],
        };
        let mut i = 0;
        while i < LINES {
            let line = i as u16;
            let slide = slide_line(unpack_line(line));
            let left = pack_line(slide.cells);
            let right = reverse_line(pack_line(slide_line(unpack_line(reverse_line(line))).cells));
            t.left[i] = left;
            t.right[i] = right;
            t.up[i] = spread_column(left);
            t.down[i] = spread_column(right);
            t.left_scored[i] = scored_entry(left, slide.score);
            t.right_scored[i] = scored_entry(right, slide.score);
            if slide.overflow {
                t.overflow[i / 64] |= 1 << (i % 64);
            }
            i += 1;
        }
        t
    }

    /// Whether moving this line would merge two 32768 tiles.
    #[inline]
    pub fn overflows(&self, line: u16) -> bool {
        self.overflow[line as usize / 64] >> (line % 64) & 1 == 1
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
    fn scored_tables_hold_every_line_move_and_its_points() {
        let t = &TABLES;
        for line in 0..=u16::MAX {
            let i = line as usize;
            let points = slide_line(unpack_line(line)).score;
            assert_eq!(scored_line(t.left_scored[i]), t.left[i], "{line:#06x}");
            assert_eq!(scored_line(t.right_scored[i]), t.right[i], "{line:#06x}");
            let right_points = slide_line(unpack_line(reverse_line(line))).score;
            assert_eq!(right_points, points, "{line:#06x}");
            let four = [t.left_scored[i], 0, 0, t.right_scored[i]];
            assert_eq!(scored_points(four), 2 * points, "{line:#06x}");
        }
        // The most a line earns: two 65536 merges.
        assert_eq!(scored_points([t.left_scored[0xFFFF]; 4]), 4 * 131_072);
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
