//! The built-in player's search settings: what decides its moves besides the
//! weights. Each can be tuned by name, alone or with the weights, and is
//! read from a small RON file (`--settings`) by the commands that search.
//!
//! This is each setting's one home: its type (a field of [`Settings`]), its
//! default ([`Settings::default`]) and its range ([`Settings::range`]); a
//! flag or a config field that sets one checks it here. The search itself
//! reads them from [`SearchParams`] (the cutoff as an `f32`, for speed),
//! filled by [`Settings::apply`].
//!
//! Which source wins, when a setting comes from more than one:
//!
//! - on the command line (`eval`, `compare`): a flag that sets a setting
//!   (`--prob-cutoff`) wins over `--settings FILE`, which wins over the
//!   default; a player's `--values` are set last, on top of both;
//! - `interact`: `--move-ms` wins over the file's `clock_move_ms`;
//! - in a tuning config: a tuned parameter (`params`) wins over the
//!   config's `search.prob_cutoff` (the base player's and each stage's
//!   cutoff), which wins over the default.
//!
//! The search depth and the per-move budgets (`--depth`, `--move-ms`,
//! `--move-nodes`, a config's `search.depth` and `nodes`) are no settings:
//! they come from one place each.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{AutoRule, SearchParams, MAX_DEPTH};
use crate::loader::{self, Kind, LoadError};

/// The search settings, every field with the reference's value by default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// A chance node reached with a lower probability is scored by the
    /// heuristic instead of searched (default 1e-4, the reference's).
    pub prob_cutoff: f64,
    /// The `auto` depth rule is max(`auto_min_depth`, distinct tiles −
    /// `auto_offset`) (defaults 3 and 2, the reference's).
    pub auto_min_depth: u32,
    pub auto_offset: u32,
    /// A game clock is shared among moves: a move may spend at most what
    /// is left over `clock_moves_left` (default 2000)…
    pub clock_moves_left: f64,
    /// …and at most `clock_move_ms` milliseconds (default 1.5). Used by
    /// `interact` (time) and by games under a node clock (moves tried).
    pub clock_move_ms: f64,
    /// The per-move cap ramps up with the game: a board whose tiles sum to
    /// s may spend at most `clock_move_ms` × clamp(s / `clock_ramp_sum`,
    /// 1/16, 1), so the opening, which is easy, leaves the clock to the
    /// late game, which is where games are lost. 0, the default, keeps the
    /// cap flat.
    pub clock_ramp_sum: f64,
    /// A crowded board, one with at most `crowded_empty` empty cells as the
    /// move sees it (0: full, a merge its only way on), is where games are
    /// lost: its move gets `crowded_boost` times the allotment (both caps
    /// raised alike). Default 0.
    pub crowded_empty: u32,
    /// See [`Settings::crowded_empty`] (default 1: no board gets more).
    pub crowded_boost: f64,
    /// Iterative deepening under a budget starts a deeper search only when
    /// its predicted cost fits what is left of the move's budget. With
    /// `deepen_gamble` g > 0 it starts one predicted to cost up to g times
    /// what is left, and abandons it (keeping the last finished depth) when
    /// the budget is spent, so a move spends its budget instead of leaving
    /// most of it. 0, the default, never abandons a search.
    pub deepen_gamble: f64,
    /// A chance node below the root's moves whose heuristic score is below
    /// `prune_below` × v(largest tile of the root) is scored by the heuristic
    /// instead of searched (v: the weights' tile-value transform). 0, the
    /// default, prunes nothing.
    pub prune_below: f64,
    /// A root board whose largest tile is at least `downgrade_at` (a tile
    /// value, e.g. 16384) is searched downgraded: every tile above the
    /// board's highest missing rank one rank lower, again while its largest
    /// tile is still at least `downgrade_at`, a board of the same shape that
    /// a learned network knows better. 0, the default, never downgrades.
    pub downgrade_at: u32,
    /// A board at the search's horizon whose largest tile is at least
    /// `leaf_downgrade_at` (a tile value) is scored by its downgraded form:
    /// the points earned to reach it, and what its downgraded form expects
    /// to come. A network that never learned a board with such a tile reads
    /// weights it never trained for one. 0, the default, never downgrades.
    pub leaf_downgrade_at: u32,
}

