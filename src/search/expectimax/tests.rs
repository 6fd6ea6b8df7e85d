use super::*;
use crate::engine::Variant;
use crate::heuristic::Weights;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn params_auto() -> SearchParams {
    SearchParams::new(Depth::Auto, Variant::CLASSIC)
}

fn params(depth: u32) -> SearchParams {
    SearchParams::new(Depth::Fixed(depth), Variant::CLASSIC)
}

/// The boards after each spawn on `b`, with their probabilities.
fn spawns(b: Board, p4: f64) -> Vec<(Board, f64)> {
    let empties: Vec<usize> = (0..16).filter(|&i| b.rank(i) == 0).collect();
    let mut out = Vec::new();
    for &cell in &empties {
        for (rank, p) in [(1u8, 1.0 - p4), (2, p4)] {
            if p > 0.0 {
                out.push((b.place(cell, rank).unwrap(), p / empties.len() as f64));
            }
        }
    }
    out
}

/// Expectimax written plainly, without tables, cutoff-free, for small
/// depths; a board with no legal move is worth `lost`. Also returns the
/// lowest heuristic score of the boards it scored.
fn reference_walk(h: &impl Evaluate, board: Board, depth: u32, p4: f64, lost: f64) -> (f64, f64) {
    let mut best: Option<f64> = None;
    let mut lowest = f64::INFINITY;
    for dir in Direction::ALL {
        if let Some(m) = board.make_move(dir) {
            let (v, low) = if depth == 0 {
                let v = f64::from(h.eval_pair(m.board, m.board.transpose()));
                (v, v)
            } else {
                spawns(m.board, p4)
                    .into_iter()
                    .fold((0.0, f64::INFINITY), |(sum, low), (b, p)| {
                        let (v, l) = reference_walk(h, b, depth - 1, p4, lost);
                        (sum + p * v, low.min(l))
                    })
            };
            best = Some(best.map_or(v, |b: f64| b.max(v)));
            lowest = lowest.min(low);
        }
    }
    (best.unwrap_or(lost), lowest)
}

fn reference(h: &impl Evaluate, board: Board, depth: u32, p4: f64, lost: f64) -> f64 {
    reference_walk(h, board, depth, p4, lost).0
}

/// The lowest heuristic score of the boards [`reference`] scores.
fn reference_lowest_leaf(h: &Heuristic, board: Board, depth: u32, p4: f64) -> f64 {
    reference_walk(h, board, depth, p4, 0.0).1
}

/// Weights whose every score is below 0 and that give a lost board
/// nothing to fear: no lost penalty, and a heavy penalty on tile sums.
fn gloomy_weights() -> Weights {
    Weights {
        lost_penalty: 0.0,
        empty: 0.0,
        merges: 0.0,
        sum: 50.0,
        ..Weights::nneonneo()
    }
}

/// Moving up leaves one empty cell, and any tile spawned there ends the
/// game; moving left keeps the game going. (Values, row-major.)
const UP_LOSES: [u32; 16] = [0, 4, 32, 8, 8, 16, 2, 4, 2, 4, 16, 8, 8, 16, 2, 4];

#[test]
fn values_match_a_plain_expectimax() {
    let h = Heuristic::new(&Weights::nneonneo());
    let board = Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap();
    let mut s = Searcher::new(12);
    for depth in 0..=2 {
        let mut p = params(depth);
        p.prob_cutoff = 0.0;
        let d = s.decide(&h, board, &p).unwrap();
        let expect = reference(&h, board, depth, 0.1, 0.0);
        assert!(
            (f64::from(d.value) - expect).abs() < 1e-4 * expect,
            "depth {depth}: {} vs {expect}",
            d.value
        );
    }
}

