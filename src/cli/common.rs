//! Options shared by the commands that play games.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::Variant;
use crate::heuristic::Weights;
use crate::search::{Budget, Depth, SearchParams};
use crate::selfplay::GameSpec;

/// The weights commands use without `--weights`, relative to the current directory.
pub const DEFAULT_WEIGHTS: &str = "configs/weights/default.ron";
/// The weights `interact` uses without `--weights`: tuned under its own
/// search (`configs/interact.ron`).
pub const DEFAULT_INTERACT_WEIGHTS: &str = "configs/weights/interact.ron";

/// Copies built into the binary, used when the files are not found (the
/// binary runs outside a checkout).
const BUILTIN_DEFAULT: &str = include_str!("../../configs/weights/default.ron");
const BUILTIN_INTERACT: &str = include_str!("../../configs/weights/interact.ron");

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantName {
    /// Random 2 (or 4 with probability --p4) after every move.
    Classic,
    /// A 2 on a random empty cell before every move (BOJ 28489).
    Twos,
}

#[derive(Debug, Clone, clap::Args)]
pub struct GameOpts {
    /// Game variant.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantName,
    /// Probability that a new tile is a 4 (classic only).
    #[arg(long, default_value_t = 0.1)]
    pub p4: f64,
    /// Search depth in chance layers (0 = greedy), or `auto` for the reference rule.
    #[arg(long, default_value = "1")]
    pub depth: Depth,
    /// Chance nodes less likely than this are scored by the heuristic.
    #[arg(long, default_value_t = crate::search::PROB_CUTOFF)]
    pub prob_cutoff: f32,
    /// Per-move time budget in milliseconds: iterative deepening up to --depth.
    #[arg(long, conflicts_with = "move_nodes")]
    pub move_ms: Option<f64>,
    /// Per-move budget in moves tried: iterative deepening up to --depth that
    /// depends on the position alone, so games replay from their seed.
    #[arg(long)]
    pub move_nodes: Option<u64>,
    /// Stop each game after this many moves.
    #[arg(long)]
    pub move_limit: Option<u32>,
    /// Base seed; game i plays seed derive(seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl GameOpts {
    pub fn variant(&self) -> anyhow::Result<Variant> {
        match self.variant {
            VariantName::Classic => {
                if !(0.0..=1.0).contains(&self.p4) {
                    return Err(super::input_error(format!(
                        "--p4 must be within 0..=1, not {}",
                        self.p4
                    )));
                }
                Ok(Variant::Classic { p4: self.p4 })
            }
            VariantName::Twos => Ok(Variant::Twos),
        }
    }

    pub fn spec(&self) -> anyhow::Result<GameSpec> {
        let variant = self.variant()?;
        if !(self.prob_cutoff >= 0.0 && self.prob_cutoff < 1.0) {
            return Err(super::input_error(format!(
                "--prob-cutoff must be within 0..1, not {}",
                self.prob_cutoff
            )));
        }
        let mut search = SearchParams::new(self.depth, variant);
        search.prob_cutoff = self.prob_cutoff;
        let move_budget = match self.move_ms {
            Some(ms) if ms.is_finite() && ms > 0.0 => {
                Some(Budget::Time(Duration::from_secs_f64(ms / 1000.0)))
            }
            Some(ms) => {
                return Err(super::input_error(format!(
                    "--move-ms must be positive, not {ms}"
                )))
            }
            None => match self.move_nodes {
                Some(0) => return Err(super::input_error("--move-nodes must be at least 1")),
                nodes => nodes.map(Budget::Nodes),
            },
        };
        Ok(GameSpec {
            variant,
            search,
            move_limit: self.move_limit,
            move_budget,
        })
    }
}

/// Loads `--weights`, or the default file, or its built-in copy.
pub fn load_weights(path: Option<&Path>, default: &str) -> anyhow::Result<(Weights, String)> {
    if let Some(path) = path {
        return Ok((Weights::load(path)?, path.display().to_string()));
    }
    let default_path = PathBuf::from(default);
    if default_path.exists() {
        return Ok((Weights::load(&default_path)?, default.to_string()));
    }
    let text = if default == DEFAULT_INTERACT_WEIGHTS {
        BUILTIN_INTERACT
    } else {
        BUILTIN_DEFAULT
    };
    Ok((
        Weights::from_ron(text, default)?,
        format!("{default} (built in)"),
    ))
}
