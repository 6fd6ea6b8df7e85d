//! Tests of the learner's methods: TD(λ), temporal coherence, restarts,
//! lookahead and rounds.

use crate::engine::Variant;
use crate::network::coherence::Coherence;
use crate::network::learn::{learn, play, BlockStats, Lesson, RESTART_MIN_MOVES};
use crate::network::method::{Method, Schedule};
use crate::network::tests::learn::{fresh, greedy_mean};
use crate::network::tuples::named_tuples;
use crate::network::value::Network;

/// A network's hash: networks compare by it (their debug form is long).
fn id(net: &Network) -> u64 {
    crate::fnv::hash(&net.to_bytes())
}

const FULL: Method = Method {
    lambda: 0.5,
    coherence: true,
    restarts: true,
    lookahead: false,
    until: None,
    schedule: Schedule::Rounds(4),
};

/// A lesson of `method` at rate 1 in blocks of 8 games.
fn lesson(method: Method) -> Lesson<'static> {
    Lesson {
        method,
        alpha: 1.0,
        block: 8,
        starts: None,
    }
}

/// Learns `net` to `to` games with `method` on `threads` threads.
fn learned(
    mut net: Network,
    method: Method,
    to: u64,
    threads: usize,
) -> (Network, Option<Coherence>) {
    let mut coh = method.coherence.then(|| Coherence::new(&net));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| learn(&mut net, coh.as_mut(), &lesson(method), to, |_, _, _| true));
    (net, coh)
}

#[test]
fn plain_sequential_learning_is_the_td0_learner_of_old_bit_for_bit() {
    // The hash of `learn DIR --games 30 --block 10 --seed 3` (lines-squares,
    // α 0.1) written by the learner before methods existed.
    let mut net = fresh(3);
    let plain = Lesson {
        method: Method::PLAIN,
        alpha: 0.1,
        block: 10,
        starts: None,
    };
    learn(&mut net, None, &plain, 30, |_, _, _| true);
    let bytes = net.to_bytes();
    assert_eq!(
        crate::network::header::stored_hash(&bytes),
        0x57f5_6415_a718_21f8
    );
}

#[test]
fn rounds_learn_the_same_network_on_any_thread_count() {
    let (one, coh_one) = learned(fresh(7), FULL, 24, 1);
    let (two, coh_two) = learned(fresh(7), FULL, 24, 2);
    let (three, _) = learned(fresh(7), FULL, 24, 3);
    assert_eq!(id(&one), id(&two));
    assert_eq!(id(&one), id(&three));
    assert!(coh_one == coh_two);
    assert_ne!(id(&one), id(&fresh(7)));
    let ahead = Method {
        lookahead: true,
        ..FULL
    };
    let (one, _) = learned(fresh(7), ahead, 16, 1);
    let (three, _) = learned(fresh(7), ahead, 16, 3);
    assert_eq!(id(&one), id(&three));
}

#[test]
fn resuming_from_the_files_equals_learning_in_one_piece() {
    let (whole, whole_coh) = learned(fresh(5), FULL, 32, 2);
    let (half, half_coh) = learned(fresh(5), FULL, 16, 2);
    let bytes = half_coh.unwrap().to_bytes(half.trained.games);
    let mut net = Network::from_bytes(&half.to_bytes()).unwrap();
    let (games, mut coh) = Coherence::from_bytes(&bytes, &net).unwrap();
    assert_eq!(games, 16);
    learn(&mut net, Some(&mut coh), &lesson(FULL), 32, |_, _, _| true);
    assert_eq!(id(&net), id(&whole));
    assert!(Some(coh) == whole_coh);
}

#[test]
fn every_part_of_the_method_changes_what_is_learned() {
    let (base, _) = learned(fresh(2), FULL, 16, 2);
    for other in [
        Method {
            lambda: 0.0,
            ..FULL
        },
        Method {
            coherence: false,
            ..FULL
        },
        Method {
            restarts: false,
            ..FULL
        },
        Method {
            lookahead: true,
            ..FULL
        },
        Method {
            until: Some(256),
            ..FULL
        },
        Method {
            schedule: Schedule::Rounds(2),
            ..FULL
        },
        Method {
            schedule: Schedule::Sequential,
            ..FULL
        },
    ] {
        assert_ne!(
            id(&learned(fresh(2), other, 16, 2).0),
            id(&base),
            "{other:?}"
        );
    }
}