#[test]
fn a_network_searches_as_a_plain_expectimax_scores_it() {
    // A network with some learning in it, so that values differ by board.
    let tuples = crate::network::named_tuples("lines-squares").unwrap();
    let mut net = crate::network::Network::new(tuples, Variant::CLASSIC, 3, 0.1).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..2000 {
        let b = Board::from_ranks(std::array::from_fn(|_| rng.gen_range(0..8)));
        net.adjust(b, rng.gen_range(-5.0..5.0));
    }
    let board = Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap();
    let mut s = Searcher::new(12);
    for depth in 0..=2 {
        let mut p = params(depth);
        p.prob_cutoff = 0.0;
        let d = s.decide(&net, board, &p).unwrap();
        let expect = reference(&net, board, depth, 0.1, 0.0);
        assert!(
            (f64::from(d.value) - expect).abs() < 1e-4 * expect.abs(),
            "depth {depth}: {} vs {expect}",
            d.value
        );
    }
}

#[test]
fn a_lost_board_ranks_below_every_live_one_whatever_the_weights() {
    let board = Board::from_values(UP_LOSES).unwrap();
    let up = board.shift(Direction::Up);
    for rank in [1, 2] {
        let cell = (0..16).find(|&i| up.rank(i) == 0).unwrap();
        assert!(!up.place(cell, rank).unwrap().has_move());
    }
    let mut edges = Weights::nneonneo();
    edges.lost_penalty = 0.0;
    edges.edge = -5_000.0;
    edges.corner = -5_000.0;
    let zero = Weights::zeroed();
    for (name, w) in [
        ("gloomy", gloomy_weights()),
        ("edges", edges),
        ("zero", zero),
    ] {
        let h = Heuristic::new(&w);
        for depth in 1..=3 {
            let d = Searcher::new(12).decide(&h, board, &params(depth)).unwrap();
            assert_eq!(d.dir, Direction::Left, "{name} weights, depth {depth}");
        }
    }
}

#[test]
fn lost_boards_inside_the_tree_score_below_the_lowest_leaf() {
    // Two chance layers on a nearly full board reach lost boards below
    // the root; every value matches a plain expectimax in which a lost
    // board is worth 2 × (lowest leaf) − 1.
    let board = Board::from_values(UP_LOSES).unwrap();
    let h = Heuristic::new(&gloomy_weights());
    let mut s = Searcher::new(12);
    for depth in 1..=2 {
        let mut p = params(depth);
        p.prob_cutoff = 0.0;
        let lowest = reference_lowest_leaf(&h, board, depth, 0.1);
        assert!(lowest < 0.0);
        let expect = reference(&h, board, depth, 0.1, 2.0 * lowest - 1.0);
        let d = s.decide(&h, board, &p).unwrap();
        assert!(
            (f64::from(d.value) - expect).abs() < 1e-4 * expect.abs(),
            "depth {depth}: {} vs {expect}",
            d.value
        );
    }
    // With the reference weights every board scores above 0, so a lost
    // board is worth 0, the reference's own value.
    let h = Heuristic::new(&Weights::nneonneo());
    let mut p = params(2);
    p.prob_cutoff = 0.0;
    assert!(reference_lowest_leaf(&h, board, 2, 0.1) > 0.0);
    let expect = reference(&h, board, 2, 0.1, 0.0);
    let d = s.decide(&h, board, &p).unwrap();
    assert!((f64::from(d.value) - expect).abs() < 1e-4 * expect);
}

#[test]
fn the_dead_end_cost_lowers_every_lost_board_by_the_roots_largest_tile() {
    let board = Board::from_values(UP_LOSES).unwrap();
    let w = Weights {
        dead_end: 40.0,
        ..Weights::nneonneo()
    };
    let h = Heuristic::new(&w);
    // The largest tile is 32: v = 5·2^5, times 40.
    let cost = 40.0 * 5.0 * 32.0;
    assert_eq!(f64::from(h.dead_end_cost(board)), cost);
    let mut s = Searcher::new(12);
    for depth in 1..=2 {
        let mut p = params(depth);
        p.prob_cutoff = 0.0;
        // Every live board scores above 0: a lost board is worth 0 − cost.
        assert!(reference_lowest_leaf(&h, board, depth, 0.1) > 0.0);
        let expect = reference(&h, board, depth, 0.1, -cost);
        let without = reference(&h, board, depth, 0.1, 0.0);
        let d = s.decide(&h, board, &p).unwrap();
        assert!(
            (f64::from(d.value) - expect).abs() < 1e-4 * expect.abs(),
            "depth {depth}: {} vs {expect}",
            d.value
        );
        assert!(expect < without, "depth {depth}");
    }
}

