//! The last chance layer: every child of a spawn is a max node over leaves.
//!
//! A chance node here places a tile on each empty cell and scores the four
//! moves of each result. Placing a tile changes one row and one column of
//! the board, so a row move of the result differs from the same move of the
//! chance node's own board in that one row only (a column move, in that one
//! column). Each of the four moves of the chance node's board is made once,
//! in both forms (the board and its transpose) and with its lines' scores;
//! a child is then that move patched in one line: one lookup for the moved
//! line instead of four and a transpose, and one score lookup on the moved
//! side instead of four. A child's score sums the same eight table entries
//! in the same order as [`Heuristic::eval_pair`], so every value is the
//! same, bit for bit.
//!
//! The cells are visited row by row, each row with its own copy of the
//! loop, so that the row moves' patched line is a constant there (no
//! shift by a variable, the patched scores stay in registers); the cells
//! stay in ascending order, the order [`Node::chance`] sums them in.

use super::{children_may_reach, select, transposed_bit, Node};
use crate::engine::tables::{spread_column, LINES};
use crate::engine::Board;
use crate::heuristic::{Evaluate, Heuristic};

/// A move seen as a slide of the rows of one form of the board (LEFT and
/// RIGHT slide the board's rows, UP and DOWN its transpose's): each line
/// after the slide.
type Slide<'t> = &'t [u16; LINES];

/// The bits of column 0 of a form; column k is this shifted by 4·k.
const COLUMN: u64 = 0x000F_000F_000F_000F;

/// `SPREAD[0][b]`: the low byte `b` of a line (cells 0 and 1) spread into
/// a column (cell k at bit 16·k); `SPREAD[1][b]`: the high byte (cells 2
/// and 3). Two 2 KiB tables: a 512 KiB table of spread lines, next to the
/// row and score tables, measured slower for its cache misses.
static SPREAD: [[u64; 256]; 2] = spread_tables();

const fn spread_tables() -> [[u64; 256]; 2] {
    let mut t = [[0; 256]; 2];
    let mut b = 0;
    while b < 256 {
        t[0][b] = spread_column(b as u16);
        t[1][b] = spread_column((b as u16) << 8);
        b += 1;
    }
    t
}

/// A line spread into a column (cell k at bit 16·k): the line as it lies
/// in the other form.
#[inline(always)]
fn spread(line: u16) -> u64 {
    SPREAD[0][usize::from(line as u8)] | SPREAD[1][usize::from(line >> 8)]
}

/// The heuristic's line tables as the last layer reads them: the general
/// [`Heuristic`], or [`SharedTable`] when one table serves every line. The
/// layer is compiled once for each, so the shared case keeps one table
/// address and no crowding test in its loop.
trait Lines<'h>: Copy {
    /// The score table of row `r`.
    fn row(self, r: usize) -> &'h [f32; LINES];
    /// The score table of every column.
    fn column(self) -> &'h [f32; LINES];
    /// The score of `board` from its lines' scores, as
    /// [`Heuristic::total`] sums them.
    fn total(self, rows: [f32; 4], columns: [f32; 4], board: u64) -> f32;
}

impl<'h> Lines<'h> for &'h Heuristic {
    #[inline(always)]
    fn row(self, r: usize) -> &'h [f32; LINES] {
        self.row_table(r)
    }

    #[inline(always)]
    fn column(self) -> &'h [f32; LINES] {
        self.column_table()
    }

    #[inline(always)]
    fn total(self, rows: [f32; 4], columns: [f32; 4], board: u64) -> f32 {
        Heuristic::total(self, rows, columns, Board(board))
    }
}

/// A heuristic whose rows and columns all read one table and that has no
/// crowding term (see [`Heuristic::shared_table`]), as the reference weights.
#[derive(Clone, Copy)]
struct SharedTable<'h>(&'h [f32; LINES]);

impl<'h> Lines<'h> for SharedTable<'h> {
    #[inline(always)]
    fn row(self, _: usize) -> &'h [f32; LINES] {
        self.0
    }

    #[inline(always)]
    fn column(self) -> &'h [f32; LINES] {
        self.0
    }

    #[inline(always)]
    fn total(self, rows: [f32; 4], columns: [f32; 4], _: u64) -> f32 {
        // The order of `Heuristic::total`.
        rows[0] + rows[1] + rows[2] + rows[3] + columns[0] + columns[1] + columns[2] + columns[3]
    }
}

