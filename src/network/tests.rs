//! Tests of the network: its value and tables, its files full and packed,
//! blending, learning and the learning folder.

/// The value, the tuples and stages, the full file and blending.
mod value {
    use crate::engine::{Board, Variant};
    use crate::network::stage::{parse_stages, Boundary};
    use crate::network::tuples::{named_tuples, parse_tuples, TUPLE_NAMES};
    use crate::network::value::{gather, gather_portable, symmetric_forms, Network};

    fn board(values: [u32; 16]) -> Board {
        Board::from_values(values).unwrap()
    }

    #[test]
    fn a_value_is_the_same_under_every_symmetry() {
        let mut net = Network::new(
            named_tuples("lines-squares").unwrap(),
            Variant::CLASSIC,
            1,
            0.1,
        )
        .unwrap();
        let b = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        net.adjust(b, 1.0);
        // 40 lookups; a weight picked k times went up by k and is read k
        // times (the empty lines and squares repeat).
        let mut picks = std::collections::HashMap::new();
        net.for_each_index(b, b.transpose(), |t, i| {
            *picks.entry((t, i)).or_insert(0u32) += 1
        });
        assert_eq!(picks.values().sum::<u32>(), 40);
        let squares: u32 = picks.values().map(|k| k * k).sum();
        assert!(squares > 40);
        assert_eq!(net.value(b), squares as f32);
        for s in b.symmetries() {
            assert_eq!(net.value(s), net.value(b));
        }
        // Another board shares some of those weights, not all.
        let other = board([2, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(net.value(other) > 0.0 && net.value(other) < net.value(b));
    }

    #[test]
    fn a_lookup_reads_the_cells_in_tuple_order() {
        let mut net = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 1, 0.1).unwrap();
        // Cell 0 holds rank 1 (a 2), cell 1 rank 2 (a 4): index 1 + 2·16
        // in file order, 2 + 1·16 in play order, the tables' in memory.
        let b = board([2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        net.tables_mut()[0][2 + 16] = 5.0;
        assert_eq!(net.value(b), 5.0);
        let bytes = net.to_bytes();
        let body = bytes.len() - 8 - 4 * 256;
        let weight = |i: usize| f32::from_le_bytes(bytes[body + 4 * i..][..4].try_into().unwrap());
        assert_eq!((weight(1 + 2 * 16), weight(2 + 16)), (5.0, 0.0));
        // Mirrored, the pair (4, 2) sits at cells (3, 2): symmetry 1 maps
        // cell 0 to cell 3 and cell 1 to cell 2, so it reads the same entry.
        assert_eq!(net.value(b.mirror()), 5.0);
    }

    #[test]
    fn the_symmetric_forms_are_the_boards_symmetries() {
        let b = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let forms = symmetric_forms(b.0, b.transpose().0);
        // Each symmetry turned by 180°: its cells in the reverse order.
        let turned = |s: Board| {
            let x = s.0.swap_bytes();
            (x & 0x0F0F_0F0F_0F0F_0F0F) << 4 | (x >> 4) & 0x0F0F_0F0F_0F0F_0F0F
        };
        assert_eq!(forms, b.symmetries().map(turned));
        // The index of a tuple is its cells' ranks from the lowest cell up.
        let mask = 0xF << 4 | 0xF << 12 | 0xF << 28;
        assert_eq!(gather(b.0, mask), 2 | 4 << 4 | 5 << 8);
        for form in forms {
            for t in named_tuples("six").unwrap() {
                let mask = t.iter().fold(0u64, |m, &c| m | 0xF << (4 * c));
                assert_eq!(gather(form, mask), gather_portable(form, mask));
            }
        }
    }

    #[test]
    fn the_implied_score_counts_merges_from_twos() {
        assert_eq!(Network::implied_score(Board::EMPTY), 0.0);
        let b = board([2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048]);
        // 2: 0; 4: 4; 8: 16; 2048: 10·2048.
        assert_eq!(Network::implied_score(b), (4 + 16 + 10 * 2048) as f32);
    }

    #[test]
    fn a_board_read_as_another_keeps_its_own_points_earned() {
        use crate::heuristic::Evaluate;
        let mut net =
            Network::new(named_tuples("six").unwrap(), Variant::CLASSIC, 7, 0.25).unwrap();
        let seen = board([2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048]);
        let real = board([2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4096]);
        net.adjust(seen, 0.5);
        assert_eq!(
            net.eval_as(seen, seen),
            net.eval_pair(seen, seen.transpose())
        );
        let expected = Network::implied_score(real) + net.value_pair(seen, seen.transpose());
        assert_eq!(net.eval_as(real, seen), expected);
        assert_ne!(
            net.eval_as(real, seen),
            net.eval_pair(real, real.transpose())
        );
    }

    #[test]
    fn a_file_reads_back_bit_for_bit() {
        let mut net = Network::new(
            named_tuples("lines-squares").unwrap(),
            Variant::Twos,
            7,
            0.25,
        )
        .unwrap();
        net.adjust(
            board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]),
            -0.3,
        );
        net.trained.games = 1234;
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let net = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 7, 0.25).unwrap();
        let bytes = net.to_bytes();
        let cut = Network::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(cut.contains("cut short"), "{cut}");
        let mut flipped = bytes.clone();
        let last = flipped.len() - 20;
        flipped[last] ^= 1;
        let e = Network::from_bytes(&flipped).unwrap_err();
        assert!(e.contains("hash does not match"), "{e}");
        let text = String::from_utf8_lossy(&bytes).replace("tuples 0,1", "tuples 0,19");
        let e = Network::from_bytes(text.as_bytes()).unwrap_err();
        assert!(
            e.contains("line 2, field `tuples`") && e.contains("cell 19"),
            "{e}"
        );
        // A rate that is not a number, with the hash made to match: the
        // fuzzer's find (a NaN rate made a network unequal to itself).
        let mut nan = String::from_utf8_lossy(&bytes)
            .replacen("alpha 0.25", "alpha nan", 1)
            .into_bytes();
        let n = nan.len();
        let hash = crate::fnv::hash(&nan[..n - 8]);
        nan[n - 8..].copy_from_slice(&hash.to_le_bytes());
        let e = Network::from_bytes(&nan).unwrap_err();
        assert!(e.contains("line 6, field `alpha`"), "{e}");
        let extra = String::from_utf8_lossy(&bytes).replacen("\n\n", "\nstep 16\n\n", 1);
        let e = Network::from_bytes(extra.as_bytes()).unwrap_err();
        assert!(e.contains("line 8: unexpected `step 16`"), "{e}");
        let e = Network::from_bytes(b"hello\n\nworld").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        let e = Network::from_bytes(b"no header at all").unwrap_err();
        assert!(e.contains("no header"), "{e}");
    }

