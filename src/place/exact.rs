//! Exact play of the place-a-2 puzzle on small boards: every reachable state
//! is visited, so the largest tile found is the largest reachable, and the
//! first turn it appears on is the fewest turns that can make it.
//!
//! Every turn adds 2 to the sum of the tiles, so all the states after k turns
//! have the sum 2k and a state can only be reached after exactly k turns: the
//! game graph is layered. The search builds the layers one after another,
//! each as a set, so a state reached along many paths (a transposition) is
//! kept once. The 8 symmetries of the square map games onto games, and each
//! state is kept only in its canonical form (the least key of its 8 images).
//!
//! Keys pack 4 bits a cell, so this search takes boards up to 4×4 with tiles
//! up to 32768; a larger tile stops it with an error rather than a cap.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use super::rules::PlaceBoard;
use crate::engine::Direction;
use crate::fnv;

/// Largest side length the exact search takes.
pub const MAX_EXACT_SIDE: usize = 4;

/// A canonical state: 4 bits a cell, row-major from the low bits.
type Key = u64;

/// Why the exact search stopped early.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    #[error("the exact search takes boards up to {MAX_EXACT_SIDE}×{MAX_EXACT_SIDE}, not {0}×{0}")]
    Size(usize),
    #[error("a tile above 32768 does not fit the exact search's 4-bit cells")]
    RankTooLarge,
}

/// A multiplicative hash for keys that are already well spread integers.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv::extend(self.0, bytes);
    }
    fn write_u64(&mut self, k: u64) {
        let x = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }
}

type KeySet = HashSet<Key, BuildHasherDefault<KeyHasher>>;

/// The 8 symmetries of an `n`×`n` square as cell maps: `maps[s][i]` is the
/// cell whose rank lands on cell `i` in image `s` (identity first).
fn symmetry_maps(n: usize) -> [Vec<usize>; 8] {
    std::array::from_fn(|s| {
        (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
                let r = if s & 2 != 0 { n - 1 - r } else { r };
                let c = if s & 1 != 0 { n - 1 - c } else { c };
                r * n + c
            })
            .collect()
    })
}

/// The exhaustive search's result: its layers of canonical states.
pub struct Exact {
    n: usize,
    maps: [Vec<usize>; 8],
    /// `layers[k]`: the canonical states after k turns, sorted.
    layers: Vec<Vec<Key>>,
    /// For each rank, the first layer holding it and one state there.
    first: Vec<Option<(usize, Key)>>,
    /// Whether every reachable state was visited (false: time ran out).
    pub complete: bool,
    /// Distinct canonical states visited, all layers together.
    pub states: u64,
    /// Seconds the search took.
    pub seconds: f64,
}