/// One move of a chance node's board, made before a tile is placed.
#[derive(Clone, Copy)]
struct Base {
    /// The moved board in the form whose rows the move slides.
    lines: u64,
    /// The moved board in the other form.
    cross: u64,
    /// The heuristic's table score of each line of `lines`.
    scores: [f32; 4],
}

/// A child: the moved board in the form whose rows slid and in the other
/// form, and the scores of the slid lines.
type Child = (u64, u64, [f32; 4]);

impl Base {
    /// Slides the rows of `form`; `table(k)` is the score table of line k.
    #[inline(always)]
    fn new<'h>(form: u64, slide: Slide, table: impl Fn(usize) -> &'h [f32; LINES]) -> Base {
        let mut base = Base {
            lines: 0,
            cross: 0,
            scores: [0.0; 4],
        };
        for k in 0..4 {
            let moved = slide[(form >> (16 * k)) as u16 as usize];
            base.lines |= u64::from(moved) << (16 * k);
            base.cross |= spread(moved) << (4 * k);
            base.scores[k] = table(k)[moved as usize];
        }
        base
    }

    /// The same move of the board whose line `k` (before the move) is
    /// `line` and whose other lines are this board's; `table` scores line k.
    #[inline(always)]
    fn patch(&self, slide: Slide, k: usize, line: u16, table: &[f32; LINES]) -> Child {
        let moved = slide[line as usize];
        let lines = self.lines & !(0xFFFF << (16 * k)) | u64::from(moved) << (16 * k);
        let cross = self.cross & !(COLUMN << (4 * k)) | spread(moved) << (4 * k);
        let mut scores = self.scores;
        scores[k] = table[moved as usize];
        (lines, cross, scores)
    }
}

/// The four lines' table scores of a form, line k read from `table(k)`.
#[inline(always)]
fn scores_of<'h>(form: u64, table: impl Fn(usize) -> &'h [f32; LINES]) -> [f32; 4] {
    std::array::from_fn(|k| table(k)[(form >> (16 * k)) as u16 as usize])
}