/// The reference's chance-node cutoff, the default of
/// [`Settings::prob_cutoff`].
pub const DEFAULT_PROB_CUTOFF: f64 = 1e-4;

/// Every setting's name, as configs, journals and exports spell it.
pub const SETTING_NAMES: [&str; 12] = [
    "prob_cutoff",
    "auto_min_depth",
    "auto_offset",
    "clock_moves_left",
    "clock_move_ms",
    "clock_ramp_sum",
    "crowded_empty",
    "crowded_boost",
    "deepen_gamble",
    "prune_below",
    "downgrade_at",
    "leaf_downgrade_at",
];

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            prob_cutoff: DEFAULT_PROB_CUTOFF,
            auto_min_depth: AutoRule::REFERENCE.min_depth,
            auto_offset: AutoRule::REFERENCE.offset,
            clock_moves_left: 2000.0,
            clock_move_ms: 1.5,
            clock_ramp_sum: 0.0,
            crowded_empty: 0,
            crowded_boost: 1.0,
            deepen_gamble: 0.0,
            prune_below: 0.0,
            downgrade_at: 0,
            leaf_downgrade_at: 0,
        }
    }
}

/// Whether a value is within a setting's range.
pub type InRange = fn(f64) -> bool;

/// Errors reading a settings file: the loader's, naming the file and the
/// line or setting.
pub type SettingsError = LoadError;

/// What the loader calls a settings file and its fields.
pub const KIND: Kind = Kind {
    file: "settings file",
    field: "setting",
};

