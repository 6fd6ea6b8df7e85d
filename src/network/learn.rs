//! Learning a network by temporal differences: TD(λ), temporal coherence
//! and restarts, on every core, with a result that does not depend on the
//! thread count.
//!
//! A learning game is played greedily (or one chance layer deep, with
//! lookahead: [`super::lookahead`]), recording each afterstate with the
//! reward of the move that made it; then it is learned from going back over
//! it, from its last afterstate, with `G` the target of the afterstate after
//! the current one (0 after the last):
//!
//! `δ = G − V(a_t)`; every weight `a_t` looks up moves by its rate × δ;
//! then `G ← r_t + λ·G + (1 − λ)·V(a_t)`, with `a_t`'s value as updated.
//!
//! With λ = 0 this is TD(0), the one-step target `r + V(a)`; a larger λ
//! carries more of the game's actual points back. A weight's rate is
//! `α / lookups` and, with temporal coherence, that times `|E| / A`, where
//! `E` is the sum of the errors applied to the weight and `A` the sum of
//! their sizes (1 while A is 0): a weight whose errors keep one sign learns
//! at full rate, one whose errors cancel slows down.
//!
//! With a stop tile ([`Method::until`]), a segment ends at its first
//! afterstate holding that tile: that afterstate is not learned from, and
//! `G` before it is its reward plus its value as read, where the game would
//! go on from. The stages of such boards are read and never stepped.
//!
//! A restart goes on from the middle afterstate of the segment just played
//! (while it had at least [`RESTART_MIN_MOVES`] moves), with the game's own
//! random spawns, so the late game is learned from more often than the
//! opening. A game's statistics are those of its first segment.
//!
//! **Rounds.** Played one after another, game `g` is played on the network
//! game `g − 1` left ([`Schedule::Sequential`], the learner of every
//! network learned before rounds existed). In rounds of `R` games
//! ([`Schedule::Rounds`]), the games of a round are played in parallel on
//! the network as it stood two rounds before (the block's start network for
//! its first two rounds), and learned from game by game in order on the
//! learning weights, as they finish. The games are played on a copy of
//! them, which takes over the lines of weights a round changed once no
//! game plays on it as it stood: a pipeline with no barrier between rounds
//! (`network::rounds`). Every step is in a fixed order, so the network after a
//! block is a function of its start, the games' seeds and the method: the
//! same on 1 thread or 16.
//!
//! **What learns.** With temporal coherence, the learning weights are held
//! beside their sums ([`Coherence`]), so that a step finds a weight and
//! its sums in one cache line, and the network itself is the copy games
//! are played on (brought up to date after each game one after another,
//! after each round in rounds). Without it, the network learns, and rounds
//! are played on a copy of it. A step computes its board's lookups once,
//! when it fetches them ahead, for all it does with them: value, step,
//! mark, value again.

use super::changed::Changed;
use super::coherence::Coherence;
use super::learned::Learned;
use super::lookahead::lookahead;
use super::lookups::{Lookups, Shape};
use super::method::{Method, Schedule};
use super::rounds::in_rounds;
use super::staged::Staged;
use super::value::Network;
use crate::engine::{
    rank_of, Board, GameRecord, Placer, RandomPlacer, Start, Stepper, Timing, TurnOrder, Variant,
};
use crate::seeds::{run_game_seed, Stream};

/// A segment shorter than this is not restarted from.
pub const RESTART_MIN_MOVES: usize = 10;

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
    /// Moves played and learned from in the block, restarts included.
    pub moves: u64,
}

/// Tiles whose reach [`BlockStats::reached`] counts.
pub const REACH_TILES: [u32; 4] = [2048, 8192, 16384, 32768];

impl BlockStats {
    pub(super) fn add(&mut self, played: &Played) {
        let g = &played.record;
        self.block += 1;
        self.moves += played.path.len() as u64;
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
        (unit < self.share).then(|| Start::pick(&self.positions, draw))
    }
}