#[test]
fn coherence_lambda_and_restarts_learn_more_per_game_than_td0() {
    let mut plain = fresh(11);
    let td0 = Lesson {
        method: Method::PLAIN,
        alpha: 0.1,
        block: 100,
        starts: None,
    };
    learn(&mut plain, None, &td0, 400, |_, _, _| true);
    let (full, _) = learned(fresh(11), FULL, 400, 2);
    let (p, f) = (greedy_mean(&plain), greedy_mean(&full));
    assert!(f > 1.5 * p, "TD(0) {p}, full method {f}");
}

#[test]
fn a_restart_goes_on_from_the_middle_of_the_segment_before() {
    let net = fresh(1);
    let once = play(&net, Variant::CLASSIC, 9, None, Method::PLAIN);
    let restarts = Method {
        restarts: true,
        ..Method::PLAIN
    };
    let again = play(&net, Variant::CLASSIC, 9, None, restarts);
    // The first segment is the game itself; restarts add segments, each
    // shorter runs stopping below the minimum.
    assert_eq!(once.ends, [once.path.len()]);
    assert_eq!(again.record, once.record);
    assert_eq!(&again.path[..once.path.len()], &once.path[..]);
    assert!(again.ends.len() > 1);
    let last = again.ends.len() - 1;
    assert!(again.ends[last] - again.ends[last - 1] < RESTART_MIN_MOVES);
    // A restart's first afterstate follows the middle one of the
    // segment before by one spawn and one move.
    let middle = once.path[once.path.len() / 2].0;
    let first = again.path[once.path.len()].0;
    assert!(first.max_rank() >= middle.max_rank());
    // A block counts every move learned from: the game's, then the
    // restarts'.
    let (mut plain, mut restarted) = (BlockStats::default(), BlockStats::default());
    plain.add(&once);
    restarted.add(&again);
    assert_eq!(plain.moves, u64::from(once.record.moves));
    assert_eq!(restarted.moves, *again.ends.last().unwrap() as u64);
    assert!(restarted.moves > plain.moves);
}

#[test]
fn methods_read_back_from_their_text_and_bad_words_are_named() {
    for m in [
        Method::PLAIN,
        FULL,
        Method {
            lambda: 0.25,
            ..Method::PLAIN
        },
        Method {
            lookahead: true,
            ..FULL
        },
        Method {
            until: Some(16384),
            ..FULL
        },
    ] {
        assert_eq!(Method::parse(&m.text()), Ok(m));
    }
    let until = Method {
        until: Some(8192),
        ..FULL
    };
    assert_eq!(
        until.text(),
        "lambda 0.5 coherence restarts until 8192 rounds 4"
    );
    for bad in ["until 100", "until 4", "until 65536", "until"] {
        let e = Method::parse(bad).unwrap_err();
        assert!(
            e.contains("power of two") || e.contains("needs"),
            "{bad}: {e}"
        );
    }
    assert_eq!(Method::PLAIN.text(), "lambda 0");
    assert_eq!(FULL.text(), "lambda 0.5 coherence restarts rounds 4");
    assert!(Method::parse("lambda 1").unwrap_err().contains("[0, 1)"));
    assert!(Method::parse("rounds 0").unwrap_err().contains("from 1"));
    assert!(Method::parse("rounds").unwrap_err().contains("needs"));
    assert!(Method::parse("lambda 0 fast")
        .unwrap_err()
        .contains("`fast`"));
}

#[test]
fn a_coherence_file_cut_short_or_for_another_network_is_refused() {
    let (net, coh) = learned(fresh(4), FULL, 8, 1);
    let bytes = coh.as_ref().unwrap().to_bytes(8);
    assert!(Coherence::from_bytes(&bytes, &net).unwrap().1 == coh.unwrap());
    let cut = &bytes[..bytes.len() - 9];
    assert!(Coherence::from_bytes(cut, &net)
        .unwrap_err()
        .contains("cut short"));
    let mut altered = bytes.clone();
    altered[bytes.len() - 20] ^= 1;
    assert!(Coherence::from_bytes(&altered, &net)
        .unwrap_err()
        .contains("hash"));
    // An altered header is refused for what it then says.
    let mut altered = bytes.clone();
    altered[40] ^= 1;
    assert!(Coherence::from_bytes(&altered, &net).is_err());
    let other = Network::new(named_tuples("five").unwrap(), Variant::CLASSIC, 1, 0.1).unwrap();
    assert!(Coherence::from_bytes(&bytes, &other)
        .unwrap_err()
        .contains("sums"));
}