impl Settings {
    /// The value of a setting by name (see [`SETTING_NAMES`]).
    pub fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "prob_cutoff" => self.prob_cutoff,
            "auto_min_depth" => f64::from(self.auto_min_depth),
            "auto_offset" => f64::from(self.auto_offset),
            "clock_moves_left" => self.clock_moves_left,
            "clock_move_ms" => self.clock_move_ms,
            "clock_ramp_sum" => self.clock_ramp_sum,
            "crowded_empty" => f64::from(self.crowded_empty),
            "crowded_boost" => self.crowded_boost,
            "deepen_gamble" => self.deepen_gamble,
            "prune_below" => self.prune_below,
            "downgrade_at" => f64::from(self.downgrade_at),
            "leaf_downgrade_at" => f64::from(self.leaf_downgrade_at),
            _ => return None,
        })
    }

    /// Sets a setting by name; integer settings take the nearest integer.
    /// `None` for an unknown name. Check the result with [`Settings::validate`].
    pub fn set(&mut self, name: &str, value: f64) -> Option<()> {
        let integer = |v: f64| v.round().clamp(0.0, f64::from(u32::MAX)) as u32;
        match name {
            "prob_cutoff" => self.prob_cutoff = value,
            "auto_min_depth" => self.auto_min_depth = integer(value),
            "auto_offset" => self.auto_offset = integer(value),
            "clock_moves_left" => self.clock_moves_left = value,
            "clock_move_ms" => self.clock_move_ms = value,
            "clock_ramp_sum" => self.clock_ramp_sum = value,
            "crowded_empty" => self.crowded_empty = integer(value),
            "crowded_boost" => self.crowded_boost = value,
            "deepen_gamble" => self.deepen_gamble = value,
            "prune_below" => self.prune_below = value,
            "downgrade_at" => self.downgrade_at = integer(value),
            "leaf_downgrade_at" => self.leaf_downgrade_at = integer(value),
            _ => return None,
        }
        Some(())
    }

    /// The range each setting accepts, in words, and whether `value` is in it.
    pub fn range(name: &str) -> Option<(&'static str, InRange)> {
        Some(match name {
            "prob_cutoff" => ("0 <= p < 1", |v| (0.0..1.0).contains(&v)),
            "auto_min_depth" => ("an integer 0..=8", |v| {
                v.fract() == 0.0 && (0.0..=f64::from(MAX_DEPTH)).contains(&v)
            }),
            "auto_offset" => ("an integer 0..=16", |v| {
                v.fract() == 0.0 && (0.0..=16.0).contains(&v)
            }),
            "clock_moves_left" => ("1 <= n <= 1e9", |v| (1.0..=1e9).contains(&v)),
            "clock_move_ms" => ("0 < ms <= 1e6", |v| v > 0.0 && v <= 1e6),
            "clock_ramp_sum" => ("0 <= s <= 1e9", |v| (0.0..=1e9).contains(&v)),
            "crowded_empty" => ("an integer 0..=16", |v| {
                v.fract() == 0.0 && (0.0..=16.0).contains(&v)
            }),
            "crowded_boost" => ("1 <= b <= 1e3", |v| (1.0..=1e3).contains(&v)),
            "deepen_gamble" => ("0 <= g <= 1e6", |v| (0.0..=1e6).contains(&v)),
            "prune_below" => ("0 <= x <= 1e6", |v| (0.0..=1e6).contains(&v)),
            "downgrade_at" | "leaf_downgrade_at" => ("an integer 0..=32768", |v| {
                v.fract() == 0.0 && (0.0..=32768.0).contains(&v)
            }),
            _ => return None,
        })
    }

    /// Whether `value` is in setting `name`'s range, or why not ("must be
    /// 0 <= p < 1, not 1.5"). `None` for an unknown name.
    pub fn check(name: &str, value: f64) -> Option<Result<(), String>> {
        let (must, ok) = Settings::range(name)?;
        Some(if ok(value) {
            Ok(())
        } else {
            Err(format!("must be {must}, not {value}"))
        })
    }

    /// The first setting out of its range: (name, what it must be).
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        for name in SETTING_NAMES {
            let (must, ok) = Settings::range(name).expect("every name has a range");
            if !ok(self.get(name).expect("a known name")) {
                return Err((name, must));
            }
        }
        Ok(())
    }

    /// `params` with these settings' cutoff, pruning and depth rule.
    pub fn apply(&self, params: &mut SearchParams) {
        params.prob_cutoff = self.prob_cutoff as f32;
        params.prune_below = self.prune_below as f32;
        params.deepen_gamble = self.deepen_gamble;
        params.downgrade_at = super::downgrade::threshold_rank(self.downgrade_at);
        params.leaf_downgrade_at = super::downgrade::threshold_rank(self.leaf_downgrade_at);
        params.auto = AutoRule {
            min_depth: self.auto_min_depth,
            offset: self.auto_offset,
        };
    }

    /// Parses a settings file's text; `path` names it in errors.
    pub fn from_ron(text: &str, path: &str) -> Result<Settings, SettingsError> {
        let settings: Settings = loader::parse_ron(text, path)?;
        settings.validate().map_err(|(name, must)| {
            let value = settings.get(name).unwrap_or(0.0);
            LoadError::invalid(path, &KIND, name, format!("must be {must}, not {value}"))
        })?;
        Ok(settings)
    }

    /// A built-in player's settings by the rule of which source wins: the
    /// settings `file`'s (or the defaults, without one), with a flag's
    /// `prob_cutoff` in place of the file's where one is given.
    pub fn resolve(
        file: Option<&Path>,
        prob_cutoff: Option<f64>,
    ) -> Result<Settings, SettingsError> {
        let mut settings = match file {
            Some(path) => Settings::load(path)?,
            None => Settings::default(),
        };
        if let Some(cutoff) = prob_cutoff {
            settings.prob_cutoff = cutoff;
        }
        Ok(settings)
    }

    /// Reads a settings file.
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        loader::load(path, &KIND, Settings::from_ron)
    }

    /// The settings as a RON file, one per line, with a header comment.
    pub fn to_ron(&self) -> String {
        let mut text = String::from("// tune2048 search settings\n(\n");
        for name in SETTING_NAMES {
            let v = self.get(name).expect("a known name");
            let value = match name {
                "auto_min_depth" | "auto_offset" | "crowded_empty" | "downgrade_at"
                | "leaf_downgrade_at" => {
                    format!("{}", v as u32)
                }
                _ => format!("{v:?}"),
            };
            text.push_str(&format!("    {name}: {value},\n"));
        }
        text.push_str(")\n");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_and_set_round_trip_and_files_parse_back() {
        let mut s = Settings::default();
        for (k, name) in SETTING_NAMES.iter().enumerate() {
            let v = s.get(name).unwrap() + if k == 0 { 1e-5 } else { 1.0 };
            s.set(name, v).unwrap();
            assert_eq!(s.get(name), Some(v), "{name}");
        }
        assert_eq!(s.get("depth"), None);
        assert_eq!(s.set("depth", 1.0), None);
        let back = Settings::from_ron(&s.to_ron(), "s.ron").unwrap();
        assert_eq!(back, s);
        // Every field is optional.
        assert_eq!(
            Settings::from_ron("()", "s.ron").unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn bad_files_name_the_file_the_line_and_the_setting() {
        let err = Settings::from_ron("(\n  prob_cutof: 0.1)", "s.ron").unwrap_err();
        assert!(err.to_string().starts_with("s.ron:2:"), "{err}");
        let err = Settings::from_ron("(prob_cutoff: 1.5)", "s.ron").unwrap_err();
        assert_eq!(
            err.to_string(),
            "s.ron: setting `prob_cutoff`: must be 0 <= p < 1, not 1.5"
        );
        let mut s = Settings::default();
        s.set("auto_min_depth", 2.6).unwrap();
        assert_eq!(s.auto_min_depth, 3);
        s.set("clock_moves_left", 0.0).unwrap();
        assert_eq!(s.validate(), Err(("clock_moves_left", "1 <= n <= 1e9")));
    }

    #[test]
    fn the_guide_lists_every_setting_in_order() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/guide/players.md");
        let guide = std::fs::read_to_string(path).unwrap();
        let start = guide
            .find("| setting | default | range | what it does |")
            .expect("the settings table");
        let listed: Vec<&str> = guide[start..]
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|line| line.split('`').nth(1).unwrap_or(line))
            .collect();
        assert_eq!(listed, SETTING_NAMES);
    }

    #[test]
    fn the_cutoff_has_one_default_and_one_range() {
        assert_eq!(super::super::PROB_CUTOFF, 1e-4f32);
        assert_eq!(Settings::default().prob_cutoff as f32, 1e-4f32);
        assert_eq!(Settings::check("prob_cutoff", 0.0), Some(Ok(())));
        assert_eq!(
            Settings::check("prob_cutoff", 1.0),
            Some(Err("must be 0 <= p < 1, not 1".into()))
        );
        assert_eq!(Settings::check("depth", 1.0), None);
    }

    #[test]
    fn settings_set_the_cutoff_and_the_depth_rule() {
        let s = Settings {
            prob_cutoff: 0.01,
            auto_min_depth: 2,
            auto_offset: 5,
            ..Settings::default()
        };
        let mut p = SearchParams::new(super::super::Depth::Auto, crate::engine::Variant::CLASSIC);
        s.apply(&mut p);
        assert_eq!(p.prob_cutoff, 0.01f32);
        assert_eq!(
            p.auto,
            AutoRule {
                min_depth: 2,
                offset: 5
            }
        );
    }
}