/// The move of highest reward + value(afterstate) on `board` (which has a
/// legal move), with its afterstate and reward; ties go to the first in
/// [`crate::engine::Direction::ALL`] order.
pub fn greedy(net: &Network, board: Board) -> (crate::engine::Direction, Board, f32) {
    let mut best: Option<(f32, crate::engine::Direction, Board, f32)> = None;
    let moves = board.moves();
    let children = moves.map(|m| m.map_or((board, board), |m| (m.board, m.board.transpose())));
    let values = net.values_of(&children, moves.map(|m| m.is_some()));
    for ((dir, moved), value) in crate::engine::Direction::ALL
        .into_iter()
        .zip(moves)
        .zip(values)
    {
        let Some(m) = moved else { continue };
        let reward = m.score as f32;
        let value = reward + value;
        if best.is_none_or(|(b, ..)| value > b) {
            best = Some((value, dir, m.board, reward));
        }
    }
    let (_, dir, after, reward) = best.expect("the game loop asks only when a move is legal");
    (dir, after, reward)
}

/// One learning game played: its record, and its afterstates with the
/// reward of the move that made each, segment after segment.
pub(super) struct Played {
    pub(super) record: GameRecord,
    pub(super) path: Vec<(Board, f32)>,
    /// Where each segment of `path` ends.
    pub(super) ends: Vec<usize>,
}

/// Plays learning game `seed` on `net` from `start` (`None`: the empty
/// board), greedily or with lookahead, restarts included, as `method` says.
pub(super) fn play(
    net: &Network,
    variant: Variant,
    seed: u64,
    start: Option<Start>,
    method: Method,
) -> Played {
    let mut placer = RandomPlacer::new(seed, variant.p4());
    let order = TurnOrder {
        timing: variant.timing(),
        start_tiles: variant.start_tiles(),
        move_limit: None,
    };
    let p4 = variant.p4() as f32;
    let mut choose = |board: Board| {
        if method.lookahead {
            lookahead(net, board, p4)
        } else {
            greedy(net, board)
        }
    };
    let stop = stop_rank(method);
    let mut path = Vec::new();
    let first = Stepper::new(order, start, &mut placer);
    let record = segment(first, &mut choose, stop, &mut path);
    let mut ends = vec![path.len()];
    // A restart places the spawn due after the afterstate, then plays.
    let restart = TurnOrder {
        start_tiles: u32::from(variant.timing() == Timing::AfterMove),
        ..order
    };
    let mut begin = 0;
    while method.restarts && path.len() - begin >= RESTART_MIN_MOVES {
        let from = path[(begin + path.len()) / 2].0;
        begin = path.len();
        segment(
            Stepper::on(restart, from, &mut placer),
            &mut choose,
            stop,
            &mut path,
        );
        ends.push(path.len());
    }
    Played { record, path, ends }
}

/// The rank of the method's stop tile, if it has one.
fn stop_rank(method: Method) -> Option<u8> {
    method.until.and_then(rank_of)
}

/// Plays `game` with `choose`, its afterstates onto `path`, to its end or
/// to its first afterstate holding a tile of rank `stop` or more: so a
/// segment's last afterstate holds such a tile if and only if it stopped
/// there.
fn segment<P: Placer>(
    mut game: Stepper<P>,
    choose: &mut impl FnMut(Board) -> (crate::engine::Direction, Board, f32),
    stop: Option<u8>,
    path: &mut Vec<(Board, f32)>,
) -> GameRecord {
    while let Some(board) = game.board() {
        let (dir, after, reward) = choose(board);
        path.push((after, reward));
        game.play(dir);
        if stop.is_some_and(|rank| after.max_rank() >= rank) {
            return game.stop();
        }
    }
    game.record().expect("a game with no move due is over")
}

/// How many boards back the learner fetches the weights it will read.
const LEARN_AHEAD: usize = 2;