    #[test]
    fn a_split_network_scores_as_before_until_a_stage_learns() {
        let mut net = Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::Twos, 3, 0.1).unwrap();
        let early = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let late = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 16384, 0, 0, 2]);
        let later = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 32768, 0, 0, 2]);
        net.adjust(early, 1.5);
        net.adjust(late, -0.5);
        let stages = parse_stages("16384").unwrap();
        assert_eq!(stages, [Boundary::tile(14)]);
        let mut split = net.split(stages).unwrap();
        assert_eq!(split.weight_count(), 2 * net.weight_count());
        for b in [early, late, later, Board::EMPTY] {
            assert_eq!(split.value(b), net.value(b), "{b:?}");
        }
        // Learning on a late board moves the late stage only: the early
        // board shares its small tiles' weights, and keeps its value.
        split.adjust(late, 2.0);
        assert_eq!(split.value(early), net.value(early));
        assert!(split.value(late) > net.value(late));
        // A board past the boundary shares the late stage's weights where
        // its cells agree with the late board's.
        assert_ne!(split.value(later), net.value(later));
        split.adjust(early, 1.0);
        assert!(split.value(early) > net.value(early));
        // The stages travel in the file, and only where there are some.
        let bytes = split.to_bytes();
        assert!(String::from_utf8_lossy(&bytes).contains("\nstages 16384\nvariant twos\n"));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), split);
        assert!(!String::from_utf8_lossy(&net.to_bytes()).contains("stages"));
    }

    /// A classic network of two small tuples split at 16384, never learned,
    /// with a board below the split and one past it.
    fn split_with_boards() -> (Network, Board, Board) {
        let net = Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::CLASSIC, 3, 0.1)
            .unwrap()
            .split(parse_stages("16384").unwrap())
            .unwrap();
        let early = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let late = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 16384, 0, 0, 2]);
        (net, early, late)
    }

    #[test]
    fn a_split_network_splits_further_from_the_stage_that_scored_each_board() {
        let (mut net, early, late) = split_with_boards();
        let later = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 8192, 0, 16384, 0, 0, 2]);
        // The two stages tell the boards apart: the late board's small
        // tiles are worth something else than the early one's.
        net.adjust(early, 1.5);
        net.adjust(late, -0.5);
        net.adjust(later, 0.25);
        assert_ne!(net.value(early), net.value(late));
        let refined = net
            .split(parse_stages("16384,16384+8192").unwrap())
            .unwrap();
        assert_eq!(refined.stages().len(), 2);
        assert_eq!(refined.weight_count(), 3 * net.weight_count() / 2);
        for b in [early, late, later, Board::EMPTY] {
            assert_eq!(refined.value(b), net.value(b), "{b:?}");
        }
        // The new stage starts from the late stage, not the first.
        let tables = refined.tables();
        assert!(tables[4..] == tables[2..4] && tables[4..] != tables[..2]);
        // A third tile splits the last stage again, from its own tables.
        let mut refined = refined;
        refined.adjust(later, 0.75);
        let chain = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 4096, 8192, 0, 16384, 0, 0, 2]);
        let third = refined
            .split(parse_stages("16384,16384+8192,16384+8192+4096").unwrap())
            .unwrap();
        let tables = third.tables();
        assert!(tables[6..] == refined.tables()[4..] && tables[6..] != tables[2..4]);
        for b in [early, late, later, chain, Board::EMPTY] {
            assert_eq!(third.value(b), refined.value(b), "{b:?}");
        }
        // Splitting below the late stage copies the first stage instead.
        let below = net.split(parse_stages("8192,16384").unwrap()).unwrap();
        let tables = below.tables();
        assert!(tables[2..4] == tables[..2] && tables[4..] == net.tables()[2..]);
        for b in [early, late, later] {
            assert_eq!(below.value(b), net.value(b), "{b:?}");
        }
    }

    #[test]
    fn a_header_reads_alone_from_the_start_of_a_file() {
        let mut net = Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::CLASSIC, 9, 0.1)
            .unwrap()
            .split(parse_stages("16384,16384+8192+4096").unwrap())
            .unwrap();
        net.adjust(Board::EMPTY, 1.0);
        net.trained.games = 1234;
        let dir = std::env::temp_dir().join(format!("tune2048-header-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let full = dir.join("full.nt");
        net.save(&full).unwrap();
        // Cut to its header and a little of its weights: still a header.
        let bytes = std::fs::read(&full).unwrap();
        let cut = dir.join("cut.nt");
        let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap();
        std::fs::write(&cut, &bytes[..end + 10]).unwrap();
        for path in [&full, &cut] {
            let head = Network::load_header(path).unwrap();
            assert_eq!(head.tuples, net.tuples());
            assert_eq!(head.stages, net.stages());
            assert_eq!(head.trained, net.trained);
            assert_eq!(head.weight_count(), net.weight_count());
        }
        assert!(Network::load(&cut).is_err());
        let other = dir.join("other.nt");
        std::fs::write(&other, b"tune2048 tuning run\n\n").unwrap();
        let e = Network::load_header(&other).unwrap_err().to_string();
        assert!(e.contains("other.nt") && e.contains("line 1"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `Network::load` streams a full file from disk: whatever the bytes,
    /// it reads what [`Network::from_bytes`] reads of them, and refuses what
    /// it refuses with the same reason, after the file's path. The network
    /// spans several chunks of the read, a table ending inside one.
    #[test]
    fn a_file_streamed_from_disk_reads_as_its_bytes_do() {
        let mut net = Network::new(
            vec![vec![0, 1, 2, 3, 4], vec![5, 9]],
            Variant::CLASSIC,
            9,
            0.1,
        )
        .unwrap()
        .split(parse_stages("16384").unwrap())
        .unwrap();
        net.adjust(
            board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]),
            0.75,
        );
        net.adjust(
            board([2, 4, 8, 16384, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]),
            -2.5,
        );
        let bytes = net.to_bytes();
        let body = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
        let rehashed = |mut b: Vec<u8>| {
            let n = b.len();
            let hash = crate::fnv::hash(&b[..n - 8]);
            b[n - 8..].copy_from_slice(&hash.to_le_bytes());
            b
        };
        let mut flipped = bytes.clone();
        flipped[body + 4 * 1_000_000 + 1] ^= 0x10;
        let mut nan = bytes.clone();
        nan[body + 4 * 700_000..body + 4 * 700_001].copy_from_slice(&f32::NAN.to_le_bytes());
        let mut extra = bytes.clone();
        extra.push(0);
        let packed =
            crate::network::packed::pack(&net, crate::network::packed::Plan::step(0.25), 1)
                .unwrap()
                .0;
        // Each case, and what the reason says (nothing: it reads).
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            ("whole", bytes.clone(), ""),
            ("packed", packed, ""),
            (
                "cut in the weights",
                bytes[..body + 4 * 300_000].to_vec(),
                "a file cut short",
            ),
            (
                "cut in the hash",
                bytes[..bytes.len() - 3].to_vec(),
                "a file cut short",
            ),
            ("a byte added", extra, "with bytes added"),
            ("a weight altered", flipped, "hash does not match"),
            (
                "a weight not a number",
                rehashed(nan),
                "weight 700000 is not a finite number",
            ),
            (
                "no blank line",
                b"tune2048 network\ntuples 0,1\n".to_vec(),
                "no header",
            ),
            ("empty", Vec::new(), "no header"),
            (
                "another header",
                b"tune2048 tuning run\n\nweights".to_vec(),
                "line 1",
            ),
        ];
        let dir = std::env::temp_dir().join(format!("tune2048-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.nt");
        for (case, bytes, reason) in cases {
            std::fs::write(&path, &bytes).unwrap();
            match (Network::from_bytes(&bytes), Network::load(&path)) {
                (Ok(read), Ok(loaded)) if reason.is_empty() => {
                    assert_eq!(loaded, read, "{case}");
                    assert_eq!(loaded.tables(), net.tables(), "{case}");
                }
                (Err(e), Err(loaded)) if !reason.is_empty() => {
                    assert!(e.contains(reason), "{case}: {e}");
                    assert_eq!(
                        loaded.to_string(),
                        format!("{}: {e}", path.display()),
                        "{case}"
                    )
                }
                (read, loaded) => panic!(
                    "{case}: {:?} and {:?}",
                    read.err(),
                    loaded.err().map(|e| e.to_string())
                ),
            }
        }
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_nodes_children_are_valued_as_one_board_is_bit_for_bit() {
        use crate::heuristic::Evaluate;
        use rand::Rng as _;
        use rand_xoshiro::rand_core::SeedableRng as _;
        use rand_xoshiro::Xoshiro256PlusPlus;
        let mut net =
            Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::CLASSIC, 3, 0.1).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let random_board = |rng: &mut Xoshiro256PlusPlus| {
            let high = rng.gen_range(10u64..16) << (4 * rng.gen_range(0..16));
            Board(rng.gen::<u64>() & rng.gen::<u64>() & 0x7777_7777_7777_7777 | high)
        };
        // Weights of many magnitudes, so that a different order of summing
        // would round differently.
        for k in 0..2000 {
            let b = random_board(&mut rng);
            net.adjust(b, (k as f32 - 1000.0) * 0.37 + rng.gen::<f32>() * 1e-3);
        }
        let split = net.split(parse_stages("16384").unwrap()).unwrap();
        for net in [&net, &split] {
            for _ in 0..500 {
                let board = random_board(&mut rng);
                let children = board.shifts_pair(board.transpose(), &crate::engine::tables::TABLES);
                let live: [bool; 4] = std::array::from_fn(|_| rng.gen());
                let values = net.values_of(&children, live);
                let scores = net.eval_children(board, &children);
                for k in 0..4 {
                    let (next, next_t) = children[k];
                    let one = if live[k] {
                        net.value_pair(next, next_t)
                    } else {
                        0.0
                    };
                    assert_eq!(values[k].to_bits(), one.to_bits(), "{next:?}");
                    if next != board {
                        assert_eq!(scores[k].to_bits(), net.eval_pair(next, next_t).to_bits());
                    }
                }
            }
        }
    }

    #[test]
    fn a_blend_scores_a_board_at_the_mean_of_the_values() {
        let tuples = vec![vec![0, 1], vec![4, 5, 6]];
        let mut a = Network::new(tuples.clone(), Variant::Twos, 3, 0.1).unwrap();
        let mut b = Network::new(tuples.clone(), Variant::Twos, 4, 0.2).unwrap();
        let x = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        let y = board([2, 0, 8, 0, 0, 2, 4, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        a.adjust(x, 1.5);
        b.adjust(y, -0.25);
        b.adjust(x, 0.5);
        let mixed = Network::blend(&[&a, &b], &[]).unwrap();
        for board in [x, y, Board::EMPTY] {
            assert_eq!(mixed.value(board), (a.value(board) + b.value(board)) / 2.0);
        }
        assert_eq!(mixed.trained, a.trained);
        assert_eq!(Network::blend(&[&a], &[]).unwrap(), a);
        let other = Network::new(vec![vec![0, 1, 2]], Variant::Twos, 3, 0.1).unwrap();
        let e = Network::blend(&[&a, &b, &other], &[]).unwrap_err();
        assert!(
            e.contains("network 3 has tuple 0,1,2 that network 1 lacks"),
            "{e}"
        );
        let e =
            Network::blend(&[&a, &a.split(vec![Boundary::tile(14)]).unwrap()], &[]).unwrap_err();
        assert!(e.contains("network 2 has other stages"), "{e}");
        let classic = Network::new(tuples, Variant::CLASSIC, 3, 0.1).unwrap();
        assert!(Network::blend(&[&a, &classic], &[])
            .unwrap_err()
            .contains("other variant"));
        for shares in [&[1.0][..], &[1.0, -1.0], &[1.0, f64::NAN], &[0.0, 1.0]] {
            assert!(Network::blend(&[&a, &b], shares).is_err(), "{shares:?}");
        }
    }

    #[test]
    fn a_weighted_blend_of_a_network_and_one_of_fewer_tuples_is_their_weighted_mean() {
        // The second network's tuples, in another order, are among the
        // first's; the blend has the first's tuples and its cost.
        let mut wide = Network::new(
            vec![vec![0, 1], vec![4, 5, 6], vec![8, 9, 12]],
            Variant::CLASSIC,
            3,
            0.1,
        )
        .unwrap()
        .split(vec![Boundary::tile(7)])
        .unwrap();
        let mut narrow = Network::new(vec![vec![8, 9, 12], vec![0, 1]], Variant::CLASSIC, 4, 0.1)
            .unwrap()
            .split(vec![Boundary::tile(7)])
            .unwrap();
        let early = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 64, 0, 0, 2]);
        let late = board([2, 0, 8, 0, 0, 2, 4, 32, 0, 0, 4, 0, 128, 0, 0, 2]);
        wide.adjust(early, 1.5);
        wide.adjust(late, -0.75);
        narrow.adjust(late, 2.0);
        narrow.adjust(early, -0.5);
        let mixed = Network::blend(&[&wide, &narrow], &[3.0, 1.0]).unwrap();
        assert_eq!(mixed.tuples(), wide.tuples());
        for board in [early, late, Board::EMPTY] {
            let expect = (3.0 * wide.value(board) + narrow.value(board)) / 4.0;
            assert!((mixed.value(board) - expect).abs() < 1e-4, "{board:?}");
        }
        // The other way round the first lacks a tuple.
        let e = Network::blend(&[&narrow, &wide], &[]).unwrap_err();
        assert!(
            e.contains("network 2 has tuple 4,5,6 that network 1 lacks"),
            "{e}"
        );
    }

    #[test]
    fn a_widened_network_scores_as_before_and_learns_on_its_new_tables_too() {
        let (mut net, early, late) = split_with_boards();
        net.adjust(early, 1.5);
        net.adjust(late, -0.5);
        let narrow = net.clone();
        // The coherence sums widen alike: each stage's own, then none.
        let mut sums = crate::network::coherence::Coherence::new(&net);
        sums.tables[0][3].sum = 2.0;
        sums.tables[3][5].size = 4.0;
        let kept = sums.clone();
        let sums = sums.widen(2, &[vec![0, 4, 8], vec![5, 6, 9, 10]]);
        assert_eq!(sums.tables.len(), 8);
        assert!(sums.tables[..2] == kept.tables[..2] && sums.tables[4..6] == kept.tables[2..]);
        assert!([2, 3, 6, 7]
            .iter()
            .all(|&t| sums.tables[t].iter().all(|s| s.sum == 0.0 && s.size == 0.0)));
        assert_eq!(sums.tables[7].len(), 65536);
        let wide = net.widen(&[vec![0, 4, 8], vec![5, 6, 9, 10]]).unwrap();
        assert_eq!(
            wide.tuples(),
            [vec![0, 1], vec![4, 5, 6], vec![0, 4, 8], vec![5, 6, 9, 10]]
        );
        assert_eq!(wide.stages(), narrow.stages());
        assert_eq!(wide.trained, narrow.trained);
        // Stage by stage: its own tables as they were, then the added ones,
        // all zeros.
        let sizes = [256, 4096, 4096, 65536];
        let tables = wide.tables();
        assert_eq!(
            tables.iter().map(Vec::len).collect::<Vec<_>>(),
            [sizes, sizes].concat()
        );
        assert!(tables[..2] == narrow.tables()[..2] && tables[4..6] == narrow.tables()[2..]);
        assert!([2, 3, 6, 7]
            .iter()
            .all(|&t| tables[t].iter().all(|&w| w == 0.0)));
        for b in [early, late, Board::EMPTY] {
            assert_eq!(wide.value(b), narrow.value(b), "{b:?}");
        }
        // A step moves its own tables as it moves the narrow network's, and
        // the added tables of the board's stage too; the file reads back.
        let (mut wide, mut narrow) = (wide, narrow);
        wide.adjust(late, 0.25);
        narrow.adjust(late, 0.25);
        let tables = wide.tables();
        assert!(tables[..2] == narrow.tables()[..2] && tables[4..6] == narrow.tables()[2..]);
        assert!([6, 7].iter().all(|&t| tables[t].iter().any(|&w| w != 0.0)));
        assert!([2, 3].iter().all(|&t| tables[t].iter().all(|&w| w == 0.0)));
        assert!(wide.value(late) > narrow.value(late));
        assert_eq!(Network::from_bytes(&wide.to_bytes()).unwrap(), wide);
        // Refused: nothing added, a tuple it has, one given twice, a bad one,
        // and more than a network may have.
        let e = narrow.clone().widen(&[]).unwrap_err();
        assert!(e.contains("no tuples to add"), "{e}");
        let e = narrow.clone().widen(&[vec![4, 5, 6]]).unwrap_err();
        assert!(e.contains("tuple 4,5,6 is in the network already"), "{e}");
        let e = narrow.clone().widen(&[vec![1, 2], vec![1, 2]]).unwrap_err();
        assert!(e.contains("tuple 1,2 is in the network already"), "{e}");
        let e = narrow.clone().widen(&[vec![3, 2]]).unwrap_err();
        assert!(e.contains("ascending"), "{e}");
        let many: Vec<Vec<u8>> = (0..15).map(|c| vec![c]).collect();
        let e = narrow.widen(&many).unwrap_err();
        assert!(e.contains("1 to 16 tuples, not 17"), "{e}");
    }

    #[test]
    fn stages_are_checked() {
        // Their text is checked in `stage.rs`; here, what a file does with it.
        let net = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 7, 0.25).unwrap();
        let split = net.split(vec![Boundary::tile(14)]).unwrap();
        assert!(split
            .split(vec![Boundary::tile(15)])
            .unwrap_err()
            .contains("split already"));
        let text =
            String::from_utf8_lossy(&split.to_bytes()).replace("stages 16384", "stages 16000");
        let e = Network::from_bytes(text.as_bytes()).unwrap_err();
        assert!(
            e.contains("line 3, field `stages`") && e.contains("`16000`"),
            "{e}"
        );
    }

    #[test]
    fn tuples_are_checked() {
        assert!(Network::new(vec![vec![0, 0]], Variant::CLASSIC, 1, 0.1).is_err());
        assert!(Network::new(vec![vec![0, 1, 2, 3, 4, 5, 6]], Variant::CLASSIC, 1, 0.1).is_err());
        assert!(Network::new(vec![], Variant::CLASSIC, 1, 0.1).is_err());
        assert_eq!(
            parse_tuples("0,1,2 3,4").unwrap(),
            vec![vec![0, 1, 2], vec![3, 4]]
        );
        assert!(parse_tuples("0,x").unwrap_err().contains("`x`"));
        for name in TUPLE_NAMES {
            assert!(named_tuples(name).is_some());
        }
    }
}

