//! Perft for adversarial 2048: the leaves of the full game tree, counting
//! attacker and defender plies alike.
//!
//! An attacker ply has one child per empty cell and allowed tile; a defender
//! ply has one child per legal move. A defender with no legal move ends the
//! game, so that branch adds no leaf before the last ply. A slide that would
//! make a 65536 is not playable on the 4×4 board and is not counted.

use super::rules::{Rules, Side};
use crate::engine::grid::Grid;
use crate::engine::{Board, Direction};

/// Leaves `plies` plies below `board` with `side` to move.
pub fn perft(rules: Rules, board: Board, side: Side, plies: u32) -> u64 {
    if plies == 0 {
        return 1;
    }
    match side {
        Side::Attacker => {
            let n = rules.ranks().len() as u64;
            if plies == 1 {
                return n * u64::from(board.count_empty());
            }
            let mut leaves = 0;
            let mut empty = board.empty_mask();
            while empty != 0 {
                let cell = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                for &rank in rules.ranks() {
                    let child = Board(board.0 | u64::from(rank) << (4 * cell));
                    leaves += perft(rules, child, Side::Defender, plies - 1);
                }
            }
            leaves
        }
        Side::Defender => {
            let mut leaves = 0;
            for moved in board.capped_moves() {
                leaves += if plies == 1 {
                    1
                } else {
                    perft(rules, moved.board, Side::Attacker, plies - 1)
                };
            }
            leaves
        }
    }
}

/// The same count on the reference [`Grid`], written without shortcuts.
pub fn perft_reference(rules: Rules, grid: &Grid, side: Side, plies: u32) -> u64 {
    if plies == 0 {
        return 1;
    }
    match side {
        Side::Attacker => {
            let mut leaves = 0;
            for cell in grid.empty_cells() {
                for &rank in rules.ranks() {
                    let child = grid.with_tile(cell, 1u64 << rank);
                    leaves += perft_reference(rules, &child, Side::Defender, plies - 1);
                }
            }
            leaves
        }
        Side::Defender => Direction::ALL
            .iter()
            .map(|&dir| grid.slide(dir))
            .filter(|m| m.changed && m.grid.max_tile() <= 32768)
            .map(|m| perft_reference(rules, &m.grid, Side::Attacker, plies - 1))
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_plies_by_hand() {
        // 16 cells; then a lone tile has 2 moves in a corner, 3 on another
        // edge cell and 4 inside: 4·2 + 8·3 + 4·4 = 48 per tile value.
        assert_eq!(perft(Rules::Gpcc2015, Board::EMPTY, Side::Attacker, 1), 16);
        assert_eq!(perft(Rules::Gpcc2016, Board::EMPTY, Side::Attacker, 1), 32);
        assert_eq!(perft(Rules::Gpcc2015, Board::EMPTY, Side::Attacker, 2), 48);
        assert_eq!(perft(Rules::Gpcc2016, Board::EMPTY, Side::Attacker, 2), 96);
        // A stuck board: the defender has no move and the game is over.
        let stuck = Board::from_ranks([1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1]);
        assert_eq!(perft(Rules::Gpcc2016, stuck, Side::Defender, 1), 0);
        assert_eq!(perft(Rules::Gpcc2016, stuck, Side::Defender, 0), 1);
    }

    #[test]
    fn fast_and_reference_agree() {
        let boards = [
            Board::EMPTY,
            Board::from_ranks([1, 1, 2, 3, 0, 0, 1, 0, 4, 4, 0, 0, 1, 2, 3, 4]),
            Board::from_ranks([15, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]),
        ];
        for rules in [Rules::Gpcc2015, Rules::Gpcc2016] {
            for b in boards {
                for side in [Side::Attacker, Side::Defender] {
                    for plies in 0..=3 {
                        assert_eq!(
                            perft(rules, b, side, plies),
                            perft_reference(rules, &Grid::from_board(b), side, plies),
                            "{rules:?} {b:?} {side:?} {plies}"
                        );
                    }
                }
            }
        }
    }
}