/// Learns from a game played with `method` on `learned` (of shape
/// `shape`): each segment from its end back, marking in `changed`, where
/// given, the weights it moves.
pub(super) fn learn_played<L: Learned>(
    learned: &mut L,
    shape: &Shape,
    mut changed: Option<&mut Changed>,
    step: f32,
    method: Method,
    game: &Played,
) {
    let (lambda, stop) = (method.lambda, stop_rank(method));
    // A segment's last afterstate holds its largest tile: every stage the
    // game reached is in use before any of it is learned.
    for &end in &game.ends {
        if let Some(&(last, _)) = end.checked_sub(1).and_then(|k| game.path.get(k)) {
            learned.promote_to(shape, last);
        }
    }
    let opened = learned.opened();
    // The lookups of the boards fetched and not yet learned: board k's at
    // k modulo the ring's length.
    const RING: usize = LEARN_AHEAD + 1;
    let mut ring = [Lookups::NONE; RING];
    let mut begin = 0;
    for &end in &game.ends {
        let segment = &game.path[begin..end];
        let stopped = stop.is_some_and(|rank| {
            segment
                .last()
                .is_some_and(|(last, _)| last.max_rank() >= rank)
        });
        let fetch = |learned: &L, ring: &mut [Lookups; RING], k: usize| {
            ring[k % RING] = shape.lookups(segment[k].0, opened);
            learned.fetch(&ring[k % RING]);
        };
        // The last boards fetched before any is learned; then, at each step,
        // the board LEARN_AHEAD steps further back.
        for k in segment.len().saturating_sub(LEARN_AHEAD)..segment.len() {
            fetch(learned, &mut ring, k);
        }
        let mut target = 0.0f32;
        for k in (0..segment.len()).rev() {
            if let Some(before) = k.checked_sub(LEARN_AHEAD) {
                fetch(learned, &mut ring, before);
            }
            let (at, reward) = (&ring[k % RING], segment[k].1);
            if stopped && k + 1 == segment.len() {
                // The stop afterstate: its value, read, is where the game
                // would go on from.
                target = reward + learned.value(at);
                continue;
            }
            let error = target - learned.value(at);
            learned.step(at, step, error);
            if let Some(changed) = changed.as_deref_mut() {
                changed.mark(at);
            }
            target = reward + lambda * target + (1.0 - lambda) * learned.value(at);
        }
        begin = end;
    }
}

/// What a run of learning is given besides the network: its method, its
/// rate, its block and any start positions.
#[derive(Clone, Copy, Debug)]
pub struct Lesson<'a> {
    pub method: Method,
    /// α: the step of a game's errors (spread over the weights a board
    /// looks up).
    pub alpha: f32,
    /// Games per block: [`learn`] reports after each. A whole number of
    /// rounds.
    pub block: u64,
    pub starts: Option<&'a LearnStarts>,
}

/// Plays learning game `game` of `on`'s run on `on`.
fn play_learning_game(on: &Network, lesson: &Lesson, game: u64) -> Played {
    let (seed, variant) = (on.trained.seed, on.trained.variant);
    let start = lesson.starts.and_then(|s| s.pick(seed, game));
    play(on, variant, learning_seed(seed, game), start, lesson.method)
}

/// What learns in rounds: the weights, their marks, and the statistics of
/// the games learned from.
struct Learner<'a, L> {
    learned: &'a mut L,
    changed: &'a mut Changed,
    stats: BlockStats,
}

/// Learns games `games` in rounds (see [`super::rounds`]): played on
/// `on`, learned on `learned`, marking in `changed` the weights it moves.
fn in_rounds_on<L: Learned>(
    learned: &mut L,
    on: &mut Network,
    changed: &mut Changed,
    games: (u64, u64),
    lesson: &Lesson,
    shape: &Shape,
    step: f32,
) -> BlockStats {
    let mut learner = Learner {
        learned,
        changed,
        stats: BlockStats::default(),
    };
    in_rounds(
        &mut learner,
        on,
        games,
        lesson.method.schedule.round(),
        |on, game| play_learning_game(on, lesson, game),
        |at: &mut Learner<L>, played: Played| {
            let changed = Some(&mut *at.changed);
            learn_played(at.learned, shape, changed, step, lesson.method, &played);
            at.stats.add(&played);
        },
        |at, staged| at.changed.stage(&*at.learned, staged),
    );
    learner.stats
}