/// Packed files.
pub(super) mod packed {
    use crate::engine::{Board, Variant};
    use crate::network::packed::{
        pack, read_varint, unzigzag, write_varint, zigzag, Plan, MAX_MULTIPLE,
    };
    use crate::network::value::Network;

    /// A small network with weights of both signs, some tiny, most 0.
    fn sample() -> Network {
        let mut net =
            Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::CLASSIC, 3, 0.1).unwrap();
        for (i, b) in [
            [2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2],
            [0, 0, 0, 0, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [1024, 512, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ]
        .into_iter()
        .enumerate()
        {
            let b = Board::from_values(b).unwrap();
            net.adjust(b, [1234.56, -0.01, -77.7][i]);
        }
        net.trained.games = 42;
        net
    }

    #[test]
    fn varints_and_zigzag_round_trip() {
        for x in [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX] {
            let mut out = Vec::new();
            write_varint(&mut out, x);
            let mut data = &out[..];
            assert_eq!(read_varint(&mut data), Some(x));
            assert!(data.is_empty());
        }
        for k in [
            0i64,
            -1,
            1,
            -2,
            2,
            MAX_MULTIPLE,
            -MAX_MULTIPLE,
            i64::MIN,
            i64::MAX,
        ] {
            assert_eq!(unzigzag(zigzag(k)), k);
        }
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
        assert_eq!(read_varint(&mut &[0x80u8, 0x80][..]), None);
        assert_eq!(read_varint(&mut &[0xFFu8; 11][..]), None);
    }

    #[test]
    fn a_packed_network_is_the_network_rounded_to_its_step() {
        let net = sample();
        let step = 0.5;
        let (bytes, packing) = pack(&net, Plan::step(step), 0xabc).unwrap();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.tuples(), net.tuples());
        assert_eq!(back.trained, net.trained);
        let mut kept = 0;
        for (a, b) in net
            .tables()
            .iter()
            .flatten()
            .zip(back.tables().iter().flatten())
        {
            assert!((a - b).abs() <= step / 2.0, "{a} -> {b}");
            assert_eq!(*b, (a / step).round() * step);
            kept += usize::from(*b != 0.0);
        }
        // The tiny weights are gone, the others kept.
        assert!(kept > 0 && net.tables().iter().flatten().filter(|w| **w != 0.0).count() > kept);
        assert_eq!(packing.kept, kept);
        // Packing the packed network again gives the same file.
        assert_eq!(pack(&back, Plan::step(step), 0xabc).unwrap().0, bytes);
        // With a drop, the weights nearer 0 are left out too, the others
        // rounded as before.
        let (dropped, p) = pack(
            &net,
            Plan {
                drop: 100.0,
                ..Plan::step(step)
            },
            0xabc,
        )
        .unwrap();
        let (back_dropped, packing) = Network::read(&dropped).unwrap();
        assert_eq!(packing, Some(p));
        assert_eq!(p.drop, 100.0);
        for (a, b) in net
            .tables()
            .iter()
            .flatten()
            .zip(back_dropped.tables().iter().flatten())
        {
            let expect = if a.abs() < 100.0 {
                0.0
            } else {
                (a / step).round() * step
            };
            assert_eq!(*b, expect, "{a}");
        }
        assert!(p.kept > 0 && p.kept < kept);
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            text.contains("\nstep 0.5\ndrop 0\nsource 0000000000000abc\n"),
            "{text}"
        );
    }

    #[test]
    fn damaged_packed_files_are_refused_with_the_reason() {
        let (bytes, _) = pack(&sample(), Plan::step(0.5), 1).unwrap();
        let e = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.contains("hash does not match"), "{e}");
        let mut flipped = bytes.clone();
        let at = flipped.len() - 12;
        flipped[at] ^= 0x10;
        let e = Network::from_bytes(&flipped).unwrap_err();
        assert!(e.contains("hash does not match"), "{e}");
        let text = String::from_utf8_lossy(&bytes);
        let bad = text.replacen("step 0.5", "step -2", 1);
        let e = Network::from_bytes(bad.as_bytes()).unwrap_err();
        assert!(e.contains("line 8, field `step`"), "{e}");
        let bad = text.replacen("source 0000000000000001", "source 1", 1);
        let e = Network::from_bytes(bad.as_bytes()).unwrap_err();
        assert!(e.contains("line 10, field `source`"), "{e}");
        let bad = text.replacen("drop 0", "drop x", 1);
        let e = Network::from_bytes(bad.as_bytes()).unwrap_err();
        assert!(e.contains("line 9, field `drop`"), "{e}");
        assert!(pack(&sample(), Plan::step(0.0), 1).is_err());
        assert!(pack(&sample(), Plan::step(1e-9), 1)
            .unwrap_err()
            .contains("larger step"));
    }

    #[test]
    fn keeping_the_most_learned_weights_ranks_them_by_their_error_sizes() {
        use crate::network::coherence::Coherence;
        use crate::network::order::reordered;
        use crate::network::packed::{KeepBy, MostLearned};
        let net = sample();
        // Weights by their place in the file, whose order breaks ties.
        let in_file = |net: &Network| -> Vec<f32> {
            net.tables().iter().flat_map(|t| reordered(t)).collect()
        };
        let weights = in_file(&net);
        let live: Vec<usize> = (0..weights.len())
            .filter(|&i| (weights[i] / 0.5).round() != 0.0)
            .collect();
        assert!(live.len() >= 6, "{live:?}");
        // Sizes by hand: the first live weight learned least, the last two
        // tie at the cut, one weight that rounds to 0 learned most.
        let mut sums = Coherence::new(&net);
        let mut size = |i: usize, s: f32| set_size(&mut sums, i, s);
        for (rank, &i) in live.iter().enumerate() {
            size(i, 10.0 + rank as f32);
        }
        let n = live.len();
        size(live[n - 2], 5.0);
        size(live[n - 1], 5.0);
        size(live[0], 1.0);
        let dead = (0..weights.len()).find(|&i| weights[i] == 0.0).unwrap();
        size(dead, 1e9);
        let most = MostLearned {
            count: n - 2,
            sums: 0xfeed,
            by: KeepBy::Sums,
            unmet: false,
        };
        let sizes = sums.error_sizes();
        let plan = Plan {
            most_learned: Some((most, &sizes)),
            ..Plan::step(0.5)
        };
        let (bytes, packing) = pack(&net, plan, 7).unwrap();
        assert_eq!(packing.kept, n - 2);
        let (back, read) = Network::read(&bytes).unwrap();
        assert_eq!(read, Some(packing));
        assert_eq!(packing.most_learned, Some(most));
        let back = in_file(&back);
        // Kept: every live weight but the least learned, and the first of
        // the two at the cut.
        for (rank, &i) in live.iter().enumerate() {
            let kept = rank != 0 && rank != n - 1;
            let expect = if kept {
                (weights[i] / 0.5).round() * 0.5
            } else {
                0.0
            };
            assert_eq!(back[i], expect, "live weight {rank}");
        }
        assert_eq!(back[dead], 0.0);
        let text = String::from_utf8_lossy(&bytes);
        let field = format!(
            "\ndrop 0\nkeep {} most-learned sums 000000000000feed\nsource ",
            n - 2
        );
        assert!(text.contains(&field), "{text}");
        // A count at or above the live weights keeps them all.
        let all = MostLearned {
            count: n,
            sums: 1,
            by: KeepBy::Sums,
            unmet: false,
        };
        let plan = Plan {
            most_learned: Some((all, &sizes)),
            ..Plan::step(0.5)
        };
        assert_eq!(pack(&net, plan, 7).unwrap().1.kept, n);
        // A damaged field is named by its line.
        let bad = text.replacen("most-learned sums", "most-learned", 1);
        let e = Network::from_bytes(&rehashed(bad.into_bytes())).unwrap_err();
        assert!(e.contains("field `keep`"), "{e}");
        // Sums of another network's size are refused.
        let other = Network::new(vec![vec![0, 1]], Variant::CLASSIC, 3, 0.1).unwrap();
        let other = Coherence::new(&other).error_sizes();
        let plan = Plan {
            most_learned: Some((most, &other)),
            ..Plan::step(0.5)
        };
        assert!(pack(&net, plan, 7).unwrap_err().contains("cover"));
    }

    #[test]
    fn keeping_by_impact_weighs_each_sum_by_the_square_of_its_weight() {
        use crate::network::coherence::Coherence;
        use crate::network::order::reordered;
        use crate::network::packed::{KeepBy, MostLearned};
        let net = sample();
        let step = 0.5;
        let weights: Vec<f32> = net.tables().iter().flat_map(|t| reordered(t)).collect();
        let k = |i: usize| (weights[i] / step).round().abs();
        let live: Vec<usize> = (0..weights.len()).filter(|&i| k(i) != 0.0).collect();
        // The live weight nearest 0 learned most, the one farthest from 0
        // a little less, every other one less still.
        let small = *live
            .iter()
            .min_by(|&&a, &&b| k(a).total_cmp(&k(b)))
            .unwrap();
        let large = *live
            .iter()
            .max_by(|&&a, &&b| k(a).total_cmp(&k(b)))
            .unwrap();
        assert!(k(large) > 2.0 * k(small), "{} {}", k(small), k(large));
        let mut sums = Coherence::new(&net);
        let mut size = |i: usize, s: f32| set_size(&mut sums, i, s);
        for &i in &live {
            size(i, 1.0);
        }
        size(small, 3.0);
        size(large, 2.0);
        let sizes = sums.error_sizes();
        for (by, kept, word) in [
            (KeepBy::Sums, small, "most-learned"),
            (KeepBy::Impact, large, "largest-impact"),
        ] {
            let most = MostLearned {
                count: 1,
                sums: 0xbeef,
                by,
                unmet: false,
            };
            let plan = Plan {
                most_learned: Some((most, &sizes)),
                ..Plan::step(step)
            };
            let (bytes, packing) = pack(&net, plan, 7).unwrap();
            let (back, read) = Network::read(&bytes).unwrap();
            assert_eq!(read, Some(packing));
            assert_eq!(packing.most_learned, Some(most));
            let back: Vec<f32> = back.tables().iter().flat_map(|t| reordered(t)).collect();
            for (i, w) in back.iter().enumerate() {
                let expect = if i == kept {
                    (weights[i] / step).round() * step
                } else {
                    0.0
                };
                assert_eq!(*w, expect, "{by:?}, weight {i}");
            }
            let field = format!("\nkeep 1 {word} sums 000000000000beef\n");
            assert!(String::from_utf8_lossy(&bytes).contains(&field), "{by:?}");
        }
    }

    #[test]
    fn sums_that_miss_a_whole_table_are_refused_rather_than_leave_it_out() {
        use crate::network::coherence::Coherence;
        use crate::network::error_sizes::ErrorSizes;
        use crate::network::order::reordered;
        use crate::network::packed::{KeepBy, MostLearned};
        // As after `learn --from` a file without its sums, when the run's
        // games never met the second tuple: its weights have no sum.
        let net = sample();
        let first_len = net.tables()[0].len();
        let weights: Vec<f32> = net.tables().iter().flat_map(|t| reordered(t)).collect();
        let live = |i: &usize| (weights[*i] / 0.5).round() != 0.0;
        let mut sums = Coherence::new(&net);
        for i in (0..first_len).filter(live) {
            set_size(&mut sums, i, 1.0);
        }
        let second = (first_len..weights.len()).filter(live).count();
        assert!(second > 0);
        let most = MostLearned {
            count: 1,
            sums: 1,
            by: KeepBy::Impact,
            unmet: false,
        };
        fn plan(most: MostLearned, sums: &ErrorSizes) -> Plan<'_> {
            Plan {
                most_learned: Some((most, sums)),
                ..Plan::step(0.5)
            }
        }
        let e = pack(&net, plan(most, &sums.error_sizes()), 7).unwrap_err();
        assert!(
            e.contains(&format!(
                "stage 0 tuple 1 has {second} weights that are not 0"
            )) && e.contains("--drop"),
            "{e}"
        );
        // --keep-unmet keeps that table whole, as it is on the grid, and
        // ranks the rest of the count among the weights the sums met.
        let unmet = MostLearned {
            count: second + 1,
            unmet: true,
            ..most
        };
        let (bytes, packing) = pack(&net, plan(unmet, &sums.error_sizes()), 7).unwrap();
        assert_eq!(packing.kept, second + 1);
        let (back, read) = Network::read(&bytes).unwrap();
        assert_eq!(read.and_then(|p| p.most_learned), Some(unmet));
        let back_weights: Vec<f32> = back.tables().iter().flat_map(|t| reordered(t)).collect();
        for i in first_len..weights.len() {
            assert_eq!(
                back_weights[i],
                (weights[i] / 0.5).round() * 0.5,
                "weight {i}"
            );
        }
        let first_kept = (0..first_len).filter(|&i| back_weights[i] != 0.0).count();
        assert_eq!(first_kept, 1);
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("largest-impact sums 0000000000000001 unmet-kept\n"));
        // A count the whole tables alone exceed is refused, not cut short.
        let short = MostLearned {
            count: second - 1,
            ..unmet
        };
        let e = pack(&net, plan(short, &sums.error_sizes()), 7).unwrap_err();
        assert!(e.contains(&format!("hold {second} weights")), "{e}");
        // One sum in the table is enough: the sums then speak of it.
        let one = (first_len..weights.len()).find(live).unwrap();
        set_size(&mut sums, one, 1.0);
        assert_eq!(
            pack(&net, plan(most, &sums.error_sizes()), 7)
                .unwrap()
                .1
                .kept,
            1
        );
    }

    /// Sets the sum of error sizes of the weight `i`-th in file order.
    fn set_size(sums: &mut crate::network::coherence::Coherence, i: usize, s: f32) {
        use crate::network::order::{cells_of, reversed};
        let (mut t, mut at) = (0, i);
        while at >= sums.tables[t].len() {
            at -= sums.tables[t].len();
            t += 1;
        }
        let cells = cells_of(sums.tables[t].len());
        sums.tables[t][reversed(at, cells)].size = s;
    }

    /// `b` with its last 8 bytes replaced by the hash of the rest.
    pub(in crate::network) fn rehashed(mut b: Vec<u8>) -> Vec<u8> {
        let n = b.len();
        let h = crate::fnv::hash(&b[..n - 8]);
        b[n - 8..].copy_from_slice(&h.to_le_bytes());
        b
    }

    #[test]
    fn a_body_that_disagrees_with_its_header_is_refused() {
        // Rewritten with a wrong count and a fresh hash: only the count
        // check can catch it.
        let (bytes, packing) = pack(&sample(), Plan::step(0.5), 1).unwrap();
        let kept = format!("kept {}\n", packing.kept);
        // One entry too many: the gaps take the first multiple, and the
        // multiples run out. One too few: a gap is read as a multiple, and
        // whatever it gives, the stream is refused.
        let too_few = ["bytes follow", "not a kept weight", "lies past"];
        for (count, expect) in [
            (packing.kept + 1, &["ends early"][..]),
            (packing.kept - 1, &too_few[..]),
        ] {
            let text = bytes.clone();
            let at = text
                .windows(kept.len())
                .position(|w| w == kept.as_bytes())
                .unwrap();
            let mut b = text[..at].to_vec();
            b.extend_from_slice(format!("kept {count}\n").as_bytes());
            b.extend_from_slice(&text[at + kept.len()..]);
            let e = Network::from_bytes(&rehashed(b)).unwrap_err();
            assert!(expect.iter().any(|x| e.contains(x)), "{e}");
        }
    }
}

