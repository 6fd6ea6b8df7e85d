//! The board heuristic as lookup tables: one score per 16-bit line, built
//! once per weight vector and shared read-only by every game that uses it.
//!
//! `score(board) = Σ_rows row_table[r](row) + Σ_columns line(column)`
//!
//! where `line` holds the line terms of the reference heuristic (plus
//! smoothness), and `row_table[r]` adds the positional terms (edge, corner,
//! snake) of row r's cells. Rows whose positional weights agree share a table.
//! One board-level term, crowding, is a 17-entry table indexed by the number
//! of empty cells, added only when its weight is non-zero.

use std::sync::Arc;

use super::weights::Weights;
use crate::engine::tables::{unpack_line, LINES};
use crate::engine::Board;

type Table = Arc<[f32; LINES]>;

/// A heuristic built from one weight vector.
#[derive(Clone)]
pub struct Heuristic {
    rows: [Table; 4],
    columns: Table,
    /// `crowding[e]`: the crowding term of a board with e empty cells.
    crowding: [f32; 17],
    crowded: bool,
    /// `values[r]`: v(r), the tile-value transform.
    values: [f32; 16],
    /// `dead_end[r]`: the dead-end cost when the largest tile has rank r.
    dead_end: [f32; 16],
    weights: Weights,
}

/// The board-level crowding term of a board with `empty` empty cells:
/// −crowding·16·(filled/16)^crowding_power. The weight is the penalty per
/// cell at power 1, and the marginal penalty of the last cell of a full board
/// is crowding·crowding_power, so the weight's scale does not move with the power.
pub fn crowding_score(w: &Weights, empty: u32) -> f64 {
    let filled = f64::from(16 - empty);
    -w.crowding * 16.0 * (filled / 16.0).powf(w.crowding_power)
}

/// The tile-value transform of the ordered terms and the dead-end cost:
/// v(r) = r^value_power · value_base^r, and v(0) = 0.
pub fn tile_value(w: &Weights, rank: u8) -> f64 {
    if rank == 0 {
        return 0.0;
    }
    let r = f64::from(rank);
    r.powf(w.value_power) * w.value_base.powf(r)
}

/// The ordered terms of one line read from its corner end (cell 0 first):
/// ordered_head·v(first cell) plus, over each pair of neighbours (a, b), a
/// nearer the corner, with A = v(a) and B = v(b):
///
/// - a empty, b a tile (a gap ahead of it): −ordered_gap·B;
/// - a a tile, b no larger (or empty): +ordered_right·(A + B), and
///   +ordered_equal·A more when a = b;
/// - a a tile, b larger: −ordered_wrong·(B − A).
///
/// Two empty cells score nothing.
pub fn ordered_score(w: &Weights, cells: [u8; 4]) -> f64 {
    let v = cells.map(|r| tile_value(w, r));
    let mut score = w.ordered_head * v[0];
    for i in 1..4 {
        let (a, b) = (cells[i - 1], cells[i]);
        let (va, vb) = (v[i - 1], v[i]);
        score += if a == 0 {
            if b == 0 {
                0.0
            } else {
                -w.ordered_gap * vb
            }
        } else if a >= b {
            let equal = if a == b { w.ordered_equal * va } else { 0.0 };
            w.ordered_right * (va + vb) + equal
        } else {
            -w.ordered_wrong * (vb - va)
        };
    }
    score
}

/// Whether any ordered term is weighted (the transform is then used).
fn ordered(w: &Weights) -> bool {
    [
        w.ordered_head,
        w.ordered_right,
        w.ordered_equal,
        w.ordered_wrong,
        w.ordered_gap,
    ]
    .iter()
    .any(|&c| c != 0.0)
}

