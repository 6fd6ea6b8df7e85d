//! Perft for 2048: the number of leaves of the full game tree under the
//! classic model, to pin the rules with golden counts (as chess engines do).
//!
//! One level is one legal move followed by one new tile, a 2 or a 4, on any
//! empty cell: a board with e empty cells after the move has 2·e children.
//! A position with no legal move before the last level adds no leaf. A move
//! that merges two 32768s ends the game at the tile cap (see
//! [`crate::engine::Outcome::TileCap`]) and adds no leaf either.

use super::board::{Board, Direction};
use super::grid::Grid;

/// Leaves of the game tree `depth` levels (moves) below `board`.
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    for moved in board.capped_moves() {
        let after = moved.board;
        if depth == 1 {
            // Bulk count: every empty cell takes a 2 or a 4.
            leaves += 2 * u64::from(after.count_empty());
            continue;
        }
        let mut empty = after.empty_mask();
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            for rank in [1, 2] {
                let child = Board(after.0 | (rank as u64) << (4 * cell));
                leaves += perft(child, depth - 1);
            }
        }
    }
    leaves
}

/// The same count on the reference [`Grid`], written without shortcuts; any
/// tile above 32768 ends the game as the fast board's tile cap does.
pub fn perft_reference(grid: &Grid, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    for dir in Direction::ALL {
        let moved = grid.slide(dir);
        if !moved.changed || moved.grid.max_tile() > 32768 {
            continue;
        }
        for cell in moved.grid.empty_cells() {
            for value in [2, 4] {
                leaves += perft_reference(&moved.grid.with_tile(cell, value), depth - 1);
            }
        }
    }
    leaves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts_by_hand() {
        // One 2 in the corner: RIGHT and DOWN are legal, each leaves 15 empty cells.
        let b = Board::EMPTY.place(0, 1).unwrap();
        assert_eq!(perft(b, 0), 1);
        assert_eq!(perft(b, 1), 2 * 2 * 15);
        // A full board with no move has no leaves.
        let stuck = Board::from_ranks([1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1]);
        assert_eq!(perft(stuck, 3), 0);
        assert_eq!(perft_reference(&Grid::from_board(stuck), 3), 0);
    }

    #[test]
    fn fast_and_reference_agree_on_small_depths() {
        let boards = [
            Board::EMPTY.place(5, 1).unwrap().place(10, 2).unwrap(),
            Board::from_ranks([1, 1, 2, 3, 0, 0, 1, 0, 4, 4, 0, 0, 1, 2, 3, 4]),
            Board::from_ranks([15, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]),
        ];
        for b in boards {
            for depth in 0..=2 {
                assert_eq!(
                    perft(b, depth),
                    perft_reference(&Grid::from_board(b), depth),
                    "{b:?} depth {depth}"
                );
            }
        }
    }

    #[test]
    fn the_tile_cap_ends_the_branch() {
        // Two 32768s side by side in the top row: LEFT and RIGHT overflow, UP
        // changes nothing, and only DOWN leaves 14 empty cells.
        let b = Board::from_ranks([15, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(perft(b, 1), 2 * 14);
        assert_eq!(perft_reference(&Grid::from_board(b), 1), 2 * 14);
    }
}