/// A run of learning as it goes from block to block.
struct Run<'a> {
    lesson: &'a Lesson<'a>,
    /// A weight's step per unit of error: α over the lookups.
    step: f32,
    shape: Shape,
    /// The weights moved since the network played on caught up: with
    /// coherence, or in rounds.
    changed: Option<Changed>,
    /// What plain rounds are played on (with coherence, the network is):
    /// a copy made once, equal to the network at every block's end.
    copy: Option<Network>,
    /// What the network takes over from the coherence after each game
    /// played one after another.
    staged: Staged,
}

impl Run<'_> {
    /// Learns `net` from games `games.0..games.1`. With coherence, what
    /// learns is `coherence`, the weights held beside their sums; `net` is
    /// what games are played on, brought up to them after each game (one
    /// after another) or round.
    fn block(
        &mut self,
        net: &mut Network,
        coherence: Option<&mut Coherence>,
        games: (u64, u64),
    ) -> BlockStats {
        let (lesson, step, shape) = (self.lesson, self.step, &self.shape);
        let changed = self.changed.as_mut();
        match (lesson.method.schedule, coherence) {
            (Schedule::Sequential, mut coherence) => {
                let mut changed = changed;
                let mut stats = BlockStats::default();
                for game in games.0..games.1 {
                    let played = play_learning_game(net, lesson, game);
                    match (coherence.as_deref_mut(), changed.as_deref_mut()) {
                        (Some(coh), Some(changed)) => {
                            learn_played(coh, shape, Some(changed), step, lesson.method, &played);
                            changed.stage(coh, &mut self.staged);
                            self.staged.apply(net);
                        }
                        _ => learn_played(net, shape, None, step, lesson.method, &played),
                    }
                    stats.add(&played);
                }
                stats
            }
            (Schedule::Rounds(_), None) => {
                let on = self.copy.as_mut().expect("a copy to play plain rounds on");
                let changed = changed.expect("marks for rounds");
                in_rounds_on(net, on, changed, games, lesson, shape, step)
            }
            (Schedule::Rounds(_), Some(coh)) => {
                let changed = changed.expect("marks for rounds");
                in_rounds_on(coh, net, changed, games, lesson, shape, step)
            }
        }
    }
}

/// Learns `net` from its games `net.trained.games..to` as `lesson` says,
/// reporting each block to `on_block` (with the network and its coherence
/// sums as they stand), which may stop the run by returning `false`.
/// `coherence` holds the accumulated errors where the method uses them (and
/// only then).
pub fn learn(
    net: &mut Network,
    mut coherence: Option<&mut Coherence>,
    lesson: &Lesson,
    to: u64,
    mut on_block: impl FnMut(&Network, Option<&Coherence>, &BlockStats) -> bool,
) {
    let method = lesson.method;
    let round = method.schedule.round();
    assert!(
        round >= 1 && lesson.block.is_multiple_of(round),
        "a block is whole rounds"
    );
    assert_eq!(
        coherence.is_some(),
        method.coherence,
        "coherence sums iff the method"
    );
    net.trained.alpha = lesson.alpha;
    net.trained.method = method;
    if let Some(coh) = coherence.as_deref_mut() {
        coh.hold(net);
    }
    let rounds = matches!(method.schedule, Schedule::Rounds(_));
    let mut run = Run {
        lesson,
        step: lesson.alpha / net.lookups() as f32,
        shape: Shape::of(net),
        changed: (rounds || method.coherence).then(|| Changed::new(net)),
        copy: (rounds && !method.coherence).then(|| net.clone()),
        staged: Staged::default(),
    };
    while net.trained.games < to {
        let end = (net.trained.games + lesson.block).min(to);
        let mut stats = run.block(net, coherence.as_deref_mut(), (net.trained.games, end));
        debug_assert!(
            run.copy
                .as_ref()
                .is_none_or(|copy| copy.tables() == net.tables() && copy.opened() == net.opened()),
            "the copy rounds are played on follows the network"
        );
        net.trained.games = end;
        stats.games = end;
        stats.mean_score /= stats.block as f64;
        if !on_block(net, coherence.as_deref(), &stats) {
            return;
        }
    }
}
