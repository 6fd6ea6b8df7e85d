//! Tile-downgrading: a board with a tile larger than its evaluation has
//! learned well is searched as a smaller board of the same shape.
//!
//! A learned network has seen few boards that hold its largest tiles: its
//! weights for them are barely trained, and it has none at all for a stage
//! beyond. When the largest tile of a root board reaches the threshold, the
//! search looks instead at the board with every tile above the highest
//! missing rank moved one rank down, and does so again while the largest
//! tile is still at the threshold or above. No tile has a missing rank, so
//! each step keeps which tiles are equal and which cells are empty: the
//! same moves are legal and merge the same cells, and the move chosen on
//! the downgraded board is played on the real one. A board holding every
//! rank from 2 up to its largest tile has no gap to close and is searched
//! as it is.
//!
//! `downgrade_at` downgrades the root only; the tree below is the
//! downgraded board's own (a merge of two tiles just below the gap makes a
//! tile equal to a downgraded one there, a small distortion deep in the
//! tree). `leaf_downgrade_at` reads each board at the horizon whose largest
//! tile reaches it through its downgraded form, keeping the points earned
//! to reach the board itself ([`crate::heuristic::Evaluate::eval_as`]).

use crate::engine::Board;

/// The board a search looks at in place of `board`: `board` itself unless
/// its largest tile has at least rank `at` (`at` = 0: never); then `board`
/// with every tile above its highest missing rank one rank lower, step
/// after step, until its largest tile is below rank `at` or it has no
/// missing rank.
pub fn downgraded(board: Board, at: u8) -> Board {
    let mut board = board;
    loop {
        let top = board.max_rank();
        if at == 0 || top < at {
            return board;
        }
        let present = board.ranks().iter().fold(0u32, |seen, &r| seen | 1 << r);
        // The highest rank in 1..top that no tile has.
        let below_top = (1u32 << top) - 2; // ranks 1..top
        let missing = below_top & !present;
        if missing == 0 {
            return board;
        }
        let gap = 31 - missing.leading_zeros() as u8;
        board = Board::from_ranks(board.ranks().map(|r| if r > gap { r - 1 } else { r }));
    }
}

/// The rank a `downgrade_at` setting (a tile value; 0: never) starts at:
/// the smallest rank whose tile is at least that value.
pub fn threshold_rank(at: u32) -> u8 {
    if at == 0 {
        0
    } else {
        // 2^r ≥ at for the smallest such r ≥ 1.
        (32 - (at.max(2) - 1).leading_zeros()) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Direction;

    fn board(values: [u32; 16]) -> Board {
        Board::from_values(values).unwrap()
    }

    #[test]
    fn tiles_above_the_highest_gap_move_one_rank_down() {
        // No 8192: the 32768 and 16384 come down, the rest stay.
        let b = board([
            32768, 16384, 4096, 2048, //
            2, 4, 8, 16, //
            0, 0, 0, 0, //
            0, 0, 0, 2, //
        ]);
        let d = board([
            16384, 8192, 4096, 2048, //
            2, 4, 8, 16, //
            0, 0, 0, 0, //
            0, 0, 0, 2, //
        ]);
        assert_eq!(downgraded(b, 15), d);
        // Below the threshold, or with it off, the board stays.
        assert_eq!(downgraded(d, 15), d);
        assert_eq!(downgraded(b, 0), b);
    }

    #[test]
    fn a_board_still_at_the_threshold_comes_down_again() {
        // At 16384: the 32768 comes down past the missing 16384, then the
        // 16384 it became past the missing 4096; the 8192 only in the second step.
        let b = board([
            32768, 8192, 2048, 2, //
            4, 0, 0, 0, //
            0, 0, 0, 0, //
            0, 0, 0, 0, //
        ]);
        let d = board([
            8192, 4096, 2048, 2, //
            4, 0, 0, 0, //
            0, 0, 0, 0, //
            0, 0, 0, 0, //
        ]);
        assert_eq!(downgraded(b, 14), d);
        // One step brings it below 32768: the earlier single step.
        let once = board([
            16384, 8192, 2048, 2, //
            4, 0, 0, 0, //
            0, 0, 0, 0, //
            0, 0, 0, 0, //
        ]);
        assert_eq!(downgraded(b, 15), once);
        // A gapless chain under the threshold's tile stops the steps.
        let chain = board([
            32768, 8192, 4096, 2048, //
            2, 4, 8, 16, //
            32, 64, 128, 256, //
            512, 1024, 0, 0, //
        ]);
        let after = board([
            16384, 8192, 4096, 2048, //
            2, 4, 8, 16, //
            32, 64, 128, 256, //
            512, 1024, 0, 0, //
        ]);
        assert_eq!(downgraded(chain, 14), after);
    }

    #[test]
    fn a_board_without_a_gap_stays_and_the_lowest_gap_can_be_the_two() {
        let full = board([
            32768, 16384, 8192, 4096, //
            2, 1024, 512, 2048, //
            4, 128, 256, 64, //
            8, 16, 32, 2, //
        ]);
        assert_eq!(downgraded(full, 15), full);
        let no_twos = board([
            32768, 16384, 8192, 4096, //
            0, 1024, 512, 2048, //
            4, 128, 256, 64, //
            8, 16, 32, 4, //
        ]);
        assert_eq!(downgraded(no_twos, 15).max_rank(), 14);
        assert_eq!(downgraded(no_twos, 15).rank(8), 1);
    }

    #[test]
    fn the_same_moves_are_legal_and_merge_the_same_cells() {
        let b = board([
            32768, 32768, 4096, 4096, //
            2, 2, 8, 16, //
            0, 16384, 0, 0, //
            0, 0, 16384, 2, //
        ]);
        let d = downgraded(b, 15);
        assert_eq!(d.max_rank(), 14);
        for dir in Direction::ALL {
            let (real, down) = (b.make_move(dir), d.make_move(dir));
            assert_eq!(real.is_some(), down.is_some(), "{dir:?}");
            if let (Some(real), Some(down)) = (real, down) {
                let empty = |x: Board| x.ranks().map(|r| r == 0);
                assert_eq!(empty(real.board), empty(down.board), "{dir:?}");
            }
        }
    }

    #[test]
    fn the_setting_is_a_tile_value() {
        assert_eq!(threshold_rank(0), 0);
        assert_eq!(threshold_rank(1), 1);
        assert_eq!(threshold_rank(2), 1);
        assert_eq!(threshold_rank(32768), 15);
        assert_eq!(threshold_rank(20000), 15);
        assert_eq!(threshold_rank(16384), 14);
    }
}
