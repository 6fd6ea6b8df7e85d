//! The tuning job's configuration: a RON file read in two stages.
//!
//! Stage one is serde: [`RawConfig`] mirrors the file, rejects unknown fields
//! and wrong types, and such errors read `file:line:column: message`. Stage
//! two, [`RawConfig::validate`], checks ranges and cross-field rules, loads
//! the base weights and builds the typed [`TuneConfig`]; its errors name the
//! field path (`params[2].min`) and, found by a best-effort scan of the
//! source text, the field's line and column.
//!
//! `configs/default.ron` documents every field for users.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::Variant;
use crate::heuristic::{Weights, WeightsError, PARAM_NAMES};

mod locate;
use locate::locate;

/// Deepest fixed search depth a config may ask for: the search's own limit.
pub const MAX_DEPTH: u32 = crate::search::MAX_DEPTH;

pub use crate::search::Depth;

/// What a candidate's games are scored by; higher is always better.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Objective {
    /// The mean final score.
    MeanScore,
    /// The mean of log2 of the largest tile.
    MeanLog2MaxTile,
    /// The fraction of games that reach `tile` (a power of two, 4..=65536).
    Reach { tile: u32 },
    /// The `q`-quantile of the final scores, 0 < q < 1 (0.25: the lower quartile).
    ScoreQuantile { q: f64 },
}

/// The game variant as written in the config.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Variant", deny_unknown_fields)]
pub enum RawVariant {
    /// Random 2s and 4s after each move; `p4` is the chance of a 4, in [0, 1].
    Classic { p4: f64 },
    /// A 2 before every move on an initially empty board (BOJ 28489).
    Twos,
}

/// Expectimax settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Search", deny_unknown_fields)]
pub struct SearchConfig {
    /// Search depth: `Fixed(0..=8)` or `Auto`.
    pub depth: Depth,
    /// Chance nodes whose probability falls below this are cut off, 0 < p < 1.
    pub prob_cutoff: f64,
}

/// One tuned term, as written in the config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Param", deny_unknown_fields)]
pub struct RawParam {
    /// A name from [`PARAM_NAMES`], e.g. "empty" or "snake[3]".
    pub name: String,
    /// Starting value; defaults to the base weights' value.
    #[serde(default)]
    pub init: Option<f64>,
    /// Lower bound (inclusive).
    pub min: f64,
    /// Upper bound (inclusive); above `min`.
    pub max: f64,
    /// The size of one normalized unit of this term; positive.
    pub scale: f64,
}

/// When the tuner stops; the first rule met ends the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Stop", deny_unknown_fields)]
pub struct StopRules {
    /// After this many generations (over all restarts).
    #[serde(default)]
    pub generations: Option<u32>,
    /// After this many games played in total (candidates and validation).
    #[serde(default)]
    pub total_games: Option<u64>,
    /// Once the best fitness reaches this value (objective units).
    #[serde(default)]
    pub target_fitness: Option<f64>,
    /// After this many generations without a new best fitness.
    #[serde(default)]
    pub stagnation: Option<u32>,
    /// After this much wall-clock time, in seconds, checked between generations.
    #[serde(default)]
    pub wall_seconds: Option<f64>,
}

/// IPOP restarts: when a run stagnates, restart with a larger population.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Restarts", deny_unknown_fields)]
pub struct Restarts {
    /// How many restarts at most.
    pub max_restarts: u32,
    /// Each restart multiplies the population by this (at least 1; 2 is usual).
    pub population_factor: f64,
}

/// A last stage against the winner's curse: the best validation of many
/// generations is biased upwards by noise, so the `top` generations by
/// validation, and the average of the last `top` distribution means, play
/// `games` more games on seeds of their own, and the best of those wins.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Reselect", deny_unknown_fields)]
pub struct Reselect {
    /// Generations re-played (positive).
    pub top: u32,
    /// Games each of them plays (positive); all play the same seeds.
    pub games: u32,
}

