//! Who puts new tiles on the board, when, and with what values.
//!
//! The four variants differ only in data: when a tile appears (after the
//! player's move, or before it), how many tiles start the game, and who picks
//! the cell and value (chance, a judge, an opponent, or the player). The game
//! loop in `game.rs` is written once against [`Placer`].

use super::board::Board;
use rand::Rng;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// When a new tile appears relative to the player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// After every legal move (the classic game).
    AfterMove,
    /// Before every move (BOJ 28489, adversarial 2048, the place-a-2 puzzle).
    BeforeMove,
}

/// A game variant with random placement.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    /// The classic game: two random tiles to start, then after every legal
    /// move a tile on a uniformly random empty cell, a 4 with probability
    /// `p4` (0.1 in the original) and otherwise a 2.
    Classic { p4: f64 },
    /// BOJ 28489: an empty start, and before every move a 2 on a uniformly
    /// random empty cell.
    Twos,
}

impl Variant {
    /// The classic game with the original 10% chance of a 4.
    pub const CLASSIC: Variant = Variant::Classic { p4: 0.1 };

    pub fn timing(self) -> Timing {
        match self {
            Variant::Classic { .. } => Timing::AfterMove,
            Variant::Twos => Timing::BeforeMove,
        }
    }

    /// Tiles placed before the first turn.
    pub fn start_tiles(self) -> u32 {
        match self {
            Variant::Classic { .. } => 2,
            Variant::Twos => 0,
        }
    }

    /// Probability that a new tile is a 4.
    pub fn p4(self) -> f64 {
        match self {
            Variant::Classic { p4 } => p4,
            Variant::Twos => 0.0,
        }
    }

    /// A short name for logs and file names.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic { .. } => "classic",
            Variant::Twos => "twos",
        }
    }
}

/// One new tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn {
    /// Cell index, row-major from the top left (0..16).
    pub cell: usize,
    /// Rank of the new tile (1 = 2, 2 = 4).
    pub rank: u8,
}

/// Chooses where the next tile goes. Random play, a judge's input, an
/// adversary and the player of the place-a-2 puzzle all implement it.
pub trait Placer {
    /// The next tile for `board`, or `None` when the placer has no more
    /// (a judge that ended the game). Only called when a cell is empty.
    fn place(&mut self, board: Board) -> Option<Spawn>;
}

impl<P: Placer + ?Sized> Placer for &mut P {
    fn place(&mut self, board: Board) -> Option<Spawn> {
        (**self).place(board)
    }
}

/// Uniformly random placement from a seeded xoshiro256++ generator.
#[derive(Clone, Debug)]
pub struct RandomPlacer {
    rng: Xoshiro256PlusPlus,
    p4: f64,
}

impl RandomPlacer {
    pub fn new(seed: u64, p4: f64) -> RandomPlacer {
        RandomPlacer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            p4,
        }
    }
}

impl Placer for RandomPlacer {
    fn place(&mut self, board: Board) -> Option<Spawn> {
        let cell = random_empty_cell(board, &mut self.rng)?;
        let rank = if self.p4 > 0.0 && self.rng.gen::<f64>() < self.p4 {
            2
        } else {
            1
        };
        Some(Spawn { cell, rank })
    }
}

/// A uniformly random empty cell, or `None` on a full board.
pub fn random_empty_cell(board: Board, rng: &mut impl Rng) -> Option<usize> {
    let mask = board.empty_mask();
    let n = mask.count_ones();
    if n == 0 {
        return None;
    }
    Some(nth_set_bit(u64::from(mask), rng.gen_range(0..n)) as usize)
}

/// The place of the `k`-th lowest set bit of `mask` (which has more than
/// `k`): one instruction where the CPU has BMI2, else bit by bit.
#[inline(always)]
fn nth_set_bit(mask: u64, k: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target has BMI2 (checked at compile time).
        unsafe { core::arch::x86_64::_pdep_u64(1 << k, mask).trailing_zeros() }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut mask = mask;
        for _ in 0..k {
            mask &= mask - 1;
        }
        mask.trailing_zeros()
    }
}

/// Placement from a fixed list (a judge's transcript, a test script).
#[derive(Clone, Debug, Default)]
pub struct ScriptedPlacer {
    spawns: std::collections::VecDeque<Spawn>,
}

impl ScriptedPlacer {
    pub fn new(spawns: impl IntoIterator<Item = Spawn>) -> ScriptedPlacer {
        ScriptedPlacer {
            spawns: spawns.into_iter().collect(),
        }
    }
}

impl Placer for ScriptedPlacer {
    fn place(&mut self, _board: Board) -> Option<Spawn> {
        self.spawns.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_cells_are_empty_and_uniform() {
        let board = Board::from_ranks([1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut counts = [0u32; 16];
        for _ in 0..30_000 {
            counts[random_empty_cell(board, &mut rng).unwrap()] += 1;
        }
        for (cell, &n) in counts.iter().enumerate() {
            if [1, 3, 15].contains(&cell) {
                assert!((9_500..10_500).contains(&n), "cell {cell}: {n}");
            } else {
                assert_eq!(n, 0, "cell {cell} is occupied");
            }
        }
        assert_eq!(random_empty_cell(Board(u64::MAX), &mut rng), None);
    }

    #[test]
    fn the_kth_set_bit_is_found_in_every_mask() {
        for mask in 1..=u16::MAX {
            let mut rest = u64::from(mask);
            for k in 0..mask.count_ones() {
                assert_eq!(nth_set_bit(u64::from(mask), k), rest.trailing_zeros());
                rest &= rest - 1;
            }
        }
    }

    #[test]
    fn fours_follow_p4() {
        let mut placer = RandomPlacer::new(1, 0.1);
        let fours = (0..20_000)
            .filter(|_| placer.place(Board::EMPTY).unwrap().rank == 2)
            .count();
        assert!((1_800..2_200).contains(&fours), "{fours}");
        let mut twos = RandomPlacer::new(1, 0.0);
        assert!((0..1000).all(|_| twos.place(Board::EMPTY).unwrap().rank == 1));
    }
}