#[test]
fn pruning_scores_weak_chance_nodes_below_the_roots_moves_as_leaves() {
    let h = Heuristic::new(&Weights::nneonneo());
    let board = Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap();
    let mut s = Searcher::new(14);
    let plain = s.decide(&h, board, &params(3)).unwrap();
    let plain_moves = s.stats.moves;
    // A threshold no board reaches: every chance node under the root's
    // moves is a leaf, so depth 3 answers as depth 1 does.
    let mut p = params(3);
    p.prune_below = 1e6;
    let shallow = s.decide_to(&h, board, &params(1), 1).unwrap();
    let before = s.stats.moves;
    let pruned = s.decide(&h, board, &p).unwrap();
    assert_eq!((pruned.dir, pruned.value), (shallow.dir, shallow.value));
    assert!(s.stats.moves - before < plain_moves / 10);
    // A threshold every board passes prunes nothing.
    p.prune_below = 1e-9;
    assert_eq!(s.decide(&h, board, &p).unwrap(), plain);
    // In between: fewer moves tried than the full search, the same every time.
    let w = Weights {
        ordered_right: 1.0,
        ordered_wrong: 12.0,
        ordered_gap: 12.0,
        ..Weights::zeroed()
    };
    let h = Heuristic::new(&w);
    let mut full = Searcher::new(14);
    full.decide(&h, board, &params(3)).unwrap();
    p.prune_below = 0.5;
    let mut cut = Searcher::new(14);
    let first = cut.decide(&h, board, &p).unwrap();
    assert!(cut.stats.moves < full.stats.moves, "{:?}", cut.stats);
    assert_eq!(Searcher::new(10).decide(&h, board, &p).unwrap(), first);
}

#[test]
fn a_live_move_with_a_negative_value_beats_no_move() {
    // Every score below 0: a max node's value is its best move, not 0.
    let board = Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap();
    let h = Heuristic::new(&gloomy_weights());
    let mut s = Searcher::new(12);
    for depth in 0..=2 {
        let mut p = params(depth);
        p.prob_cutoff = 0.0;
        let d = s.decide(&h, board, &p).unwrap();
        assert!(d.value < 0.0);
        let expect = reference(&h, board, depth, 0.1, f64::NEG_INFINITY);
        assert!(
            (f64::from(d.value) - expect).abs() < 1e-4 * expect.abs(),
            "depth {depth}: {} vs {expect}",
            d.value
        );
    }
}

#[test]
fn the_root_always_plays_a_move_that_changes_the_board() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let weights = [
        Weights::nneonneo(),
        gloomy_weights(),
        Weights {
            lost_penalty: -1e9,
            ..Weights::nneonneo()
        },
    ];
    let mut s = Searcher::new(12);
    for _ in 0..300 {
        let ranks: [u8; 16] = std::array::from_fn(|_| rng.gen_range(0..=6));
        let board = Board::from_ranks(ranks);
        for w in &weights {
            let h = Heuristic::new(w);
            for depth in 0..=2 {
                match s.decide(&h, board, &params(depth)) {
                    Some(d) => assert_ne!(board.shift(d.dir), board, "{board:?}"),
                    None => assert!(!board.has_move()),
                }
            }
        }
    }
}

