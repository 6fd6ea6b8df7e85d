//! Learning games played one chance layer deep: each move chosen by its
//! reward plus the expected best of the moves after the spawn, as a search
//! of depth 1 on the network would choose it (`learn --lookahead`).
//!
//! Greedy play picks the move of highest `r + V(a)`. Played with lookahead,
//! a move's worth is `r + E_spawn[max_m' (r' + V(a'))]`: the spawn's cell
//! uniform over `a`'s empty cells, a 4 with the variant's probability, and
//! 0 after a spawn that leaves no move. The afterstates learned from are
//! those of the moves played, as in greedy play, so only which moves are
//! played changes: the network learns the boards a search meets. A move
//! values up to four afterstates after each spawn of each of its four
//! afterstates, where greedy play values four afterstates in all.
//! Learning from the shipped network's late positions on two cores, a move
//! cost about 11 greedy ones (docs/src/results/networks.md).

use super::value::Network;
use crate::engine::{Board, Direction};

/// The best `reward + value(afterstate)` over `board`'s moves; 0 when it
/// has none (the game ends there and earns nothing more).
fn best_move_value(net: &Network, board: Board) -> f32 {
    let moves = board.moves();
    let children = moves.map(|m| m.map_or((board, board), |m| (m.board, m.board.transpose())));
    let values = net.values_of(&children, moves.map(|m| m.is_some()));
    moves
        .iter()
        .zip(values)
        .filter_map(|(m, v)| m.map(|m| m.score as f32 + v))
        .reduce(f32::max)
        .unwrap_or(0.0)
}

/// The expected best `reward + value(afterstate)` of the board after the
/// spawn on afterstate `after` (0 for a board with no move), the spawn a 4
/// with probability `p4`.
pub fn spawn_expectation(net: &Network, after: Board, p4: f32) -> f32 {
    let mut empty = after.empty_bits();
    let cells = empty.count_ones();
    if cells == 0 {
        return 0.0;
    }
    let mut sum = 0.0f32;
    while empty != 0 {
        let bit = empty & empty.wrapping_neg();
        empty ^= bit;
        // `bit` is the low bit of an empty cell's nibble: rank 1 is a 2,
        // rank 2 a 4.
        sum += (1.0 - p4) * best_move_value(net, Board(after.0 | bit));
        if p4 > 0.0 {
            sum += p4 * best_move_value(net, Board(after.0 | bit << 1));
        }
    }
    sum / cells as f32
}

/// The move of highest reward + [`spawn_expectation`] of its afterstate on
/// `board` (which has a legal move), with its afterstate and reward; ties
/// go to the first in [`Direction::ALL`] order.
pub fn lookahead(net: &Network, board: Board, p4: f32) -> (Direction, Board, f32) {
    let mut best: Option<(f32, Direction, Board, f32)> = None;
    for (dir, moved) in Direction::ALL.into_iter().zip(board.moves()) {
        let Some(m) = moved else { continue };
        let reward = m.score as f32;
        let value = reward + spawn_expectation(net, m.board, p4);
        if best.is_none_or(|(b, ..)| value > b) {
            best = Some((value, dir, m.board, reward));
        }
    }
    let (_, dir, after, reward) = best.expect("the game loop asks only when a move is legal");
    (dir, after, reward)
}

#[cfg(test)]
mod tests {
    use super::{lookahead, spawn_expectation};
    use crate::engine::{play_game, Board, Direction, RandomPlacer, TurnOrder, Variant};
    use crate::network::learn::{greedy, learn, Lesson};
    use crate::network::method::Method;
    use crate::network::tests::learn::fresh;
    use crate::network::value::Network;

    /// A network of 200 games of TD(0): values that differ board to board.
    fn learned_net() -> Network {
        let mut net = fresh(2);
        let lesson = Lesson {
            method: Method::PLAIN,
            alpha: 0.1,
            block: 200,
            starts: None,
        };
        learn(&mut net, None, &lesson, 200, |_, _, _| true);
        net
    }

    /// The boards a greedy game on `net` (seed 9, at most 300 moves) meets.
    fn boards_of_a_game(net: &Network) -> Vec<Board> {
        let mut boards = Vec::new();
        let mut policy = |b: Board| {
            boards.push(b);
            greedy(net, b).0
        };
        let order = TurnOrder {
            timing: Variant::CLASSIC.timing(),
            start_tiles: 2,
            move_limit: Some(300),
        };
        let mut placer = RandomPlacer::new(9, 0.1);
        play_game(order, Board::EMPTY, &mut policy, &mut placer, |_, _| {});
        boards
    }

    #[test]
    fn the_expectation_weighs_every_empty_cell_and_tile_alike() {
        let net = learned_net();
        for board in boards_of_a_game(&net) {
            let Some(m) = board.moves().into_iter().flatten().next() else {
                continue;
            };
            for p4 in [0.0f32, 0.1] {
                // Cell by cell through `place`, move by move through
                // `make_move`, each afterstate valued alone.
                let mut sum = 0.0f64;
                let mut cells = 0;
                for cell in 0..16 {
                    let mut at = 0.0f64;
                    for (rank, p) in [(1, 1.0 - p4), (2, p4)] {
                        let Ok(spawned) = m.board.place(cell, rank) else {
                            continue;
                        };
                        let best = Direction::ALL
                            .into_iter()
                            .filter_map(|d| spawned.make_move(d))
                            .map(|n| n.score as f64 + net.value(n.board) as f64)
                            .reduce(f64::max)
                            .unwrap_or(0.0);
                        at += f64::from(p) * best;
                    }
                    cells += u32::from(m.board.rank(cell) == 0);
                    sum += at;
                }
                let want = sum / f64::from(cells);
                let got = f64::from(spawn_expectation(&net, m.board, p4));
                assert!(
                    (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                    "{got} {want}"
                );
            }
        }
    }

    #[test]
    fn a_depth_1_search_plays_the_move_lookahead_plays() {
        // The search scores a leaf as points earned + value. Between the
        // moves of one root, points earned differ by the move's reward, the
        // next move's reward and the spawned tile, whose mean is the same
        // after every move; so the two choose alike.
        use crate::search::{Depth, SearchParams, Searcher};
        let net = learned_net();
        let params = SearchParams::new(Depth::Fixed(1), Variant::CLASSIC);
        let mut searcher = Searcher::new(12);
        let boards = boards_of_a_game(&net);
        assert!(boards.len() > 100);
        let (mut same, mut differs_from_greedy) = (0, 0);
        let n = boards.len();
        for b in boards {
            let d = searcher.decide(&net, b, &params).unwrap();
            let ahead = lookahead(&net, b, 0.1).0;
            // Ties within rounding (a move and its mirror image) may go
            // either way: the search's move is worth the best to within it.
            let worth = |dir: Direction| {
                let m = b.make_move(dir).unwrap();
                m.score as f32 + spawn_expectation(&net, m.board, 0.1)
            };
            let (theirs, ours) = (worth(d.dir), worth(ahead));
            assert!(ours - theirs <= 1e-5 * ours.abs(), "{b:?}: {ours} {theirs}");
            same += usize::from(d.dir == ahead);
            differs_from_greedy += usize::from(ahead != greedy(&net, b).0);
        }
        assert!(same >= n - n / 50, "{same} of {n}");
        assert!(differs_from_greedy > 0);
    }
}
