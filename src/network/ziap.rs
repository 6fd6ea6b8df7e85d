//! A network as the weights file of ziap/2048-tdl, a public n-tuple
//! learner and player (MIT), so that its program plays our weights: to time
//! both programs on the same network, or to play a network there.
//!
//! Its file is every table in turn, tuple by tuple, as raw f32 in the
//! machine's order (little-endian on the x86-64 it builds for), nothing
//! else. Its tuples are compiled in (`make STRUCTURE=…`), and its indices
//! read a tuple's cells from the last to the first: the index our file
//! holds at `Σ_j rank(c_j)·16^j` is theirs at `Σ_j rank(c_j)·16^(n−1−j)`,
//! which is our tables' play order in memory (`network::order`). Both sum
//! over the 8 symmetries of the square, so any numbering of the cells that
//! is a symmetry of ours gives the same value; played there, our network's
//! greedy games score as here (the guide's networks page).

use super::tuples::named_tuples;
use super::value::Network;
use crate::engine::Variant;

/// The names of ziap/2048-tdl's structures, with the tuple set of ours each
/// equals, tuple for tuple and in order.
const STRUCTURES: [(&str, &str); 4] = [
    ("nw5x4", "lines-squares"),
    ("nw4x5", "five"),
    ("nw4x6", "six"),
    ("nw8x6", "eight"),
];

/// The structure of ziap/2048-tdl that has `net`'s tuples, if one has.
pub fn structure(net: &Network) -> Option<&'static str> {
    STRUCTURES
        .iter()
        .find(|(_, ours)| named_tuples(ours).as_deref() == Some(net.tuples()))
        .map(|&(theirs, _)| theirs)
}

/// `net` as ziap/2048-tdl's weights file, or why it cannot be one: that
/// program has one stage, plays the classic game, and has no structure of
/// other tuples.
pub fn to_ziap_bytes(net: &Network) -> Result<Vec<u8>, String> {
    if !net.stages().is_empty() {
        return Err(
            "the network has stages; ziap/2048-tdl scores every board with one set \
                    of tables"
                .into(),
        );
    }
    if net.trained.variant != Variant::CLASSIC {
        return Err(format!(
            "the network was learned for the {} game; ziap/2048-tdl plays the classic one",
            net.trained.variant.name()
        ));
    }
    if structure(net).is_none() {
        return Err(format!(
            "ziap/2048-tdl has no structure of these tuples (it has those of {})",
            STRUCTURES.map(|(_, ours)| ours).join(", ")
        ));
    }
    // Play order is theirs: the tables as they are in memory.
    let mut out = Vec::with_capacity(4 * net.weight_count());
    for w in net.tables().iter().flatten() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Board;

    #[test]
    fn a_weight_moves_to_the_index_that_reads_its_cells_backwards() {
        let mut net =
            Network::new(named_tuples("five").unwrap(), Variant::CLASSIC, 1, 0.1).unwrap();
        // Ranks 1, 2, 3 in cells 0, 1, 2 of the first row: the first tuple
        // (cells 0..=4) reads them as our index 0x00321 under the identity.
        let b = Board::from_values([2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        net.adjust(b, 1.0);
        assert_eq!(structure(&net), Some("nw4x5"));
        let bytes = to_ziap_bytes(&net).unwrap();
        assert_eq!(bytes.len(), 4 * net.weight_count());
        let weight = |table: usize, index: usize| {
            let at = 4 * (table * (1 << 20) + index);
            f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
        };
        let in_file = super::super::order::reordered(&net.tables()[0]);
        assert_eq!(in_file[0x00321], weight(0, 0x12300));
        assert_ne!(weight(0, 0x12300), 0.0);
        // Every weight goes somewhere, once.
        let ours: f32 = net.tables().iter().flatten().sum();
        let theirs: f32 = (0..4)
            .flat_map(|t| (0..1 << 20).map(move |i| (t, i)))
            .map(|(t, i)| weight(t, i))
            .sum();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn what_ziap_cannot_play_is_refused_with_the_reason() {
        let six = named_tuples("lines-squares").unwrap();
        let twos = Network::new(six.clone(), Variant::Twos, 1, 0.1).unwrap();
        assert!(to_ziap_bytes(&twos).unwrap_err().contains("twos"));
        let mut split = Network::new(six, Variant::CLASSIC, 1, 0.1).unwrap();
        split.set_stages(super::super::stage::parse_stages("16384").unwrap());
        assert!(to_ziap_bytes(&split).unwrap_err().contains("stages"));
        let odd = Network::new(vec![vec![0, 1, 2]], Variant::CLASSIC, 1, 0.1).unwrap();
        let e = to_ziap_bytes(&odd).unwrap_err();
        assert!(e.contains("no structure") && e.contains("six"), "{e}");
    }
}