#[test]
fn no_legal_move_no_decision() {
    let full = Board::from_values([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]).unwrap();
    let h = Heuristic::new(&Weights::nneonneo());
    assert_eq!(Searcher::new(8).decide(&h, full, &params(2)), None);
}

#[test]
fn the_table_does_not_change_decisions_between_runs() {
    let h = Heuristic::new(&Weights::nneonneo());
    let board = Board::from_values([0, 0, 2, 4, 0, 2, 8, 16, 0, 0, 4, 64, 2, 8, 32, 128]).unwrap();
    let mut s = Searcher::new(14);
    let first = s.decide(&h, board, &params(3)).unwrap();
    for _ in 0..3 {
        assert_eq!(s.decide(&h, board, &params(3)).unwrap(), first);
    }
    assert_eq!(
        Searcher::new(10).decide(&h, board, &params(2)),
        Searcher::new(16).decide(&h, board, &params(2))
    );
}

#[test]
fn auto_depth_follows_the_reference_rule() {
    let few = Board::from_values([2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(params_auto().limit(few), 3);
    let many = Board::from_ranks([1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(params_auto().limit(many), 5);
    let wider = super::super::AutoRule {
        min_depth: 2,
        offset: 4,
    };
    assert_eq!(Depth::Auto.limit(few, wider), 2);
    assert_eq!(Depth::Auto.limit(many, wider), 3);
}

#[test]
fn move_values_are_each_moves_value_and_the_decision_is_their_best() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let weights = [Weights::nneonneo(), gloomy_weights()];
    let mut s = Searcher::new(14);
    for _ in 0..100 {
        let ranks: [u8; 16] = std::array::from_fn(|_| rng.gen_range(0..=5));
        let board = Board::from_ranks(ranks);
        for w in &weights {
            let h = Heuristic::new(w);
            for depth in 0..=2 {
                let values = s.move_values(&h, board, &params(depth), depth);
                let decision = s.decide_to(&h, board, &params(depth), depth);
                assert_eq!(
                    pick(&values).map(|(k, v)| (Direction::ALL[k], v)),
                    decision.map(|d| (d.dir, d.value)),
                    "{board:?}"
                );
                for (k, v) in values.iter().enumerate() {
                    assert_eq!(v.is_some(), board.can_move(Direction::ALL[k]));
                }
            }
        }
    }
    // Where lost boards send the search round again, every move's value,
    // not only the best one's, is the plain expectimax value of the move
    // with a lost board worth 2 × (lowest leaf) − 1: on crowded boards
    // with weights that score every board below 0.
    let h = Heuristic::new(&gloomy_weights());
    let mut lost_inside = 0;
    for _ in 0..300 {
        let ranks: [u8; 16] = std::array::from_fn(|_| {
            if rng.gen_bool(0.2) {
                0
            } else {
                rng.gen_range(1..=6)
            }
        });
        let board = Board::from_ranks(ranks);
        for depth in 1..=2 {
            let mut p = params(depth);
            p.prob_cutoff = 0.0;
            let lowest = reference_lowest_leaf(&h, board, depth, 0.1);
            let lost = 2.0 * lowest - 1.0;
            let values = s.move_values(&h, board, &p, depth);
            for (k, dir) in Direction::ALL.into_iter().enumerate() {
                let Some(m) = board.make_move(dir) else {
                    assert_eq!(values[k], None);
                    continue;
                };
                let expect: f64 = spawns(m.board, 0.1)
                    .into_iter()
                    .map(|(b, p)| p * reference(&h, b, depth - 1, 0.1, lost))
                    .sum();
                let got = f64::from(values[k].unwrap());
                assert!(
                    (got - expect).abs() <= 1e-4 * expect.abs(),
                    "{board:?} depth {depth}, {dir}: {got} vs {expect}"
                );
                // A value that lost boards went into.
                let at_zero: f64 = spawns(m.board, 0.1)
                    .into_iter()
                    .map(|(b, p)| p * reference(&h, b, depth - 1, 0.1, 0.0))
                    .sum();
                lost_inside += usize::from(expect != at_zero);
            }
        }
    }
    assert!(lost_inside >= 20, "{lost_inside}");
}

/// The board the budget tests search.
fn budget_board() -> Board {
    Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap()
}

/// A budget enough for every depth gives the answer of a plain search to
/// the deepest.
fn assert_an_ample_budget_gives_the_plain_answer(
    s: &mut Searcher,
    h: &Heuristic,
    p: &SearchParams,
) {
    let board = budget_board();
    let deep = s.decide(h, board, p).unwrap();
    let ample = s
        .decide_within(h, board, p, Budget::Nodes(u64::MAX))
        .unwrap();
    assert_eq!(
        (ample.dir, ample.depth, ample.value),
        (deep.dir, deep.depth, deep.value)
    );
}

#[test]
fn a_gambled_deeper_search_is_given_up_when_the_budget_runs_out() {
    let h = Heuristic::new(&Weights::nneonneo());
    let board = budget_board();
    let plain = params(4);
    let gambler = SearchParams {
        deepen_gamble: 1e6,
        ..plain
    };
    let mut s = Searcher::new(16);
    // With budget to spare nothing is given up.
    assert_an_ample_budget_gives_the_plain_answer(&mut s, &h, &gambler);
    for budget in [50, 3_000, 40_000] {
        let before = s.stats.moves;
        let d = s
            .decide_within(&h, board, &gambler, Budget::Nodes(budget))
            .unwrap();
        let spent = s.stats.moves - before;
        // Every depth is started, so the budget is spent, and the search
        // that ran past it was stopped within a last layer's moves.
        assert!(
            spent >= budget && spent < budget + 2_000,
            "{budget}: {spent}"
        );
        // The answer is the last finished depth's, the same in any
        // searcher, at least as deep as without the gamble.
        assert!(d.depth < 4, "{budget}: {d:?}");
        assert_eq!(Some(d), s.decide_to(&h, board, &plain, d.depth));
        let fresh = Searcher::new(16).decide_within(&h, board, &gambler, Budget::Nodes(budget));
        assert_eq!(Some(d), fresh);
        let cautious = s
            .decide_within(&h, board, &plain, Budget::Nodes(budget))
            .unwrap();
        assert!(d.depth >= cautious.depth, "{budget}: {d:?} {cautious:?}");
    }
}

#[test]
fn a_stop_past_its_deadline_or_its_moves_stays_stopped() {
    let mut at = Stop::at(Instant::now());
    assert!(at.check_at > 0, "the clock is first read after some moves");
    assert!(at.now(CLOCK_CHECK_MOVES));
    assert!(at.now(0) && at.check_at == 0);
    let mut later = Stop::at(Instant::now() + Duration::from_secs(3600));
    assert!(!later.now(CLOCK_CHECK_MOVES));
    assert_eq!(later.check_at, 2 * CLOCK_CHECK_MOVES);
    let mut after = Stop::after_moves(100);
    assert_eq!(after.check_at, 100);
    assert!(!after.now(99) && after.now(100) && after.now(0));
    let mut never = Stop::NEVER;
    assert_eq!(never.check_at, u64::MAX);
    assert!(!never.now(u64::MAX - 1));
}

#[test]
fn a_node_budget_deepens_as_far_as_it_allows_and_repeats_itself() {
    let h = Heuristic::new(&Weights::nneonneo());
    let board = budget_board();
    let p = params(3);
    let mut s = Searcher::new(16);
    assert_an_ample_budget_gives_the_plain_answer(&mut s, &h, &p);
    // Too little for depth 1: the depth-0 answer.
    let shallow = s.decide_to(&h, board, &p, 0).unwrap();
    let tiny = s.decide_within(&h, board, &p, Budget::Nodes(8)).unwrap();
    assert_eq!((tiny.dir, tiny.depth), (shallow.dir, 0));
    // In between, a depth between, the same every time, in any searcher.
    let mid = s
        .decide_within(&h, board, &p, Budget::Nodes(3_000))
        .unwrap();
    let again = Searcher::new(16)
        .decide_within(&h, board, &p, Budget::Nodes(3_000))
        .unwrap();
    assert_eq!(mid, again);
    assert!(mid.depth >= 1 && mid.depth < 3, "{mid:?}");
}

#[test]
fn a_root_at_the_downgrade_threshold_is_searched_as_its_downgraded_board() {
    let h = Heuristic::new(&Weights::nneonneo());
    let b = Board::from_values([
        32768, 16384, 4096, 2048, //
        2, 4, 8, 16, //
        0, 0, 2, 0, //
        0, 0, 0, 2, //
    ])
    .unwrap();
    let mut on = params(2);
    on.downgrade_at = 15;
    let down = downgraded(b, 15);
    assert_ne!(down, b);
    for depth in [0, 2] {
        let mut s = Searcher::new(12);
        let real = s.move_values(&h, b, &on, depth);
        let seen = s.move_values(&h, down, &params(2), depth);
        assert_eq!(real, seen, "depth {depth}");
        assert_eq!(
            s.decide_to(&h, b, &on, depth),
            s.decide_to(&h, down, &params(2), depth)
        );
    }
    // Off, the real board is searched.
    let mut s = Searcher::new(12);
    assert_ne!(
        s.move_values(&h, b, &params(2), 2),
        s.move_values(&h, down, &params(2), 2)
    );
}

/// The heuristic reading every board as its downgraded form from `at` on,
/// scored whole (no line tables for the last layer): what a search with
/// `leaf_downgrade_at` = `at` must see at its horizon.
struct ReadsDowngraded<'h>(&'h Heuristic, u8);

impl Evaluate for ReadsDowngraded<'_> {
    fn eval_pair(&self, board: Board, _: Board) -> f32 {
        let seen = downgraded(board, self.1);
        self.0.eval_pair(seen, seen.transpose())
    }

    fn dead_end_cost(&self, root: Board) -> f32 {
        self.0.dead_end_cost(root)
    }

    fn largest_tile_value(&self, board: Board) -> f32 {
        self.0.largest_tile_value(board)
    }
}

#[test]
fn leaves_at_the_leaf_downgrade_threshold_are_scored_as_their_downgraded_boards() {
    let h = Heuristic::new(&Weights::nneonneo());
    // Two 16384s a move from a 32768, and a chain below them.
    let b = Board::from_values([
        16384, 16384, 4096, 2048, //
        2, 4, 8, 16, //
        0, 0, 2, 0, //
        0, 0, 0, 2, //
    ])
    .unwrap();
    let mut on = params(3);
    on.leaf_downgrade_at = 15;
    let reads = ReadsDowngraded(&h, 15);
    for depth in 0..=3 {
        let mut s = Searcher::new(12);
        let leaves_down = s.move_values(&h, b, &on, depth);
        let every_board_down = s.move_values(&reads, b, &params(3), depth);
        assert_eq!(leaves_down, every_board_down, "depth {depth}");
        // Off, a leaf with the 32768 is read as it is.
        assert_ne!(
            leaves_down,
            s.move_values(&h, b, &params(3), depth),
            "depth {depth}"
        );
    }
}

/// A network searched without its leaf cache: every method is the
/// network's own, only [`Evaluate::CACHE_LEAVES`] is off.
struct Uncached<'n>(&'n crate::network::Network);

