//! Learning a [`Network`] by temporal differences (TD(0) on afterstates).
//!
//! Each game is played greedily by the network being learned: on every
//! board the move of highest reward + value(afterstate). When the game
//! ends its afterstates are revisited from the last to the first, each
//! pulled toward what followed it:
//!
//! `value(a_t) += α · (r_{t+1} + value(a_{t+1}) − value(a_t))`
//!
//! with `value(a_T) += α · (0 − value(a_T))` for the last one (no points
//! come after it). The step is spread evenly over the weights the board
//! looks up. Going backwards carries a game's end to its opening in one
//! pass. Games are played one after another, each from the network the
//! last left: game i's spawns come from its seed (run seed, learning
//! stream, i), so a network after n games is a function of the run seed,
//! the tuples and α alone, whether it was learned in one piece or resumed.

use crate::engine::{
    play_from, play_game, Board, GameRecord, RandomPlacer, Start, TurnOrder, Variant,
};
use crate::seeds::{run_game_seed, Stream};

use super::value::Network;

/// The learning rate of a new network unless `learn --alpha` says otherwise.
pub const DEFAULT_ALPHA: f32 = 0.1;

/// What one block of games learned from left behind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BlockStats {
    /// Games learned from in all at the block's end.
    pub games: u64,
    /// Games in the block.
    pub block: u64,
    pub mean_score: f64,
    pub max_score: u64,
    /// Games of the block that reached 2048, 8192, 16384 and 32768.
    pub reached: [u64; 4],
}

/// Tiles whose reach [`BlockStats::reached`] counts.
pub const REACH_TILES: [u32; 4] = [2048, 8192, 16384, 32768];

impl BlockStats {
    fn add(&mut self, g: &GameRecord) {
        self.block += 1;
        self.mean_score += g.score as f64;
        self.max_score = self.max_score.max(g.score);
        for (n, &tile) in self.reached.iter_mut().zip(&REACH_TILES) {
            *n += u64::from(g.max_tile >= tile);
        }
    }
}

/// The seed of learning game `game` of a run seeded `seed`.
pub fn learning_seed(seed: u64, game: u64) -> u64 {
    run_game_seed(seed, Stream::Learning, 0, game)
}

/// Positions some learning games start from instead of the empty board, to
/// spend learning on a stage of the game that whole games reach rarely.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnStarts {
    /// The positions (a bank's stage); not empty.
    pub positions: Vec<Start>,
    /// The share of games that start from one of them, in (0, 1].
    pub share: f64,
}

impl LearnStarts {
    /// Where learning game `game` of a run seeded `seed` starts: `None` for
    /// the empty board. The draw has a seed of its own, so the game's spawns
    /// are those it would have from the empty board.
    pub fn pick(&self, seed: u64, game: u64) -> Option<Start> {
        let draw = run_game_seed(seed, Stream::Learning, 1, game);
        let unit = (draw >> 11) as f64 / (1u64 << 53) as f64;
        (unit < self.share).then(|| crate::bank::pick(&self.positions, draw))
    }
}

/// Plays one game greedily with `net` from `start` (`None`: the empty
/// board) and learns from it with rate `alpha`; `path` is scratch space for
/// the afterstates.
pub fn learn_game(
    net: &mut Network,
    variant: Variant,
    seed: u64,
    start: Option<Start>,
    alpha: f32,
    path: &mut Vec<(Board, f32)>,
) -> GameRecord {
    path.clear();
    let order = TurnOrder {
        timing: variant.timing(),
        start_tiles: variant.start_tiles(),
        move_limit: None,
    };
    let mut placer = RandomPlacer::new(seed, variant.p4());
    let record = {
        let net = &*net;
        let mut policy = |board: Board| {
            let (dir, after, reward) = greedy(net, board);
            path.push((after, reward));
            dir
        };
        match start {
            None => play_game(order, Board::EMPTY, &mut policy, &mut placer, |_, _| {}),
            Some(start) => play_from(order, start, &mut policy, &mut placer, |_, _| {}),
        }
    };
    let step = alpha / net.lookups() as f32;
    let mut target = 0.0f32;
    for &(after, reward) in path.iter().rev() {
        let error = target - net.value(after);
        net.adjust(after, step * error);
        target = reward + net.value(after);
    }
    record
}

/// The move of highest reward + value(afterstate) on `board` (which has a
/// legal move), with its afterstate and reward; ties go to the first in
/// [`crate::engine::Direction::ALL`] order.
pub fn greedy(net: &Network, board: Board) -> (crate::engine::Direction, Board, f32) {
    let mut best: Option<(f32, crate::engine::Direction, Board, f32)> = None;
    for (dir, moved) in crate::engine::Direction::ALL.into_iter().zip(board.moves()) {
        let Some(m) = moved else { continue };
        let reward = m.score as f32;
        let value = reward + net.value(m.board);
        if best.is_none_or(|(b, ..)| value > b) {
            best = Some((value, dir, m.board, reward));
        }
    }
    let (_, dir, after, reward) = best.expect("the game loop asks only when a move is legal");
    (dir, after, reward)
}

/// Learns from games `net.trained.games..to` of the network's run (its
/// seed and variant), in
/// blocks of `block` games, some from `starts` where given: `on_block` gets
/// each block's statistics once
/// the network holds it, and may stop the run by returning `false`.
pub fn learn(
    net: &mut Network,
    to: u64,
    block: u64,
    alpha: f32,
    starts: Option<&LearnStarts>,
    mut on_block: impl FnMut(&Network, &BlockStats) -> bool,
) {
    let mut path = Vec::new();
    net.trained.alpha = alpha;
    while net.trained.games < to {
        let end = (net.trained.games + block.max(1)).min(to);
        let mut stats = BlockStats::default();
        for game in net.trained.games..end {
            let seed = learning_seed(net.trained.seed, game);
            let start = starts.and_then(|s| s.pick(net.trained.seed, game));
            let record = learn_game(net, net.trained.variant, seed, start, alpha, &mut path);
            stats.add(&record);
        }
        net.trained.games = end;
        stats.games = end;
        stats.mean_score /= stats.block as f64;
        if !on_block(net, &stats) {
            return;
        }
    }
}