/// The line terms of one line of ranks (cell 0 first), in f64.
pub fn line_score(w: &Weights, cells: [u8; 4]) -> f64 {
    let pow = |r: u8, p: f64| if r == 0 { 0.0 } else { f64::from(r).powf(p) };
    let mut empty = 0u32;
    let mut merges = 0u32;
    let mut run = 0u32; // equal neighbours seen after the first of the current run
    let mut prev = 0u8;
    let mut smooth = 0.0;
    let mut sum = 0.0;
    let mut pairs = 0.0; // Σ rank^merge_power over equal neighbours
    let mut top = 0u8;
    for &r in &cells {
        sum += pow(r, w.sum_power);
        if r == 0 {
            empty += 1;
            continue;
        }
        top = top.max(r);
        if prev != 0 {
            smooth += f64::from(prev.abs_diff(r));
        }
        if prev == r {
            pairs += pow(r, w.merge_power);
            run += 1;
        } else if run > 0 {
            merges += run + 1;
            run = 0;
        }
        prev = r;
    }
    if run > 0 {
        merges += run + 1;
    }
    let (mut left, mut right) = (0.0, 0.0);
    for i in 1..4 {
        let (a, b) = (
            pow(cells[i - 1], w.monotonicity_power),
            pow(cells[i], w.monotonicity_power),
        );
        if cells[i - 1] > cells[i] {
            left += a - b;
        } else {
            right += b - a;
        }
    }
    let locked = empty == 0 && merges == 0;
    let ordered = if ordered(w) {
        ordered_score(w, cells)
    } else {
        0.0
    };
    ordered + w.lost_penalty + w.empty * f64::from(empty) + w.merges * f64::from(merges)
        - w.monotonicity * f64::min(left, right)
        - w.sum * sum
        - w.smoothness * smooth
        + w.empty_scaled * f64::from(empty) * pow(top, w.empty_power)
        + w.merge_rank * pairs
        - if locked { w.locked } else { 0.0 }
}

/// Per-cell positional weights: (edge-or-corner weight, snake weight).
fn positional(w: &Weights, cell: usize) -> (f64, f64) {
    let (r, c) = (cell / 4, cell % 4);
    let border_row = r == 0 || r == 3;
    let border_col = c == 0 || c == 3;
    let edge = match (border_row, border_col) {
        (true, true) => w.corner,
        (true, false) | (false, true) => w.edge,
        (false, false) => 0.0,
    };
    (edge, w.snake[cell])
}

/// The positional terms of row `row` holding `cells`.
pub fn positional_score(w: &Weights, row: usize, cells: [u8; 4]) -> f64 {
    cells
        .iter()
        .enumerate()
        .filter(|(_, &r)| r != 0)
        .map(|(c, &r)| {
            let (edge, snake) = positional(w, 4 * row + c);
            edge * f64::from(r).powf(w.edge_power) + snake * f64::from(r).powf(w.snake_power)
        })
        .sum()
}

fn build_table(f: impl Fn([u8; 4]) -> f64) -> Table {
    let values: Vec<f32> = (0..LINES)
        .map(|l| f(unpack_line(l as u16)) as f32)
        .collect();
    let boxed: Box<[f32; LINES]> = values.into_boxed_slice().try_into().expect("LINES entries");
    Arc::from(boxed)
}

impl Heuristic {
    pub fn new(weights: &Weights) -> Heuristic {
        let w = weights;
        let columns = build_table(|cells| line_score(w, cells));
        let mut rows: Vec<(Vec<(f64, f64)>, Table)> = Vec::new();
        let row_tables = std::array::from_fn(|r| {
            let key: Vec<(f64, f64)> = (0..4).map(|c| positional(w, 4 * r + c)).collect();
            if key.iter().all(|&(e, s)| e == 0.0 && s == 0.0) {
                return columns.clone();
            }
            if let Some((_, t)) = rows.iter().find(|(k, _)| *k == key) {
                return t.clone();
            }
            let t = build_table(|cells| line_score(w, cells) + positional_score(w, r, cells));
            rows.push((key, t.clone()));
            t
        });
        Heuristic {
            rows: row_tables,
            columns,
            crowding: std::array::from_fn(|e| crowding_score(w, e as u32) as f32),
            crowded: w.crowding != 0.0,
            values: std::array::from_fn(|r| tile_value(w, r as u8).min(1e30) as f32),
            // Bounded so that a lost value stays finite (and sums of them too).
            dead_end: std::array::from_fn(|r| {
                (w.dead_end * tile_value(w, r as u8)).min(1e30) as f32
            }),
            weights: weights.clone(),
        }
    }

    /// The weights this heuristic was built from.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// How much lower than its plain lost value a board with no legal move
    /// is worth in a search from `root`: dead_end·v(largest tile of `root`).
    /// Never negative; 0 unless the dead-end term is weighted.
    #[inline]
    pub fn dead_end_cost(&self, root: Board) -> f32 {
        self.dead_end[usize::from(root.max_rank())]
    }

    /// v(largest tile of `board`), by the weights' tile-value transform.
    #[inline]
    pub fn largest_tile_value(&self, board: Board) -> f32 {
        self.values[usize::from(board.max_rank())]
    }

    /// Number of distinct tables (1 when there are no positional terms).
    #[cfg(test)]
    pub fn distinct_tables(&self) -> usize {
        let mut ptrs: Vec<*const [f32; LINES]> = self.rows.iter().map(Arc::as_ptr).collect();
        ptrs.push(Arc::as_ptr(&self.columns));
        ptrs.sort();
        ptrs.dedup();
        ptrs.len()
    }

