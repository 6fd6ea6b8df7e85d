//! What a search did: counters that a searcher keeps, that evaluations add
//! up over games and threads, and that `eval`, `play` and the game files
//! report.

/// Counters of the work a searcher has done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SearchStats {
    /// Moves tried (each shift of a board in one direction).
    pub moves: u64,
    /// Boards scored at the search's horizon (by the heuristic or a network).
    pub evals: u64,
    /// Chance nodes answered by the transposition table.
    pub tt_hits: u64,
    /// Boards at the horizon whose score was read back from the search's
    /// leaf cache (counted in `evals` too: the search's work in boards is
    /// the same with or without the cache).
    #[serde(default)]
    pub leaf_hits: u64,
    /// Decisions made.
    pub decisions: u64,
    /// Moves played by [`SearchPolicy`](super::SearchPolicy), by the depth of the search that
    /// chose each (under a budget, the deepest one finished); the last slot
    /// holds every deeper one.
    #[serde(default)]
    pub depths: [u64; DEPTH_SLOTS],
}

/// Slots of [`SearchStats::depths`]: depths 0 to `DEPTH_SLOTS - 2`, then
/// every deeper one.
pub const DEPTH_SLOTS: usize = 12;

impl SearchStats {
    /// The work done since `before`, a copy of these counters taken earlier.
    pub fn since(&self, before: &SearchStats) -> SearchStats {
        SearchStats {
            moves: self.moves - before.moves,
            evals: self.evals - before.evals,
            tt_hits: self.tt_hits - before.tt_hits,
            leaf_hits: self.leaf_hits - before.leaf_hits,
            decisions: self.decisions - before.decisions,
            depths: std::array::from_fn(|k| self.depths[k] - before.depths[k]),
        }
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &SearchStats) {
        self.moves += other.moves;
        self.evals += other.evals;
        self.tt_hits += other.tt_hits;
        self.leaf_hits += other.leaf_hits;
        self.decisions += other.decisions;
        for (mine, theirs) in self.depths.iter_mut().zip(other.depths) {
            *mine += theirs;
        }
    }
}