impl Exact {
    /// Searches every state reachable on the empty `n`×`n` board, or as many
    /// layers as fit before `deadline`.
    pub fn search(n: usize, deadline: Option<Instant>) -> Result<Exact, ExactError> {
        if n > MAX_EXACT_SIDE {
            return Err(ExactError::Size(n));
        }
        let empty = PlaceBoard::empty(n).ok_or(ExactError::Size(n))?;
        let start = Instant::now();
        let mut search = Exact {
            n,
            maps: symmetry_maps(n),
            layers: vec![vec![0]],
            first: vec![None; 16],
            complete: false,
            states: 1,
            seconds: 0.0,
        };
        debug_assert_eq!(search.key(&empty), 0);
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let layer = search.layers.len();
            let mut next = KeySet::default();
            for (i, &key) in search
                .layers
                .last()
                .expect("layer 0 exists")
                .iter()
                .enumerate()
            {
                // A large layer checks the clock as it goes; a layer cut
                // short is dropped.
                if i % 4096 == 4095 && deadline.is_some_and(|d| Instant::now() >= d) {
                    search.seconds = start.elapsed().as_secs_f64();
                    return Ok(search);
                }
                let board = search.unpack(key);
                for (_, _, child) in turns(&board) {
                    let rank = child.max_rank();
                    if rank > 15 {
                        return Err(ExactError::RankTooLarge);
                    }
                    let key = search.key(&child);
                    if search.first[rank as usize].is_none() {
                        search.first[rank as usize] = Some((layer, key));
                    }
                    next.insert(key);
                }
            }
            if next.is_empty() {
                search.complete = true;
                break;
            }
            let mut next: Vec<Key> = next.into_iter().collect();
            next.sort_unstable();
            search.states += next.len() as u64;
            search.layers.push(next);
        }
        search.seconds = start.elapsed().as_secs_f64();
        Ok(search)
    }

    /// The largest rank found (the largest reachable when [`Exact::complete`]).
    pub fn best_rank(&self) -> u8 {
        self.first.iter().rposition(Option::is_some).unwrap_or(0) as u8
    }

    /// The fewest turns that make a tile of `rank` or more, if found.
    pub fn turns_to(&self, rank: u8) -> Option<usize> {
        self.first
            .get(rank as usize..)?
            .iter()
            .flatten()
            .map(|&(layer, _)| layer)
            .min()
    }

    /// Number of layers built beyond the empty board (the longest game found).
    pub fn longest(&self) -> usize {
        self.layers.len() - 1
    }

    /// A shortest sequence of turns (row-major cell, move) that makes a tile
    /// of `rank` or more, if the search found one.
    pub fn transcript(&self, rank: u8) -> Option<Vec<(usize, Direction)>> {
        let (layer, goal) = self.first[rank as usize..]
            .iter()
            .flatten()
            .min_by_key(|&&(layer, _)| layer)
            .copied()?;
        // Walk back: a parent of each state in the layer before it.
        let mut chain = vec![goal];
        for k in (0..layer).rev() {
            let want = *chain.last().expect("the chain starts with the goal");
            let parent = self.layers[k]
                .iter()
                .copied()
                .find(|&p| turns(&self.unpack(p)).any(|(_, _, child)| self.key(&child) == want))?;
            chain.push(parent);
        }
        chain.reverse();
        // Walk forward on real boards, picking the turn whose canonical
        // image is the next state of the chain.
        let mut board = PlaceBoard::empty(self.n)?;
        let mut out = Vec::with_capacity(layer);
        for &want in &chain[1..] {
            let (cell, dir, child) = turns(&board).find(|(_, _, c)| self.key(c) == want)?;
            out.push((cell, dir));
            board = child;
        }
        Some(out)
    }

    /// The canonical key of a board: the least of its 8 images.
    fn key(&self, b: &PlaceBoard) -> Key {
        let ranks = b.ranks();
        self.maps
            .iter()
            .map(|map| {
                map.iter()
                    .enumerate()
                    .fold(0, |k, (i, &from)| k | u64::from(ranks[from]) << (4 * i))
            })
            .min()
            .expect("8 images")
    }

    fn unpack(&self, key: Key) -> PlaceBoard {
        let ranks: Vec<u8> = (0..self.n * self.n)
            .map(|i| ((key >> (4 * i)) & 0xF) as u8)
            .collect();
        PlaceBoard::from_ranks(self.n, &ranks).expect("keys hold valid boards")
    }
}

/// Every legal turn from `board`: (row-major cell of the 2, move, result).
pub fn turns(board: &PlaceBoard) -> impl Iterator<Item = (usize, Direction, PlaceBoard)> + '_ {
    (0..board.n() * board.n())
        .filter(|&i| board.rank(i) == 0)
        .flat_map(move |i| {
            let placed = board.place_at(i);
            Direction::ALL
                .into_iter()
                .filter_map(move |d| placed.make_move(d).map(|b| (i, d, b)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::rules::value;
    use crate::place::transcript::{parse, replay, write};

    #[test]
    fn two_by_two_reaches_16_and_no_more() {
        let e = Exact::search(2, None).unwrap();
        assert!(e.complete);
        assert_eq!(value(e.best_rank()), 16);
        let turns = e.transcript(4).unwrap();
        // The sum must reach 16 first, so at least 8 turns.
        assert_eq!(turns.len(), e.turns_to(4).unwrap());
        assert!(turns.len() >= 8);
        let text = write(2, &turns, 16);
        let r = replay(&parse(&text).unwrap(), 2, 16).unwrap();
        assert_eq!(r.best, 16);
    }

    #[test]
    fn keys_are_the_same_for_all_images() {
        let e = Exact::search(2, Some(Instant::now())).unwrap();
        let b = PlaceBoard::from_ranks(2, &[1, 2, 0, 3]).unwrap();
        let images = [[2, 1, 3, 0], [0, 3, 1, 2], [1, 0, 2, 3], [3, 2, 0, 1]];
        for img in images {
            let c = PlaceBoard::from_ranks(2, &img).unwrap();
            assert_eq!(e.key(&c), e.key(&b), "{c:?}");
        }
        assert_eq!(e.unpack(e.key(&b)).max_rank(), 3);
        assert!(!e.complete);
    }
}