    /// The heuristic score of a board.
    #[inline]
    pub fn eval(&self, board: Board) -> f32 {
        self.eval_pair(board, board.transpose())
    }

    /// The heuristic score of `board` given with its transpose `transpose`
    /// (equal to [`Heuristic::eval`] of the board, bit for bit).
    #[inline]
    pub fn eval_pair(&self, board: Board, transpose: Board) -> f32 {
        let (b, t) = (board.0, transpose.0);
        let c = &*self.columns;
        let rows = std::array::from_fn(|r| self.rows[r][(b >> (16 * r)) as u16 as usize]);
        let columns = std::array::from_fn(|k| c[(t >> (16 * k)) as u16 as usize]);
        self.total(rows, columns, board)
    }

    /// The score table of row `r` (0 at the top): each 16-bit line's score
    /// as that row.
    #[inline(always)]
    pub fn row_table(&self, r: usize) -> &[f32; LINES] {
        &self.rows[r]
    }

    /// The score table of every column, indexed by the column as a line
    /// (its top cell first).
    #[inline(always)]
    pub fn column_table(&self) -> &[f32; LINES] {
        &self.columns
    }

    /// The one table every row and column reads, when there is one and the
    /// score is the eight lines' sum alone (no crowding term): then
    /// `total(rows, columns, _)` is the plain sum of the eight.
    pub fn shared_table(&self) -> Option<&[f32; LINES]> {
        let shared = self.rows.iter().all(|t| Arc::ptr_eq(t, &self.columns));
        (shared && !self.crowded).then_some(&*self.columns)
    }

    /// The score of `board` from its rows' and columns' table scores: the
    /// one place the eight are summed, rows first, in a fixed order (an f32
    /// sum in another order may round differently), and the crowding term
    /// added when it is weighted.
    #[inline(always)]
    pub fn total(&self, rows: [f32; 4], columns: [f32; 4], board: Board) -> f32 {
        let lines = rows[0]
            + rows[1]
            + rows[2]
            + rows[3]
            + columns[0]
            + columns[1]
            + columns[2]
            + columns[3];
        if self.crowded {
            lines + self.crowding[board.count_empty() as usize]
        } else {
            lines
        }
    }