#[test]
fn the_error_sizes_stream_from_a_coherence_file_with_its_checks() {
    use crate::network::error_sizes::ErrorSizes;
    let (net, coh) = learned(fresh(4), FULL, 8, 1);
    let coh = coh.unwrap();
    let bytes = coh.to_bytes(8);
    let read = |bytes: &[u8], net: &Network| ErrorSizes::read(bytes, net);
    let (games, hash, sizes) = read(&bytes, &net).unwrap();
    assert_eq!(
        (games, hash),
        (8, crate::network::header::stored_hash(&bytes))
    );
    assert_eq!(sizes, coh.error_sizes());
    assert!(sizes.as_slice().iter().any(|&s| s > 0.0));
    // In file order: every second f32 of the body after the header.
    let body = &bytes[bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2..];
    let third = f32::from_le_bytes(body[20..24].try_into().unwrap());
    assert_eq!(sizes.as_slice()[2], third);
    let error = |bytes: &[u8]| read(bytes, &net).unwrap_err();
    assert!(error(&bytes[..bytes.len() - 9]).contains("cut short"));
    assert!(error(&bytes[..bytes.len() - 3]).contains("5 bytes follow"));
    assert!(error(&[&bytes[..], b"!"].concat()).contains("more than 8"));
    let mut altered = bytes.clone();
    altered[60] ^= 1;
    assert!(error(&altered).contains("hash does not match"));
    let text = String::from_utf8_lossy(&bytes[..30]).replacen("games 8", "games x", 1);
    let bad = [text.as_bytes(), &bytes[30..]].concat();
    assert!(error(&bad).contains("line 2: expected `games N`"));
    assert!(error(b"tune2048 coherence 1\ngames 8").contains("no blank line"));
    let other = Network::new(named_tuples("five").unwrap(), Variant::CLASSIC, 1, 0.1).unwrap();
    assert!(read(&bytes, &other).unwrap_err().contains("line 3"));
}

#[test]
fn the_copy_after_a_round_takes_every_marked_line_and_only_those() {
    use crate::engine::Board;
    use crate::network::changed::Changed;
    use crate::network::learned::Learned;
    use crate::network::lookups::Shape;
    use crate::network::staged::Staged;
    use rand::Rng as _;
    use rand_xoshiro::rand_core::SeedableRng as _;
    use rand_xoshiro::Xoshiro256PlusPlus;
    // One 6-cell tuple: 2^24 weights.
    let tuple = named_tuples("six").unwrap()[..1].to_vec();
    let mut net = Network::new(tuple, Variant::CLASSIC, 1, 1.0).unwrap();
    let mut coh = Coherence::new(&net);
    let (shape, mut changed) = (Shape::of(&net), Changed::new(&net));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for _ in 0..3000 {
        // Every rank in every cell, so that the lookups fall all over.
        let board = Board::from_ranks(std::array::from_fn(|_| rng.gen_range(0..16)));
        let at = shape.lookups(board, coh.opened());
        coh.step(&at, 0.5, rng.gen_range(-1.0..1.0));
        changed.mark(&at);
    }
    let len = net.tables()[0].len();
    let mut stepped = vec![0.0f32; len];
    coh.weights(0, 0..len, &mut stepped);
    let moved_in_last_piece = stepped[len - len / 16..]
        .iter()
        .filter(|&&w| w != 0.0)
        .count();
    assert!(moved_in_last_piece > 100, "{moved_in_last_piece}");
    let mut staged = Staged::default();
    changed.stage(&coh, &mut staged);
    // Copied out, the weights can move on: the copy holds them as they were.
    let at = shape.lookups(Board::from_ranks([3; 16]), coh.opened());
    coh.step(&at, 0.5, 100.0);
    staged.apply(&mut net);
    assert!(
        net.tables()[0] == stepped[..],
        "the copy equals the weights stepped"
    );
    // The marks are cleared: a second copy finds no more than the last step.
    net.tables_mut()[0].fill(7.0);
    changed.mark(&at);
    changed.stage(&coh, &mut staged);
    staged.apply(&mut net);
    let moved = net.tables()[0].iter().filter(|&&w| w != 7.0).count();
    assert!((1..=16 * 8).contains(&moved), "{moved}");
}

#[test]
fn rounds_learn_on_any_thread_count_the_networks_pinned_before_the_pipeline() {
    // The hashes of the learner of e9e8479, which played a round whole
    // while learning the one before, then copied at a barrier.
    let plain = Method {
        coherence: false,
        schedule: Schedule::Rounds(3),
        ..FULL
    };
    let single = Method {
        schedule: Schedule::Rounds(1),
        ..FULL
    };
    for threads in [1, 2, 5] {
        let (full, coh) = learned(fresh(7), FULL, 24, threads);
        assert_eq!(id(&full), 0xe2bf_9fd8_8782_24eb, "{threads} threads");
        let coh = coh.unwrap().to_bytes(24);
        assert_eq!(crate::fnv::hash(&coh), 0xf9d5_9973_5794_c963);
        // Blocks of 9 to 23 games: the last block ends in a round of 2.
        let mut net = fresh(9);
        let lesson = Lesson {
            block: 9,
            ..lesson(plain)
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| learn(&mut net, None, &lesson, 23, |_, _, _| true));
        assert_eq!(id(&net), 0x7c64_02cd_f165_2bb9, "{threads} threads");
        let (one_by_one, _) = learned(fresh(8), single, 24, threads);
        assert_eq!(id(&one_by_one), 0x9ed3_11f5_a55b_d3aa, "{threads} threads");
    }
}