/// The config file as written: stage one of parsing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "TuneConfig", deny_unknown_fields)]
pub struct RawConfig {
    /// Prefix of the run folder's name; letters, digits, '-' and '_' only.
    pub name: String,
    /// The game every game of the job plays.
    pub variant: RawVariant,
    /// Expectimax settings.
    pub search: SearchConfig,
    /// Weights file for the terms not tuned, the default `init` of tuned ones
    /// and the baseline of the final comparison. A relative path is looked up
    /// beside the config file first, then in the current directory.
    pub base_weights: String,
    /// The tuned terms, at least one.
    pub params: Vec<RawParam>,
    /// What a candidate's games are scored by.
    pub objective: Objective,
    /// Games each candidate plays per generation (all candidates of a
    /// generation play the same seeds); positive.
    pub games_per_candidate: u32,
    /// CMA-ES population size (at least 2); `None`: 4 + floor(3 ln n) for n params.
    #[serde(default)]
    pub population: Option<u32>,
    /// Initial CMA-ES step size in normalized units (one unit = a param's `scale`); positive.
    pub sigma0: f64,
    /// When to stop; at least one of generations, total_games, wall_seconds.
    pub stop: StopRules,
    /// Games on which the distribution mean is validated each generation; 0 disables.
    pub validation_games: u32,
    /// Paired games, best against base weights, at the end; 0 disables.
    pub final_games: u32,
    /// IPOP restarts; `None` disables.
    #[serde(default)]
    pub restarts: Option<Restarts>,
    /// Re-play the leading generations before choosing the best; `None`:
    /// the best validation stands. Needs `validation_games`.
    #[serde(default)]
    pub reselect: Option<Reselect>,
    /// The run seed every game seed derives from.
    pub seed: u64,
    /// Worker threads (positive); `None`: all cores.
    #[serde(default)]
    pub threads: Option<u32>,
    /// Moves per game at most (positive); `None`: play every game to its end.
    #[serde(default)]
    pub move_limit: Option<u32>,
}

/// One tuned term, validated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// One of [`PARAM_NAMES`].
    pub name: &'static str,
    /// Starting value, within `min..=max`.
    pub init: f64,
    pub min: f64,
    pub max: f64,
    /// Size of one normalized unit; positive.
    pub scale: f64,
}

/// A validated tuning job.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// The config file it was read from.
    pub path: PathBuf,
    /// Prefix of the run folder's name.
    pub name: String,
    pub variant: Variant,
    pub search: SearchConfig,
    /// Where the base weights were found (absolute when it could be made so).
    pub base_weights_path: PathBuf,
    /// The loaded base weights.
    pub base_weights: Weights,
    /// The tuned terms, in config order; names are distinct.
    pub params: Vec<Param>,
    pub objective: Objective,
    pub games_per_candidate: u32,
    /// The population as configured; see [`TuneConfig::population`].
    pub population: Option<u32>,
    pub sigma0: f64,
    pub stop: StopRules,
    pub validation_games: u32,
    pub final_games: u32,
    pub restarts: Option<Restarts>,
    pub reselect: Option<Reselect>,
    pub seed: u64,
    pub threads: Option<u32>,
    pub move_limit: Option<u32>,
    /// The config file's text, as read.
    pub source_text: String,
    /// The resolved raw form (init and base path filled in), for [`TuneConfig::to_ron`].
    resolved: RawConfig,
}

/// Where in a file an error is: the file, and the line and column when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    /// 1-based line and column.
    pub position: Option<(usize, usize)>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{}:{line}:{column}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

/// Errors reading a config file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read the config file")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// RON syntax, an unknown or missing field, or a value of the wrong type.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A value out of range or inconsistent with another.
    #[error("{at}: field `{field}`: {message}")]
    Invalid {
        at: Location,
        field: String,
        message: String,
    },
    /// The base weights file is missing or invalid.
    #[error("{at}: field `base_weights`: cannot load the base weights")]
    BaseWeights {
        at: Location,
        #[source]
        source: WeightsError,
    },
}