/// Learning by TD(0).
pub(super) mod learn {
    use crate::engine::{play_game, Board, RandomPlacer, Start, TurnOrder, Variant};
    use crate::network::learn::{greedy, learn, play, LearnStarts, Lesson};
    use crate::network::method::Method;
    use crate::network::tuples::named_tuples;
    use crate::network::value::Network;

    /// TD(0) one game after another at α 0.1, in blocks of `block`.
    fn plain(block: u64, starts: Option<&LearnStarts>) -> Lesson<'_> {
        Lesson {
            method: Method::PLAIN,
            alpha: 0.1,
            block,
            starts,
        }
    }

    pub(in crate::network) fn fresh(seed: u64) -> Network {
        Network::new(
            named_tuples("lines-squares").unwrap(),
            Variant::CLASSIC,
            seed,
            0.1,
        )
        .unwrap()
    }

    #[test]
    fn resuming_equals_learning_in_one_piece() {
        let mut whole = fresh(5);
        learn(&mut whole, None, &plain(3, None), 6, |_, _, _| true);
        let mut first = fresh(5);
        learn(&mut first, None, &plain(3, None), 3, |_, _, _| true);
        let mut resumed = Network::from_bytes(&first.to_bytes()).unwrap();
        learn(&mut resumed, None, &plain(3, None), 6, |_, _, _| true);
        assert_eq!(resumed, whole);
        assert_eq!(whole.trained.games, 6);
        assert_ne!(whole, fresh(5));
    }

    #[test]
    fn a_depth_0_search_plays_the_move_learning_plays() {
        // The search scores a leaf as points earned + value, and the points
        // earned from the root differ between moves by their rewards alone.
        use crate::search::{Depth, SearchParams, Searcher};
        let mut net = fresh(2);
        learn(&mut net, None, &plain(200, None), 200, |_, _, _| true);
        let params = SearchParams::new(Depth::Fixed(0), Variant::CLASSIC);
        let mut searcher = Searcher::new(12);
        let mut boards = Vec::new();
        let mut policy = |b: Board| {
            boards.push(b);
            greedy(&net, b).0
        };
        let order = TurnOrder {
            timing: Variant::CLASSIC.timing(),
            start_tiles: 2,
            move_limit: Some(300),
        };
        play_game(
            order,
            Board::EMPTY,
            &mut policy,
            &mut RandomPlacer::new(9, 0.1),
            |_, _| {},
        );
        assert!(boards.len() > 100);
        for b in boards {
            let d = searcher.decide(&net, b, &params).unwrap();
            assert_eq!(d.dir, greedy(&net, b).0, "{b:?}");
        }
    }

    /// The mean score of greedy play with `net`, learning nothing, on 100
    /// seeds no learning game used.
    pub(in crate::network) fn greedy_mean(net: &Network) -> f64 {
        let order = TurnOrder {
            timing: Variant::CLASSIC.timing(),
            start_tiles: 2,
            move_limit: None,
        };
        let total: u64 = (0..100)
            .map(|i| {
                let mut placer = RandomPlacer::new(crate::seeds::game_seed(77, i), 0.1);
                let mut policy = |b: Board| greedy(net, b).0;
                play_game(order, Board::EMPTY, &mut policy, &mut placer, |_, _| {}).score
            })
            .sum();
        total as f64 / 100.0
    }

    #[test]
    fn learning_raises_the_score_of_greedy_play() {
        // Untrained, greedy play takes the move of most points.
        let mut net = fresh(11);
        let before = greedy_mean(&net);
        let mut blocks = Vec::new();
        learn(&mut net, None, &plain(100, None), 400, |_, _, s| {
            blocks.push(*s);
            true
        });
        let ends: Vec<u64> = blocks.iter().map(|b| b.games).collect();
        assert_eq!(ends, [100, 200, 300, 400]);
        let after = greedy_mean(&net);
        assert!(after > 2.0 * before, "{before} -> {after}");
    }

    #[test]
    fn a_share_of_games_starts_from_the_positions_and_resumes_the_same() {
        let late = Start {
            board: Board::from_ranks([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 12, 11, 10, 9]),
            score: 70_000,
            moves: 4_000,
        };
        let starts = LearnStarts {
            positions: vec![late],
            share: 0.25,
        };
        let picked = (0..4000).filter(|&g| starts.pick(3, g).is_some()).count();
        assert!((900..1100).contains(&picked), "{picked} of 4000");
        assert_eq!(starts.pick(3, 17), starts.pick(3, 17));
        let all = LearnStarts {
            share: 1.0,
            ..starts.clone()
        };
        assert!((0..100).all(|g| all.pick(3, g) == Some(late)));
        // A game from the position goes on from its score and moves.
        let net = fresh(4);
        let record = play(&net, Variant::CLASSIC, 9, Some(late), Method::PLAIN).record;
        assert!(record.moves > late.moves && record.score > late.score);
        assert!(record.max_tile >= 4096);
        // Learning with starts is a function of the run as without them.
        let half = LearnStarts {
            share: 0.5,
            ..starts
        };
        assert!((0..6).any(|g| half.pick(5, g).is_some()));
        let mut whole = fresh(5);
        learn(&mut whole, None, &plain(3, Some(&half)), 6, |_, _, _| true);
        let mut first = fresh(5);
        learn(&mut first, None, &plain(3, Some(&half)), 3, |_, _, _| true);
        let mut resumed = Network::from_bytes(&first.to_bytes()).unwrap();
        learn(&mut resumed, None, &plain(3, Some(&half)), 6, |_, _, _| {
            true
        });
        assert_eq!(resumed, whole);
        let mut unstarted = fresh(5);
        learn(&mut unstarted, None, &plain(3, None), 6, |_, _, _| true);
        assert_ne!(unstarted, whole);
    }
}