#[test]
fn a_stop_tile_ends_every_segment_at_its_first_afterstate_holding_it() {
    use crate::engine::Outcome;
    let net = fresh(1);
    let whole = play(&net, Variant::CLASSIC, 9, None, Method::PLAIN);
    assert!(whole.record.max_tile >= 256, "{:?}", whole.record);
    let until = Method {
        until: Some(128),
        restarts: true,
        ..Method::PLAIN
    };
    let cut = play(&net, Variant::CLASSIC, 9, None, until);
    // The game is the whole game's up to its first afterstate with a 128.
    let first = cut.ends[0];
    assert_eq!(&cut.path[..first], &whole.path[..first]);
    assert_eq!(cut.record.outcome, Outcome::Stopped);
    assert_eq!((cut.record.max_tile, cut.record.moves), (128, first as u32));
    // No segment holds a 128 before its last afterstate, and several stop
    // there (the last, too short to restart from, may end as a game does).
    let holds = |k: usize| cut.path[k].0.max_rank() >= 7;
    let mut begin = 0;
    for &end in &cut.ends {
        assert!(!(begin..end - 1).any(holds), "segment {begin}..{end}");
        begin = end;
    }
    assert!(cut.ends.iter().filter(|&&end| holds(end - 1)).count() > 1);
}

#[test]
fn a_stop_tile_leaves_the_stages_from_it_as_they_were() {
    use crate::network::stage::Boundary;
    let staged = || {
        let mut net = fresh(3);
        net.set_stages(vec![Boundary::tile(8)]);
        net.fill(1.0);
        net
    };
    let half = staged().tables().len() / 2;
    let until = Method {
        until: Some(256),
        ..FULL
    };
    let (one, coh) = learned(staged(), until, 24, 1);
    let (three, _) = learned(staged(), until, 24, 3);
    assert_eq!(id(&one), id(&three));
    assert!(one.tables()[..half] != staged().tables()[..half]);
    assert!(one.tables()[half..] == staged().tables()[half..]);
    assert!(coh.is_some());
}

#[test]
fn a_stopped_segment_learns_toward_its_stop_afterstates_value_and_leaves_it() {
    use crate::engine::{Board, GameRecord, Outcome};
    use crate::network::learn::{learn_played, Played};
    use crate::network::lookups::Shape;
    use crate::network::stage::Boundary;
    let mut net = fresh(3);
    net.set_stages(vec![Boundary::tile(8)]);
    let half = net.tables().len() / 2;
    net.tables_mut()[half..]
        .iter_mut()
        .for_each(|t| t.fill(10.0));
    let ranks = |top: u8| Board::from_ranks([top, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let (b, stop) = (ranks(7), ranks(8));
    let record = GameRecord {
        moves: 2,
        score: 0,
        max_tile: 256,
        fours: 0,
        outcome: Outcome::Stopped,
        board: stop,
    };
    let game = Played {
        record,
        path: vec![(b, 4.0), (stop, 256.0)],
        ends: vec![2],
    };
    let td0 = |until| Method {
        until,
        ..Method::PLAIN
    };
    let shape = Shape::of(&net);
    let worth = net.value(stop);
    assert_eq!(worth, 10.0 * net.lookups() as f32);
    // TD(0): b's weights step toward what the stop afterstate earned and
    // is worth (b's value is 0); the stop afterstate's own stage is not
    // touched.
    let mut learned = net.clone();
    let step = 0.5 / net.lookups() as f32;
    learn_played(&mut learned, &shape, None, step, td0(Some(256)), &game);
    assert!(learned.tables()[half..] == net.tables()[half..]);
    let mut expected = net.clone();
    expected.adjust(b, step * (256.0 + worth));
    assert!(learned.tables() == expected.tables());
    // Learned without the stop tile, as a game that ended there, the path
    // learns its last afterstate toward 0.
    let mut ended = net.clone();
    learn_played(&mut ended, &shape, None, step, td0(None), &game);
    assert!(ended.tables()[half..] != net.tables()[half..]);
    assert!(ended.value(stop) < worth);
}