impl ConfigError {
    /// The field path a semantic error is about (`params[2].min`).
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::Invalid { field, .. } => Some(field),
            ConfigError::BaseWeights { .. } => Some("base_weights"),
            _ => None,
        }
    }
}

/// Reads and validates a config file.
pub fn load(path: &Path) -> Result<TuneConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
        path: path.display().to_string(),
        source,
    })?;
    parse(&text, path)
}

/// Parses and validates config text; `path` names it in errors and anchors
/// a relative `base_weights`.
pub fn parse(text: &str, path: &Path) -> Result<TuneConfig, ConfigError> {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let raw: RawConfig = options.from_str(text).map_err(|e| ConfigError::Syntax {
        path: path.display().to_string(),
        line: e.position.line,
        column: e.position.col,
        // ron 0.8 writes "named `x`in `Y`"; put the space back.
        message: e.code.to_string().replace("`in ", "` in "),
    })?;
    raw.validate(text, path)
}

impl TuneConfig {
    /// The CMA-ES population: as configured, else 4 + floor(3 ln n).
    pub fn population(&self) -> usize {
        match self.population {
            Some(p) => p as usize,
            None => default_population(self.params.len()),
        }
    }

    /// The base weights with every tuned term at its `init`.
    pub fn initial_weights(&self) -> Weights {
        self.weights_with(&self.params.iter().map(|p| p.init).collect::<Vec<_>>())
    }

    /// The base weights with the tuned terms set to `values` (config order),
    /// each clamped to its bounds.
    pub fn weights_with(&self, values: &[f64]) -> Weights {
        assert_eq!(values.len(), self.params.len(), "one value per param");
        let mut weights = self.base_weights.clone();
        for (param, &value) in self.params.iter().zip(values) {
            weights
                .set(param.name, value.clamp(param.min, param.max))
                .expect("param names are validated");
        }
        weights
    }

    /// The resolved raw config (every `init` and the base weights' path
    /// filled in, population made explicit) as RON text; it parses back to
    /// the same job from any directory.
    /// [`TuneConfig::to_ron`] with `base_weights` pointing at `path` (a run
    /// folder keeps its own copy of the base weights beside its config).
    pub fn to_ron_with_base(&self, path: &Path) -> String {
        let mut copy = self.clone();
        copy.resolved.base_weights = path.display().to_string();
        copy.to_ron()
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .new_line("\n".to_string())
            .indentor("    ".to_string());
        let mut text =
            ron::ser::to_string_pretty(&self.resolved, pretty).expect("configs always serialize");
        text.push('\n');
        text
    }
}

fn default_population(n: usize) -> usize {
    4 + (3.0 * (n.max(1) as f64).ln()).floor() as usize
}

/// Collects the context a validation error needs.
struct Checker<'a> {
    text: &'a str,
    path: &'a Path,
}