/// The learning folder's progress file.
mod folder {
    use std::path::Path;

    use crate::network::folder::{progress_bytes, rows_up_to, FolderError, PROGRESS_COLUMNS};

    /// A progress file as `learn` wrote it before it used the csv crate
    /// (its rows written with `format!`, joined by hand).
    const WRITTEN: &str = "games,alpha,mean_score,max_score,reach_2048,reach_8192,reach_16384,\
                           reach_32768,seconds\n\
                           20,0.1,1234.5,3000,0.0000,0.0000,0.0000,0.0000,0.1\n\
                           40,0.1,2345.6,5000,0.0500,0.0000,0.0000,0.0000,0.2\n\
                           60,0.05,3456.7,7000,0.1000,0.0000,0.0000,0.0000,0.3\n";

    #[test]
    fn rows_read_back_are_written_back_byte_for_byte() {
        let path = Path::new("progress.csv");
        let rows = rows_up_to(WRITTEN, 60, path).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(progress_bytes(&rows), WRITTEN.as_bytes());
        // The resume rule: rows past the network's games are dropped.
        let rows = rows_up_to(WRITTEN, 40, path).unwrap();
        let kept: Vec<&str> = WRITTEN.lines().take(3).collect();
        assert_eq!(
            String::from_utf8(progress_bytes(&rows)).unwrap(),
            kept.join("\n") + "\n"
        );
        assert_eq!(
            progress_bytes(&[]),
            (PROGRESS_COLUMNS.join(",") + "\n").as_bytes()
        );
    }

    #[test]
    fn a_progress_file_learn_did_not_write_is_refused_with_its_line() {
        let path = Path::new("dir/progress.csv");
        let message = |text: &str| match rows_up_to(text, 100, path) {
            Err(e @ FolderError::Progress { .. }) => {
                assert!(e.is_bad_input());
                e.to_string()
            }
            other => panic!("{other:?}"),
        };
        let e = message("game,alpha\n20,0.1\n");
        assert!(
            e.starts_with("dir/progress.csv: line 1: expected the header `games,alpha,"),
            "{e}"
        );
        assert!(message("").contains("line 1"));
        let e = message(&WRITTEN.replacen("\n40,", "\n4x,", 1));
        assert_eq!(
            e,
            "dir/progress.csv: line 3, field `games`: `4x` is not a count"
        );
    }
}
