//! Expectimax search over a variant's chance model.
//!
//! A [`Searcher`] (one per thread: it owns the transposition table) picks
//! the move of highest expected heuristic value, to the depth that
//! [`SearchParams`] asks for:
//!
//! ```
//! use tune2048::engine::{Board, Direction, Variant};
//! use tune2048::heuristic::{Heuristic, Weights};
//! use tune2048::search::{Depth, SearchParams, Searcher};
//!
//! let h = Heuristic::new(&Weights::nneonneo());
//! let params = SearchParams::new(Depth::Fixed(2), Variant::CLASSIC);
//! let mut searcher = Searcher::new(16);
//! let board = Board::from_values([
//!     8, 4, 2, 0, //
//!     2, 0, 0, 0, //
//!     0, 0, 0, 0, //
//!     0, 0, 0, 0, //
//! ])
//! .unwrap();
//! let decision = searcher.decide(&h, board, &params).expect("a legal move");
//! assert_eq!(decision.depth, 2);
//! assert!(board.make_move(decision.dir).is_some());
//! // No move on a full board without merges: nothing to decide.
//! let stuck = Board::from_values([
//!     2, 4, 2, 4, //
//!     4, 2, 4, 2, //
//!     2, 4, 2, 4, //
//!     4, 2, 4, 2, //
//! ])
//! .unwrap();
//! assert!(Direction::ALL.iter().all(|d| stuck.make_move(*d).is_none()));
//! assert_eq!(searcher.decide(&h, stuck, &params), None);
//! ```

mod clock;
mod downgrade;
mod expectimax;
mod leaf_cache;
pub mod settings;
mod stats;
mod tt;

pub use clock::{allotment_ms, NodeClock};
pub use downgrade::downgraded;
pub use expectimax::{Decision, SearchPolicy, Searcher};
pub use settings::{Settings, SettingsError, DEFAULT_PROB_CUTOFF, SETTING_NAMES};
pub use stats::{SearchStats, DEPTH_SLOTS};

use serde::{Deserialize, Serialize};

/// The deepest fixed depth accepted from the command line and configs.
pub const MAX_DEPTH: u32 = 8;

/// The reference's probability cutoff as the search reads it: a chance node
/// reached with a lower probability is scored by the heuristic. The
/// setting's home is [`Settings::prob_cutoff`]; this is its default as an
/// `f32`.
pub const PROB_CUTOFF: f32 = settings::DEFAULT_PROB_CUTOFF as f32;

/// The reference's automatic depth: max([`AUTO_MIN_DEPTH`], distinct tiles on
/// the board − [`AUTO_DISTINCT_OFFSET`]).
pub const AUTO_MIN_DEPTH: u32 = 3;
/// See [`AUTO_MIN_DEPTH`].
pub const AUTO_DISTINCT_OFFSET: u32 = 2;

/// The constants of the `auto` depth rule: max(`min_depth`, distinct tiles
/// on the board − `offset`). The probability cutoff bounds how deep it really goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoRule {
    pub min_depth: u32,
    pub offset: u32,
}

impl AutoRule {
    /// The reference's rule: max(3, distinct tiles − 2).
    pub const REFERENCE: AutoRule = AutoRule {
        min_depth: AUTO_MIN_DEPTH,
        offset: AUTO_DISTINCT_OFFSET,
    };

    /// The depth this rule gives `board`.
    #[inline]
    pub fn limit(self, board: crate::engine::Board) -> u32 {
        board
            .distinct_ranks()
            .saturating_sub(self.offset)
            .max(self.min_depth)
    }
}

impl Default for AutoRule {
    fn default() -> AutoRule {
        AutoRule::REFERENCE
    }
}

/// How deep to search. Depth D means D chance layers: D = 0 plays the move
/// whose resulting board the heuristic likes best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Depth {
    Fixed(u32),
    /// The reference rule: max(3, distinct tiles on the board − 2).
    Auto,
}

impl Depth {
    /// The depth limit for a decision on `board`, `Auto` by `rule`.
    #[inline]
    pub fn limit(self, board: crate::engine::Board, rule: AutoRule) -> u32 {
        match self {
            Depth::Fixed(d) => d,
            Depth::Auto => rule.limit(board),
        }
    }
}

impl std::str::FromStr for Depth {
    type Err = String;

    /// Parses `auto` or a depth from 0 to [`MAX_DEPTH`].
    fn from_str(s: &str) -> Result<Depth, String> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(Depth::Auto);
        }
        match s.parse::<u32>() {
            Ok(d) if d <= MAX_DEPTH => Ok(Depth::Fixed(d)),
            _ => Err(format!(
                "depth must be 0..={MAX_DEPTH} or `auto`, not `{s}`"
            )),
        }
    }
}

impl std::fmt::Display for Depth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Depth::Fixed(d) => write!(f, "{d}"),
            Depth::Auto => f.write_str("auto"),
        }
    }
}

/// What a decision may spend on iterative deepening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Budget {
    /// Wall time: the answers depend on the machine's speed.
    Time(std::time::Duration),
    /// Moves tried in the search: the answers depend on the position alone,
    /// so games under a node budget replay from their seed.
    Nodes(u64),
}

/// Everything the search needs besides the heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    pub depth: Depth,
    /// A chance node whose probability of being reached falls below this is
    /// scored by the heuristic ([`PROB_CUTOFF`] by default).
    pub prob_cutoff: f32,
    /// Probability that a spawned tile is a 4 (0 for the twos variant).
    pub p4: f32,
    /// The `Auto` depth rule's constants.
    #[serde(default)]
    pub auto: AutoRule,
    /// Chance nodes below the root's moves scoring under this times
    /// v(largest tile of the root) are not searched (0: none; see
    /// [`Settings::prune_below`]).
    #[serde(default)]
    pub prune_below: f32,
    /// Under a budget, a deeper search predicted to cost up to this times
    /// what is left is started, and abandoned when the budget runs out (0:
    /// only searches predicted to fit, never abandoned; see
    /// [`Settings::deepen_gamble`]).
    #[serde(default)]
    pub deepen_gamble: f64,
    /// A root board whose largest tile has at least this rank is searched
    /// downgraded (0: never; see [`Settings::downgrade_at`] and
    /// [`downgraded`]).
    #[serde(default)]
    pub downgrade_at: u8,
    /// A board at the horizon whose largest tile has at least this rank is
    /// scored by its downgraded form (0: never; see
    /// [`Settings::leaf_downgrade_at`]). Left out of files when 0, so they
    /// read as before it existed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub leaf_downgrade_at: u8,
}

fn is_zero(rank: &u8) -> bool {
    *rank == 0
}

impl SearchParams {
    pub fn new(depth: Depth, variant: crate::engine::Variant) -> SearchParams {
        SearchParams {
            depth,
            prob_cutoff: PROB_CUTOFF,
            p4: variant.p4() as f32,
            auto: AutoRule::REFERENCE,
            prune_below: 0.0,
            deepen_gamble: 0.0,
            downgrade_at: 0,
            leaf_downgrade_at: 0,
        }
    }

    /// The depth limit for a decision on `board`.
    #[inline]
    pub fn limit(&self, board: crate::engine::Board) -> u32 {
        self.depth.limit(board, self.auto)
    }
}