impl Checker<'_> {
    fn at(&self, field: &str) -> Location {
        Location {
            file: self.path.display().to_string(),
            position: locate(self.text, field),
        }
    }

    fn invalid(&self, field: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::Invalid {
            at: self.at(field),
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// Errors unless `ok`.
    fn check(
        &self,
        ok: bool,
        field: &str,
        message: impl FnOnce() -> String,
    ) -> Result<(), ConfigError> {
        if ok {
            Ok(())
        } else {
            Err(self.invalid(field, message()))
        }
    }

    fn finite(&self, value: f64, field: &str) -> Result<(), ConfigError> {
        self.check(value.is_finite(), field, || {
            format!("{value} is not a finite number")
        })
    }
}

impl RawConfig {
    /// Stage two: checks every rule and loads the base weights. `text` is
    /// the source (for error lines and [`TuneConfig::source_text`]); `path`
    /// names it and anchors a relative `base_weights`.
    pub fn validate(self, text: &str, path: &Path) -> Result<TuneConfig, ConfigError> {
        let c = Checker { text, path };

        c.check(
            !self.name.is_empty()
                && self
                    .name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'),
            "name",
            || {
                format!(
                    "{:?} must be non-empty and use only letters, digits, '-' and '_'",
                    self.name
                )
            },
        )?;

        let variant = match self.variant {
            RawVariant::Classic { p4 } => {
                c.check((0.0..=1.0).contains(&p4), "variant.p4", || {
                    format!("{p4} is outside [0, 1]")
                })?;
                Variant::Classic { p4 }
            }
            RawVariant::Twos => Variant::Twos,
        };

        if let Depth::Fixed(d) = self.search.depth {
            c.check(d <= MAX_DEPTH, "search.depth", || {
                format!("{d} is deeper than the maximum {MAX_DEPTH}")
            })?;
        }
        let cutoff = self.search.prob_cutoff;
        c.check(cutoff > 0.0 && cutoff < 1.0, "search.prob_cutoff", || {
            format!("{cutoff} is outside (0, 1)")
        })?;

        c.check(!self.base_weights.is_empty(), "base_weights", || {
            "must name a weights file".into()
        })?;
        let base_weights_path = resolve_relative(path, &self.base_weights);
        let base_weights =
            Weights::load(&base_weights_path).map_err(|source| ConfigError::BaseWeights {
                at: c.at("base_weights"),
                source,
            })?;
        let base_weights_path =
            std::fs::canonicalize(&base_weights_path).unwrap_or(base_weights_path);

        c.check(!self.params.is_empty(), "params", || {
            "at least one param must be tuned".into()
        })?;
        let mut params: Vec<Param> = Vec::with_capacity(self.params.len());
        let mut resolved_params = Vec::with_capacity(self.params.len());
        for (i, raw) in self.params.iter().enumerate() {
            let field = |f: &str| format!("params[{i}].{f}");
            let Some(&name) = PARAM_NAMES.iter().find(|&&n| n == raw.name) else {
                return Err(c.invalid(&field("name"), unknown_param_message(&raw.name)));
            };
            if let Some(j) = params.iter().position(|p| p.name == name) {
                return Err(c.invalid(
                    &field("name"),
                    format!("`{name}` is already tuned by params[{j}]"),
                ));
            }
            for (value, f) in [(raw.min, "min"), (raw.max, "max"), (raw.scale, "scale")] {
                c.finite(value, &field(f))?;
            }
            c.check(raw.min < raw.max, &field("min"), || {
                format!("min ({}) must be below max ({})", raw.min, raw.max)
            })?;
            c.check(raw.scale > 0.0, &field("scale"), || {
                format!("{} must be positive", raw.scale)
            })?;
            let init = match raw.init {
                Some(init) => {
                    c.finite(init, &field("init"))?;
                    c.check((raw.min..=raw.max).contains(&init), &field("init"), || {
                        format!("{init} is outside [min, max] = [{}, {}]", raw.min, raw.max)
                    })?;
                    init
                }
                None => {
                    let init = base_weights.get(name).expect("listed names are fields");
                    c.check((raw.min..=raw.max).contains(&init), &field("name"), || {
                        format!(
                            "no init given, and the base weights' value {init} is outside [min, max] = [{}, {}]",
                            raw.min, raw.max
                        )
                    })?;
                    init
                }
            };
            params.push(Param {
                name,
                init,
                min: raw.min,
                max: raw.max,
                scale: raw.scale,
            });
            resolved_params.push(RawParam {
                init: Some(init),
                ..raw.clone()
            });
        }

        match self.objective {
            Objective::Reach { tile } => c.check(
                tile.is_power_of_two() && (4..=65536).contains(&tile),
                "objective.tile",
                || format!("{tile} is not a power of two in 4..=65536"),
            )?,
            Objective::ScoreQuantile { q } => c.check(q > 0.0 && q < 1.0, "objective.q", || {
                format!("{q} is outside (0, 1)")
            })?,
            Objective::MeanScore | Objective::MeanLog2MaxTile => {}
        }

        c.check(self.games_per_candidate > 0, "games_per_candidate", || {
            "must be positive".into()
        })?;
        if let Some(p) = self.population {
            c.check(p >= 2, "population", || {
                format!("{p} is below the minimum 2")
            })?;
        }
        c.finite(self.sigma0, "sigma0")?;
        c.check(self.sigma0 > 0.0, "sigma0", || {
            format!("{} must be positive", self.sigma0)
        })?;

        let stop = self.stop;
        c.check(
            stop.generations.is_some() || stop.total_games.is_some() || stop.wall_seconds.is_some(),
            "stop",
            || {
                "set at least one of generations, total_games, wall_seconds, or the run never ends"
                    .into()
            },
        )?;
        c.check(stop.generations != Some(0), "stop.generations", || {
            "must be positive".into()
        })?;
        c.check(stop.total_games != Some(0), "stop.total_games", || {
            "must be positive".into()
        })?;
        c.check(stop.stagnation != Some(0), "stop.stagnation", || {
            "must be positive".into()
        })?;
        if let Some(t) = stop.target_fitness {
            c.finite(t, "stop.target_fitness")?;
        }
        if let Some(s) = stop.wall_seconds {
            c.check(s.is_finite() && s > 0.0, "stop.wall_seconds", || {
                format!("{s} must be a positive number")
            })?;
        }

        if let Some(r) = self.restarts {
            let f = r.population_factor;
            c.check(
                f.is_finite() && f >= 1.0,
                "restarts.population_factor",
                || format!("{f} must be at least 1"),
            )?;
        }
        if let Some(r) = self.reselect {
            c.check(r.top > 0, "reselect.top", || "must be positive".into())?;
            c.check(r.games > 0, "reselect.games", || "must be positive".into())?;
            c.check(self.validation_games > 0, "reselect", || {
                "ranks generations by validation: set validation_games above 0, or reselect: None"
                    .into()
            })?;
        }
        c.check(self.threads != Some(0), "threads", || {
            "must be positive (or None for all cores)".into()
        })?;
        c.check(self.move_limit != Some(0), "move_limit", || {
            "must be positive (or None for no limit)".into()
        })?;

        let resolved = RawConfig {
            base_weights: base_weights_path.display().to_string(),
            params: resolved_params,
            population: Some(
                self.population
                    .unwrap_or(default_population(params.len()) as u32),
            ),
            ..self.clone()
        };
        Ok(TuneConfig {
            path: path.to_path_buf(),
            name: self.name,
            variant,
            search: self.search,
            base_weights_path,
            base_weights,
            params,
            objective: self.objective,
            games_per_candidate: self.games_per_candidate,
            population: self.population,
            sigma0: self.sigma0,
            stop,
            validation_games: self.validation_games,
            final_games: self.final_games,
            restarts: self.restarts,
            reselect: self.reselect,
            seed: self.seed,
            threads: self.threads,
            move_limit: self.move_limit,
            source_text: text.to_string(),
            resolved,
        })
    }
}

/// A relative `file` beside `config` if it exists there (or nowhere), else
/// relative to the current directory.
fn resolve_relative(config: &Path, file: &str) -> PathBuf {
    let file = Path::new(file);
    if file.is_absolute() {
        return file.to_path_buf();
    }
    let dir = config.parent().unwrap_or(Path::new(""));
    let beside = dir.join(file);
    if beside.exists() || !file.exists() {
        beside
    } else {
        file.to_path_buf()
    }
}

/// "unknown parameter" with the closest valid name, or all of them.
fn unknown_param_message(name: &str) -> String {
    let closest = PARAM_NAMES
        .iter()
        .map(|&n| (edit_distance(name, n), n))
        .min()
        .filter(|&(d, _)| d <= 2.max(name.len() / 3));
    match closest {
        Some((_, n)) => format!("unknown parameter `{name}`; did you mean `{n}`?"),
        None => format!(
            "unknown parameter `{name}`; valid names: {}",
            PARAM_NAMES.join(", ")
        ),
    }
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests;