impl<E: Evaluate, const STOPPABLE: bool> Node<'_, E, STOPPABLE> {
    /// The children of a chance node one layer above the horizon, `board`
    /// given with its transpose: Σ probability × value over every empty cell
    /// and tile, summed in the order [`Node::chance`] sums them.
    pub(super) fn last_chance(&mut self, board: u64, trans: u64) -> f32 {
        // A child that may be scored downgraded is scored whole.
        let downgrades = children_may_reach(Board(board), self.leaf_down);
        let Some(h) = self.h.as_heuristic().filter(|_| !downgrades) else {
            return self.last_chance_plain(board, trans);
        };
        match h.shared_table() {
            Some(table) => self.last_chance_with(SharedTable(table), board, trans),
            None => self.last_chance_with(h, board, trans),
        }
    }

    /// [`Node::last_chance`] for an evaluation without line tables: each
    /// child scored whole, in the same order.
    fn last_chance_plain(&mut self, board: u64, trans: u64) -> f32 {
        let mut cells = Board(board).empty_bits();
        let mut total = 0.0f32;
        while cells != 0 {
            let two = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let t_two = transposed_bit(two);
            total += self.p2 * self.leaves(Board(board | two), Board(trans | t_two));
            if self.p4 > 0.0 {
                let (b4, t4) = (Board(board | two << 1), Board(trans | t_two << 1));
                total += self.p4 * self.leaves(b4, t4);
            }
        }
        total
    }

    /// [`Node::last_chance`] with the heuristic's tables read through `h`.
    #[inline(always)]
    fn last_chance_with<'h>(&mut self, h: impl Lines<'h>, board: u64, trans: u64) -> f32 {
        let t = self.t;
        // In [`Direction::ALL`] order: UP and DOWN slide the transpose's rows.
        let bases = [
            Base::new(trans, &t.left, |_| h.column()),
            Base::new(trans, &t.right, |_| h.column()),
            Base::new(board, &t.left, |r| h.row(r)),
            Base::new(board, &t.right, |r| h.row(r)),
        ];
        let empty = Board(board).empty_bits();
        let mut total = 0.0f32;
        // Row by row, so that each row's code knows which line its row
        // moves patch; the cells stay in ascending order.
        total = self.row_children::<0>(h, &bases, board, trans, empty, total);
        total = self.row_children::<1>(h, &bases, board, trans, empty, total);
        total = self.row_children::<2>(h, &bases, board, trans, empty, total);
        self.row_children::<3>(h, &bases, board, trans, empty, total)
    }

    /// Adds to `total` the children of the empty cells of row `R`.
    #[inline(always)]
    fn row_children<'h, const R: usize>(
        &mut self,
        h: impl Lines<'h>,
        bases: &[Base; 4],
        board: u64,
        trans: u64,
        empty: u64,
        mut total: f32,
    ) -> f32 {
        let mut cells = empty & 0xFFFF << (16 * R);
        while cells != 0 {
            let two = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let t_two = transposed_bit(two);
            let c = (two.trailing_zeros() >> 2) as usize & 3;
            let (b2, t2) = (board | two, trans | t_two);
            total += self.p2 * self.placed::<R>(h, bases, b2, t2, c);
            if self.p4 > 0.0 {
                let (b4, t4) = (board | two << 1, trans | t_two << 1);
                total += self.p4 * self.placed::<R>(h, bases, b4, t4, c);
            }
        }
        total
    }

    /// The max node after a tile was placed in row `R`, column `c` of the
    /// chance node's board (the result given as `board` and its transpose
    /// `trans`): the best score of a legal move, as [`Node::leaves`] gives it.
    #[inline(always)]
    fn placed<'h, const R: usize>(
        &mut self,
        h: impl Lines<'h>,
        bases: &[Base; 4],
        board: u64,
        trans: u64,
        c: usize,
    ) -> f32 {
        let t = self.t;
        let row = (board >> (16 * R)) as u16;
        let column = (trans >> (16 * c)) as u16;
        // Column moves slide the transpose: `cross` is the board.
        let vertical = |(lines, cross, scores): Child| {
            let value = h.total(scores_of(cross, |r| h.row(r)), scores, cross);
            (lines != trans, value)
        };
        let horizontal = |(lines, cross, scores): Child| {
            let value = h.total(scores, scores_of(cross, |_| h.column()), lines);
            (lines != board, value)
        };
        let children = [
            vertical(bases[0].patch(&t.left, c, column, h.column())),
            vertical(bases[1].patch(&t.right, c, column, h.column())),
            horizontal(bases[2].patch(&t.left, R, row, h.row(R))),
            horizontal(bases[3].patch(&t.right, R, row, h.row(R))),
        ];
        self.best_of(children)
    }

    /// A max node's value from its four children's (legal, score), in
    /// [`Direction::ALL`] order: the best legal score, or the lost value
    /// when no move is legal; counts the moves, the scored boards and the
    /// lowest legal score. No branch on legality (a mispredicted one cost
    /// more than the spare evaluation): an illegal child neither raises the
    /// best nor lowers the lowest.
    #[inline(always)]
    pub(super) fn best_of(&mut self, children: [(bool, f32); 4]) -> f32 {
        let mut best = f32::NEG_INFINITY;
        let mut lowest = f32::INFINITY;
        let mut legal = 0u64;
        for (ok, value) in children {
            legal += u64::from(ok);
            let high = select(ok, value, f32::NEG_INFINITY);
            let low = select(ok, value, f32::INFINITY);
            best = if high > best { high } else { best };
            lowest = if low < lowest { low } else { lowest };
        }
        self.stats.moves += 4;
        self.stats.evals += legal;
        self.lowest_leaf = self.lowest_leaf.min(lowest);
        if legal == 0 {
            self.lost_marks += 1;
            return self.lost;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_line_is_the_line_as_a_column() {
        for line in 0..=u16::MAX {
            assert_eq!(spread(line), spread_column(line), "{line:#06x}");
            assert_eq!(spread(line) >> 4 & COLUMN, 0);
        }
    }
}
