//! Seed derivation. Every random game is replayable from one 64-bit seed,
//! and every seed is a pure function of the indices that name the game, so
//! results never depend on thread scheduling.

/// SplitMix64's finaliser: a bijective mix of 64 bits.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives a child seed from a parent seed and an index.
#[inline]
pub const fn derive(parent: u64, index: u64) -> u64 {
    mix64(parent ^ mix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

/// The seed of game `game` of a set of games started from `base`.
#[inline]
pub const fn game_seed(base: u64, game: u64) -> u64 {
    derive(base, game)
}

/// Purposes a tuning run draws seeds for; each has its own stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Games that rank the candidates of a generation.
    Ranking = 1,
    /// Games that validate the distribution mean of a generation.
    Validation = 2,
    /// Games of the final comparison against the base weights.
    Final = 3,
    /// The optimizer's own generator.
    Optimizer = 4,
    /// Games that re-play the leading generations before the best is chosen.
    Reselect = 5,
    /// Games a network learns from (`learn`).
    Learning = 6,
}

/// The seed of game `game` in `generation` of a run seeded with `run`.
#[inline]
pub const fn run_game_seed(run: u64, stream: Stream, generation: u64, game: u64) -> u64 {
    derive(derive(derive(run, stream as u64), generation), game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_across_every_index() {
        let mut seen = std::collections::HashSet::new();
        for stream in [Stream::Ranking, Stream::Validation, Stream::Final] {
            for g in 0..20 {
                for i in 0..50 {
                    assert!(seen.insert(run_game_seed(42, stream, g, i)));
                }
            }
        }
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