impl Evaluate for Uncached<'_> {
    fn eval_pair(&self, board: Board, transpose: Board) -> f32 {
        self.0.eval_pair(board, transpose)
    }

    fn eval_as(&self, board: Board, seen: Board) -> f32 {
        self.0.eval_as(board, seen)
    }

    fn dead_end_cost(&self, root: Board) -> f32 {
        self.0.dead_end_cost(root)
    }

    fn largest_tile_value(&self, board: Board) -> f32 {
        self.0.largest_tile_value(board)
    }

    fn eval_children(&self, board: Board, children: &[(Board, Board); 4]) -> [f32; 4] {
        self.0.eval_children(board, children)
    }
}

/// A `lines-squares` network with some learning in it, so that values
/// differ by board; `seed` picks the learning.
fn learned_network(seed: u64) -> crate::network::Network {
    let tuples = crate::network::named_tuples("lines-squares").unwrap();
    let mut net = crate::network::Network::new(tuples, Variant::CLASSIC, 3, 0.1).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..2000 {
        let b = Board::from_ranks(std::array::from_fn(|_| rng.gen_range(0..16)));
        net.adjust(b, rng.gen_range(-5.0..5.0));
    }
    net
}

#[test]
fn leaves_read_back_from_the_cache_leave_every_value_as_scoring_them_again() {
    let net = learned_network(5);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut boards = vec![Board::from_values([
        16384, 16384, 4096, 2048, //
        2, 4, 8, 16, //
        0, 0, 2, 0, //
        0, 0, 0, 2, //
    ])
    .unwrap()];
    // Boards from random play, early and late.
    let mut b = Board::from_values([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]).unwrap();
    for turn in 0..400 {
        let dirs: Vec<Direction> = Direction::ALL
            .into_iter()
            .filter(|&d| b.make_move(d).is_some())
            .collect();
        let Some(&dir) = dirs.get(rng.gen_range(0..dirs.len().max(1))) else {
            break;
        };
        let moved = b.make_move(dir).unwrap().board;
        let empty: Vec<usize> = (0..16).filter(|&i| moved.rank(i) == 0).collect();
        let cell = empty[rng.gen_range(0..empty.len())];
        b = moved
            .place(cell, if rng.gen_bool(0.1) { 2 } else { 1 })
            .unwrap();
        if turn % 40 == 0 {
            boards.push(b);
        }
    }
    let mut hits = 0;
    for (i, &board) in boards.iter().enumerate() {
        for leaf_down in [0, 14] {
            for depth in 1..=3 {
                let mut p = params(3);
                p.leaf_downgrade_at = leaf_down;
                let (mut cached, mut plain) = (Searcher::new(12), Searcher::new(12));
                let with = cached.move_values(&net, board, &p, depth);
                let without = plain.move_values(&Uncached(&net), board, &p, depth);
                let bits = |v: [Option<f32>; 4]| v.map(|v| v.map(f32::to_bits));
                let case = format!("board {i}, leaf_down {leaf_down}, depth {depth}");
                assert_eq!(bits(with), bits(without), "{case}");
                assert_eq!(cached.stats.evals, plain.stats.evals, "{case}");
                assert_eq!(cached.stats.moves, plain.stats.moves, "{case}");
                assert_eq!(plain.stats.leaf_hits, 0, "{case}");
                hits += cached.stats.leaf_hits;
            }
        }
    }
    assert!(hits > 0, "the cache was never read");
}

#[test]
fn a_searcher_reused_with_another_network_reads_none_of_the_first_ones_leaves() {
    let (a, b) = (learned_network(5), learned_network(6));
    let board = Board::from_values([2, 4, 8, 16, 0, 2, 0, 4, 0, 0, 2, 0, 0, 0, 0, 2]).unwrap();
    let mut reused = Searcher::new(12);
    let first = reused.move_values(&a, board, &params(2), 2);
    let second = reused.move_values(&b, board, &params(2), 2);
    assert_ne!(first, second, "the two networks should disagree here");
    assert_eq!(
        second,
        Searcher::new(12).move_values(&b, board, &params(2), 2)
    );
    assert_eq!(
        first,
        Searcher::new(12).move_values(&a, board, &params(2), 2)
    );
}