    /// The heuristic computed directly from the weights, without tables.
    #[cfg(test)]
    pub fn eval_slow(&self, board: Board) -> f64 {
        let ranks = board.ranks();
        let row = |r: usize| {
            [
                ranks[4 * r],
                ranks[4 * r + 1],
                ranks[4 * r + 2],
                ranks[4 * r + 3],
            ]
        };
        let col = |c: usize| [ranks[c], ranks[4 + c], ranks[8 + c], ranks[12 + c]];
        let w = &self.weights;
        let lines: f64 = (0..4)
            .map(|i| line_score(w, row(i)) + positional_score(w, i, row(i)) + line_score(w, col(i)))
            .sum();
        let empty = ranks.iter().filter(|&&r| r == 0).count() as u32;
        lines + crowding_score(w, empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_line_scores_by_hand() {
        let w = Weights::nneonneo();
        // Empty line: 4 empties, nothing else.
        assert_eq!(line_score(&w, [0, 0, 0, 0]), 200_000.0 + 4.0 * 270.0);
        // 2 2 0 0: empty 2, one run of 2 -> merges 2, sum 2·1^3.5 = 2,
        // monotonicity: pairs (1,1) right+=0, (1,0) left+=1, (0,0) right+=0 -> min = 0.
        assert_eq!(
            line_score(&w, [1, 1, 0, 0]),
            200_000.0 + 540.0 + 1400.0 - 22.0
        );
        // 4 2 8 0 (ranks 2 1 3 0): no merges, empty 1, sum 2^3.5+1+3^3.5,
        // left = (16-1) + (81-0) = 96, right = 81-1 = 80 -> min 80.
        let sum = 2f64.powf(3.5) + 1.0 + 3f64.powf(3.5);
        let expect = 200_000.0 + 270.0 - 47.0 * 80.0 - 11.0 * sum;
        assert!((line_score(&w, [2, 1, 3, 0]) - expect).abs() < 1e-9);
        // 2 0 2 4 (ranks 1 0 1 2): zeros are skipped for runs -> merges 2.
        let sum = 1.0 + 1.0 + 2f64.powf(3.5);
        let (left, right) = (1.0, 1.0 + 15.0);
        let expect = 200_000.0 + 270.0 + 1400.0 - 47.0 * f64::min(left, right) - 11.0 * sum;
        assert!((line_score(&w, [1, 0, 1, 2]) - expect).abs() < 1e-9);
        // 8 8 8 8: one run of four adds 4.
        let sum = 4.0 * 3f64.powf(3.5);
        assert!((line_score(&w, [3, 3, 3, 3]) - (200_000.0 + 2800.0 - 11.0 * sum)).abs() < 1e-9);
    }

    #[test]
    fn added_line_terms_by_hand() {
        let zero = Weights::zeroed();
        // Scaled empties: 2 empties times the line's top rank (5) squared.
        let w = Weights {
            empty_scaled: 3.0,
            empty_power: 2.0,
            ..zero.clone()
        };
        assert_eq!(line_score(&w, [5, 0, 2, 0]), 3.0 * 2.0 * 25.0);
        assert_eq!(line_score(&w, [0, 0, 0, 0]), 0.0);
        // Merge pairs, zeros skipped: (3,3) across a gap and (3,3) again.
        let w = Weights {
            merge_rank: 2.0,
            merge_power: 1.5,
            ..zero.clone()
        };
        let expect = 2.0 * 2.0 * 3f64.powf(1.5);
        assert!((line_score(&w, [3, 0, 3, 3]) - expect).abs() < 1e-12);
        assert_eq!(line_score(&w, [1, 2, 1, 2]), 0.0);
        // Locked: full and no equal neighbours; a gap or a pair unlocks it.
        let w = Weights {
            locked: 100.0,
            ..zero
        };
        assert_eq!(line_score(&w, [1, 2, 1, 2]), -100.0);
        assert_eq!(line_score(&w, [1, 2, 2, 3]), 0.0);
        assert_eq!(line_score(&w, [1, 2, 0, 3]), 0.0);
    }

    #[test]
    fn tile_values_cover_powers_face_values_and_rank_times_face_value() {
        let mut w = Weights::zeroed();
        // The defaults: r·2^r.
        assert_eq!(tile_value(&w, 0), 0.0);
        assert_eq!(tile_value(&w, 3), 24.0);
        assert_eq!(tile_value(&w, 15), 15.0 * 32768.0);
        w.value_power = 0.0;
        assert_eq!(tile_value(&w, 11), 2048.0);
        w.value_power = 2.5;
        w.value_base = 1.0;
        assert_eq!(tile_value(&w, 4), 32.0);
        assert_eq!(tile_value(&w, 0), 0.0);
    }

    #[test]
    fn ordered_lines_by_hand() {
        // The hand-written evaluation of the anchor: head 1, right 1,
        // equal 1, wrong 12, gap 12, v(r) = r·2^r. Values v: 1→2, 2→8, 3→24.
        let w = Weights {
            ordered_head: 1.0,
            ordered_right: 1.0,
            ordered_equal: 1.0,
            ordered_wrong: 12.0,
            ordered_gap: 12.0,
            ..Weights::zeroed()
        };
        // 8 4 2 _: head 24, (24+8), (8+2), (2+0).
        assert_eq!(line_score(&w, [3, 2, 1, 0]), 24.0 + 32.0 + 10.0 + 2.0);
        // 4 4 8 _: head 8, equal pair (8+8)+8, wrong 12·(24−8), right (24+0).
        assert_eq!(
            line_score(&w, [2, 2, 3, 0]),
            8.0 + 24.0 - 12.0 * 16.0 + 24.0
        );
        // _ _ 2 4: two empties score nothing, gap 12·2, wrong 12·(8−2).
        assert_eq!(line_score(&w, [0, 0, 1, 2]), -24.0 - 72.0);
        // Read from the corner: the reversed line scores otherwise.
        assert_eq!(
            ordered_score(&w, [1, 2, 3, 0]),
            2.0 - 12.0 * 6.0 - 12.0 * 16.0 + 24.0
        );
        // Every coefficient on its own.
        let one = |name: &str| {
            let mut w = Weights::zeroed();
            w.set(name, 1.0).unwrap();
            ordered_score(&w, [2, 2, 0, 3])
        };
        assert_eq!(one("ordered_head"), 8.0);
        assert_eq!(one("ordered_right"), 16.0 + 8.0);
        assert_eq!(one("ordered_equal"), 8.0);
        assert_eq!(one("ordered_wrong"), 0.0);
        assert_eq!(one("ordered_gap"), -24.0);
    }

    #[test]
    fn ordered_rows_are_read_from_the_left_and_columns_from_the_top() {
        let w = Weights {
            ordered_right: 1.0,
            ordered_wrong: 10.0,
            ..Weights::zeroed()
        };
        let h = Heuristic::new(&w);
        // One 4 beside one 2, the 4 in the top-left corner: every line in
        // order. Mirrored, the row is in the wrong order.
        let corner = Board::from_ranks([2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let mirrored = Board::from_ranks([1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        // Row (8+2) + (2+0); columns (8+0) and (2+0).
        assert_eq!(h.eval(corner), 22.0);
        // Row: wrong 10·(8−2), right (8+0); columns (2+0) and (8+0).
        assert_eq!(h.eval(mirrored), -60.0 + 8.0 + 10.0);
    }

    #[test]
    fn the_dead_end_cost_grows_with_the_largest_tile() {
        let w = Weights {
            dead_end: 3.0,
            value_power: 0.0,
            ..Weights::nneonneo()
        };
        let h = Heuristic::new(&w);
        let board = Board::from_ranks([5, 1, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        assert_eq!(h.dead_end_cost(board), 3.0 * 2048.0);
        assert_eq!(h.dead_end_cost(Board(0)), 0.0);
        assert_eq!(
            Heuristic::new(&Weights::nneonneo()).dead_end_cost(board),
            0.0
        );
        // Any weight keeps the cost finite.
        let huge = Weights {
            dead_end: f64::MAX,
            ..w
        };
        assert!(Heuristic::new(&huge).dead_end_cost(board).is_finite());
    }

    #[test]
    fn crowding_counts_filled_cells_of_the_whole_board() {
        let plain = Weights::nneonneo();
        let w = Weights {
            crowding: 5000.0,
            crowding_power: 3.0,
            ..plain.clone()
        };
        let (h, base) = (Heuristic::new(&w), Heuristic::new(&plain));
        // Three tiles (ranks 1, 2, 1) in different rows and columns.
        let board = Board::from_ranks([1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(board.count_empty(), 13);
        let added = f64::from(h.eval(board)) - f64::from(base.eval(board));
        let expect = -5000.0 * 16.0 * (3.0f64 / 16.0).powi(3);
        assert!((added - expect).abs() < 0.5, "{added} vs {expect}");
        assert_eq!(crowding_score(&w, 16), 0.0);
        assert_eq!(crowding_score(&w, 0), -5000.0 * 16.0);
        let linear = Weights {
            crowding_power: 1.0,
            ..w.clone()
        };
        assert_eq!(crowding_score(&linear, 10), -5000.0 * 6.0);
        // Weight 0 leaves the evaluation untouched.
        assert_eq!(
            Heuristic::new(&Weights {
                crowding_power: 6.0,
                ..plain
            })
            .eval(board),
            base.eval(board)
        );
    }

    #[test]
    fn reference_weights_need_one_table() {
        assert_eq!(Heuristic::new(&Weights::nneonneo()).distinct_tables(), 1);
        let mut w = Weights::nneonneo();
        w.edge = 3.0;
        w.corner = 5.0;
        assert_eq!(Heuristic::new(&w).distinct_tables(), 3);
        w.snake = std::array::from_fn(|i| i as f64);
        assert_eq!(Heuristic::new(&w).distinct_tables(), 5);
    }

    #[test]
    fn tables_match_the_direct_formula() {
        let mut w = Weights::nneonneo();
        w.smoothness = 7.0;
        w.edge = 3.0;
        w.corner = 11.0;
        w.edge_power = 1.5;
        w.snake = std::array::from_fn(|i| (16 - i) as f64 * 0.5);
        w.snake_power = 2.0;
        w.empty_scaled = 4.0;
        w.empty_power = 1.7;
        w.merge_rank = 30.0;
        w.merge_power = 2.5;
        w.locked = 900.0;
        w.crowding = 4000.0;
        w.crowding_power = 2.5;
        w.ordered_head = 0.5;
        w.ordered_right = 0.25;
        w.ordered_equal = 2.0;
        w.ordered_wrong = 3.0;
        w.ordered_gap = 1.5;
        w.value_power = 1.5;
        w.value_base = 1.8;
        let h = Heuristic::new(&w);
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..2000 {
            x = crate::seeds::mix64(x);
            // Keep ranks small so f32 rounding stays well below the tolerance.
            let board = Board(x & 0x7777_7777_7777_7777);
            let fast = f64::from(h.eval(board));
            let slow = h.eval_slow(board);
            assert!(
                (fast - slow).abs() <= 1e-5 * slow.abs().max(1.0),
                "{board:?}: {fast} vs {slow}"
            );
        }
    }
}
