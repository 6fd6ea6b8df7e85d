//! Tests of stages that promote: a stage in use only once learning reaches
//! it, then a copy of the one before; the same network on any thread count
//! and across a resume; the state in the file.

use crate::engine::{Board, Variant};
use crate::network::coherence::Coherence;
use crate::network::learn::{learn, Lesson};
use crate::network::method::{Method, Schedule};
use crate::network::stage::Boundary;
use crate::network::tests::learn::fresh;
use crate::network::value::Network;

fn board(values: [u32; 16]) -> Board {
    Board::from_values(values).unwrap()
}

/// An early board, and the same with a 256 and with a 512 in a corner.
fn boards() -> [Board; 3] {
    let mut cells = [2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 128, 0, 0, 2];
    let early = board(cells);
    cells[12] = 256;
    let late = board(cells);
    cells[12] = 512;
    [early, late, board(cells)]
}

/// A small network with stages at 256 and 512 (ranks 8 and 9), the first
/// alone in use.
fn closed() -> Network {
    let mut net = Network::new(vec![vec![0, 1], vec![4, 5, 6]], Variant::Twos, 3, 0.1).unwrap();
    net.set_stages(vec![Boundary::tile(8), Boundary::tile(9)]);
    net.close_later_stages();
    net
}

#[test]
fn a_stage_is_scored_by_the_last_in_use_until_promoted_then_starts_as_its_copy() {
    let [early, late, later] = boards();
    let mut net = closed();
    net.adjust(early, 1.5);
    net.adjust(late, -0.25);
    let before = [early, late, later].map(|b| net.value(b));
    // Every board is scored by the first stage's tables.
    assert_eq!(net.stage_of(later), 0);
    assert!(before[1] != 0.0 && before[2] != 0.0);
    assert!(!net.promote_to(early));
    assert!(net.promote_to(late));
    assert_eq!(
        (net.opened(), net.stage_of(late), net.stage_of(later)),
        (2, 1, 1)
    );
    assert_eq!([early, late, later].map(|b| net.value(b)), before);
    // The promoted stage learns alone.
    net.adjust(late, 2.0);
    assert_eq!(net.value(early), before[0]);
    assert!(net.value(late) > before[1]);
    // A jump past a stage promotes both, each from the one before.
    assert!(net.promote_to(later));
    assert!(net.all_opened());
    let tables = net.tables();
    assert_eq!(tables[4..6], tables[2..4]);
    assert!(!net.promote_to(later));
}

#[test]
fn the_stages_in_use_travel_in_the_file_and_bad_counts_are_named() {
    let [early, late, _] = boards();
    let mut net = closed();
    net.adjust(early, 1.0);
    net.promote_to(late);
    let bytes = net.to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.contains("\nstages 256,512\nopened 2\nvariant twos\n"),
        "{text}"
    );
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    for bad in ["opened 0", "opened 3", "opened two"] {
        let altered = text.replace("opened 2", bad);
        let e = Network::from_bytes(altered.as_bytes()).unwrap_err();
        assert!(e.contains("line 4, field `opened`"), "{bad}: {e}");
    }
    // Once every stage is in use the line goes: a file as before.
    net.promote_to(boards()[2]);
    assert!(!String::from_utf8_lossy(&net.to_bytes()).contains("opened"));
    // A blend needs the same stages in use.
    let e = Network::blend(&[&net, &closed()], &[]).unwrap_err();
    assert!(e.contains("other stages"), "{e}");
}

const PROMOTING: Method = Method {
    lambda: 0.5,
    coherence: true,
    restarts: true,
    lookahead: false,
    until: None,
    schedule: Schedule::Rounds(4),
};

/// `fresh(seed)` with stages at 1024 and 2048, promoted as reached, learned
/// to `to` games on `threads` threads (checking at every block that the
/// copy rounds are played on follows it: a debug assertion of `learn`).
fn promoted(seed: u64, to: u64, threads: usize) -> (Network, Coherence, Vec<usize>) {
    let mut net = fresh(seed);
    net.set_stages(vec![Boundary::tile(10), Boundary::tile(11)]);
    net.close_later_stages();
    let mut coh = Coherence::new(&net);
    let lesson = Lesson {
        method: PROMOTING,
        alpha: 1.0,
        block: 4,
        starts: None,
    };
    let mut opened = Vec::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        learn(&mut net, Some(&mut coh), &lesson, to, |n, _, _| {
            opened.push(n.opened());
            true
        })
    });
    (net, coh, opened)
}

#[test]
fn promoting_rounds_learn_one_network_on_any_thread_count_and_across_a_resume() {
    let (one, coh_one, opened) = promoted(6, 48, 1);
    // The last stage is reached well after the first block.
    assert!(opened[0] < 3 && opened.last() == Some(&3), "{opened:?}");
    assert!(opened.is_sorted(), "{opened:?}");
    let (two, coh_two, _) = promoted(6, 48, 2);
    let (three, _, _) = promoted(6, 48, 3);
    assert_eq!(one, two);
    assert_eq!(one, three);
    assert!(coh_one == coh_two);
    // Stopped after a block and read back from the files, it ends the same.
    let first_block_opened = opened[0];
    let (half, half_coh, _) = promoted(6, 4, 2);
    assert_eq!(half.opened(), first_block_opened);
    let mut net = Network::from_bytes(&half.to_bytes()).unwrap();
    let (_, mut coh) = Coherence::from_bytes(&half_coh.to_bytes(4), &net).unwrap();
    let lesson = Lesson {
        method: PROMOTING,
        alpha: 1.0,
        block: 4,
        starts: None,
    };
    learn(&mut net, Some(&mut coh), &lesson, 48, |_, _, _| true);
    assert_eq!(net, one);
}

#[test]
fn promoting_rounds_learn_the_network_pinned_before_the_pipeline() {
    // The hashes of the learner of e9e8479 (rounds played whole, then
    // copied at a barrier), on 1 thread and on 4.
    for threads in [1, 4] {
        let (net, coh, _) = promoted(6, 48, threads);
        let hashes = [net.to_bytes(), coh.to_bytes(48)].map(|b| crate::fnv::hash(&b));
        assert_eq!(hashes, [0x438c_8141_464e_4d7e, 0x2071_b09a_12f6_35a7]);
    }
}
