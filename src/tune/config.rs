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

/// Deepest fixed search depth a config may ask for.
pub const MAX_DEPTH: u32 = 8;

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
mod tests {
    use super::*;

    /// A config path beside the shipped weights, so `weights/...` resolves.
    fn config_path() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/test.ron")
    }

    /// A valid config, one field a line; tests break one thing at a time.
    const VALID: &str = r#"// test config
(
    name: "test-1",
    variant: Classic(p4: 0.1),
    search: (depth: Fixed(1), prob_cutoff: 1e-4),
    base_weights: "weights/nneonneo.ron",
    params: [
        (name: "empty", init: 270.0, min: 0.0, max: 2000.0, scale: 100.0),
        (name: "merges", min: 0.0, max: 3000.0, scale: 200.0),
    ],
    objective: MeanScore,
    games_per_candidate: 10,
    population: None,
    sigma0: 0.5,
    stop: (generations: 5, total_games: None),
    validation_games: 0,
    final_games: 0,
    restarts: Some((max_restarts: 2, population_factor: 2.0)),
    seed: 3,
    threads: None,
    move_limit: 5000,
)
"#;

    fn parse_with(from: &str, to: &str) -> Result<TuneConfig, ConfigError> {
        assert!(VALID.contains(from), "test edit `{from}` matches nothing");
        parse(&VALID.replacen(from, to, 1), &config_path())
    }

    /// The error and its causes, as `main` prints them.
    fn chain(err: &ConfigError) -> String {
        let mut text = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(e) = source {
            text += &format!(": {e}");
            source = e.source();
        }
        text
    }

    fn error_with(from: &str, to: &str) -> String {
        let err = parse_with(from, to).expect_err("the edit must be rejected");
        let text = chain(&err);
        assert!(
            text.starts_with(&config_path().display().to_string()),
            "{text}"
        );
        text
    }

    fn file() -> String {
        config_path().display().to_string()
    }

    #[test]
    fn the_valid_config_parses_into_typed_values() {
        let c = parse(VALID, &config_path()).unwrap();
        assert_eq!(c.name, "test-1");
        assert_eq!(c.variant, Variant::Classic { p4: 0.1 });
        assert_eq!(c.search.depth, Depth::Fixed(1));
        assert_eq!(c.params.len(), 2);
        assert_eq!(c.params[0].name, "empty");
        assert_eq!(c.params[1].init, 700.0, "init defaults to the base weights");
        assert_eq!(c.population(), 4 + 2, "4 + floor(3 ln 2)");
        assert_eq!(c.stop.generations, Some(5));
        assert_eq!(c.move_limit, Some(5000), "implicit Some");
        assert_eq!(c.restarts.unwrap().max_restarts, 2);
        assert_eq!(c.base_weights, Weights::nneonneo());
        assert!(c.base_weights_path.is_absolute());
        assert_eq!(c.source_text, VALID);
    }

    #[test]
    fn weights_with_sets_tuned_terms_within_bounds() {
        let c = parse(VALID, &config_path()).unwrap();
        assert_eq!(c.initial_weights(), Weights::nneonneo());
        let w = c.weights_with(&[-5.0, 1234.5]);
        assert_eq!((w.empty, w.merges), (0.0, 1234.5));
        assert_eq!(
            w.sum,
            Weights::nneonneo().sum,
            "untuned terms keep the base value"
        );
    }

    #[test]
    fn to_ron_round_trips_from_another_directory() {
        let c = parse(VALID, &config_path()).unwrap();
        let text = c.to_ron();
        assert!(text.contains("init: Some(700.0)"), "{text}");
        let elsewhere = std::env::temp_dir().join("tune2048-config-test/resolved.ron");
        let back = parse(&text, &elsewhere).unwrap();
        assert_eq!(back.to_ron(), text);
        let strip = |c: TuneConfig| TuneConfig {
            path: PathBuf::new(),
            source_text: String::new(),
            population: None,
            ..c
        };
        assert_eq!(strip(back), strip(c));
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let text = error_with("games_per_candidate: 10,", "games_per_candidate: 10");
        assert!(text.starts_with(&format!("{}:13:", file())), "{text}");
    }

    #[test]
    fn unknown_fields_are_named() {
        let text = error_with("seed: 3,", "seeed: 3,");
        assert!(text.starts_with(&format!("{}:19:", file())), "{text}");
        assert!(
            text.contains("field named `seeed` in `TuneConfig`"),
            "{text}"
        );
        let text = error_with("min: 0.0, max: 3000.0", "mn: 0.0, max: 3000.0");
        assert!(
            text.starts_with(&format!("{}:9:", file())) && text.contains("mn"),
            "{text}"
        );
        let text = error_with(
            "objective: MeanScore",
            "objective: Reach(tile: 2048, q: 0.5)",
        );
        assert!(text.contains("`q`"), "{text}");
    }

    #[test]
    fn wrong_types_give_line_and_column() {
        let text = error_with("games_per_candidate: 10", "games_per_candidate: \"many\"");
        assert!(text.starts_with(&format!("{}:12:", file())), "{text}");
        let text = error_with("seed: 3", "seed: -3");
        assert!(text.starts_with(&format!("{}:19:", file())), "{text}");
    }

    #[test]
    fn min_must_be_below_max() {
        let text = error_with("min: 0.0, max: 3000.0", "min: 5.0, max: 5.0");
        assert_eq!(
            text,
            format!(
                "{}:9:26: field `params[1].min`: min (5) must be below max (5)",
                file()
            )
        );
    }

    #[test]
    fn unknown_params_suggest_a_close_name_or_list_all() {
        let text = error_with("\"merges\"", "\"merge\"");
        assert!(text.contains("field `params[1].name`"), "{text}");
        assert!(
            text.contains("unknown parameter `merge`; did you mean `merges`?"),
            "{text}"
        );
        let text = error_with("\"merges\"", "\"snak_power\"");
        assert!(text.contains("did you mean `snake_power`"), "{text}");
        let text = error_with("\"merges\"", "\"zigzag_bonus\"");
        assert!(text.contains("valid names: lost_penalty, empty,"), "{text}");
        assert!(text.contains("snake_power"), "{text}");
    }

    #[test]
    fn duplicate_params_are_rejected() {
        let text = error_with("\"merges\"", "\"empty\"");
        assert_eq!(
            text,
            format!(
                "{}:9:10: field `params[1].name`: `empty` is already tuned by params[0]",
                file()
            )
        );
    }

    #[test]
    fn zero_games_are_rejected() {
        let text = error_with("games_per_candidate: 10", "games_per_candidate: 0");
        assert_eq!(
            text,
            format!(
                "{}:12:5: field `games_per_candidate`: must be positive",
                file()
            )
        );
    }

    #[test]
    fn init_must_lie_within_bounds() {
        let text = error_with("init: 270.0", "init: 2500.0");
        assert!(
            text.starts_with(&format!("{}:8:25: field `params[0].init`: 2500", file())),
            "{text}"
        );
        // Without init, the base value (merges: 700) must fit.
        let text = error_with("max: 3000.0", "max: 600.0");
        assert!(
            text.contains("field `params[1].name`: no init given"),
            "{text}"
        );
        assert!(text.contains("700"), "{text}");
    }

    #[test]
    fn a_missing_weights_file_names_the_field_and_the_file() {
        let text = error_with("weights/nneonneo.ron", "weights/missing.ron");
        assert!(
            text.starts_with(&format!("{}:6:5: field `base_weights`", file())),
            "{text}"
        );
        assert!(text.contains("configs/weights/missing.ron"), "{text}");
        // An invalid weights file: its own error follows.
        let dir = std::env::temp_dir().join(format!("tune2048-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("bad.ron"), "Weights(lost_penalty: oops)").unwrap();
        let err = parse(
            &VALID.replace("weights/nneonneo.ron", "bad.ron"),
            &dir.join("c.ron"),
        )
        .unwrap_err();
        assert!(matches!(err, ConfigError::BaseWeights { .. }));
        let text = chain(&err);
        assert!(text.contains("bad.ron:1:"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stop_rule_is_required() {
        let text = error_with(
            "stop: (generations: 5, total_games: None)",
            "stop: (stagnation: 4)",
        );
        assert!(
            text.starts_with(&format!("{}:15:5: field `stop`: set at least one", file())),
            "{text}"
        );
    }

    #[test]
    fn ranges_are_checked_field_by_field() {
        let cases = [
            ("\"test-1\"", "\"a b\"", "name"),
            ("p4: 0.1", "p4: 1.5", "variant.p4"),
            ("Fixed(1)", "Fixed(9)", "search.depth"),
            ("1e-4", "1.0", "search.prob_cutoff"),
            ("MeanScore", "Reach(tile: 1000)", "objective.tile"),
            ("MeanScore", "ScoreQuantile(q: 0.0)", "objective.q"),
            ("population: None", "population: 1", "population"),
            ("sigma0: 0.5", "sigma0: 0.0", "sigma0"),
            ("scale: 100.0", "scale: -1.0", "params[0].scale"),
            ("generations: 5", "generations: 0", "stop.generations"),
            (
                "population_factor: 2.0",
                "population_factor: 0.5",
                "restarts.population_factor",
            ),
            ("threads: None", "threads: 0", "threads"),
            ("move_limit: 5000", "move_limit: 0", "move_limit"),
        ];
        for (from, to, field) in cases {
            let edited = VALID.replacen(from, to, 1);
            let Err(err) = parse(&edited, &config_path()) else {
                panic!("{from} -> {to} was accepted");
            };
            assert_eq!(err.field(), Some(field), "{from} -> {to}: {err}");
            let ConfigError::Invalid { at, .. } = &err else {
                unreachable!()
            };
            let (line, _) = at.position.unwrap_or_else(|| panic!("{err} has no line"));
            let key = field.rsplit('.').next().unwrap();
            let line_text = edited.lines().nth(line - 1).unwrap();
            assert!(
                line_text.contains(&format!("{}:", key.split('[').next().unwrap())),
                "{err}: {line_text}"
            );
        }
    }

    #[test]
    fn empty_params_are_rejected() {
        let text = VALID.replace(
            "        (name: \"empty\", init: 270.0, min: 0.0, max: 2000.0, scale: 100.0),\n        (name: \"merges\", min: 0.0, max: 3000.0, scale: 200.0),\n",
            "",
        );
        let err = parse(&text, &config_path()).unwrap_err();
        assert_eq!(err.field(), Some("params"), "{err}");
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("merge", "merges"), 1);
        assert_eq!(edit_distance("emtpy", "empty"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn every_shipped_config_parses() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                let config = load(&path).unwrap_or_else(|e| panic!("{}", chain(&e)));
                assert_eq!(
                    config.base_weights,
                    Weights::load(&config.base_weights_path).unwrap(),
                    "{}",
                    path.display()
                );
                names.push(config.name);
            }
        }
        names.sort();
        assert_eq!(
            names,
            [
                "classic",
                "classic-d1-snake",
                "classic-d2",
                "quick",
                "smoke",
                "twos"
            ]
        );
    }

    #[test]
    fn default_ron_is_the_serious_classic_job() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
        let c = load(&dir.join("default.ron")).unwrap();
        assert_eq!(c.variant, Variant::Classic { p4: 0.1 });
        assert_eq!(c.search.depth, Depth::Fixed(1));
        assert_eq!(
            (c.games_per_candidate, c.validation_games, c.final_games),
            (1000, 1000, 2000)
        );
        assert_eq!(c.stop.generations, Some(40));
        let names: Vec<_> = c.params.iter().map(|p| p.name).collect();
        assert_eq!(names, PARAM_NAMES[..11]);
        assert_eq!(c.population(), 11);
        // Every field is written out, none left to its default.
        let fields = [
            "name",
            "variant",
            "search",
            "search.depth",
            "search.prob_cutoff",
            "base_weights",
            "params",
            "objective",
            "games_per_candidate",
            "population",
            "sigma0",
            "stop",
            "stop.generations",
            "stop.total_games",
            "stop.target_fitness",
            "stop.stagnation",
            "stop.wall_seconds",
            "validation_games",
            "final_games",
            "restarts",
            "seed",
            "threads",
            "move_limit",
        ];
        for field in fields {
            assert!(
                locate(&c.source_text, field).is_some(),
                "default.ron lacks {field}"
            );
        }

        let quick = load(&dir.join("quick.ron")).unwrap();
        assert_eq!(quick.params.len(), 7);
        assert!(quick.params.iter().all(|p| p.init
            == if p.name.ends_with("power") {
                2.0
            } else {
                p.scale
            }));
        let smoke = load(&dir.join("smoke.ron")).unwrap();
        assert_eq!(
            (smoke.search.depth, smoke.population(), smoke.params.len()),
            (Depth::Fixed(0), 6, 2)
        );
        assert_eq!(load(&dir.join("twos.ron")).unwrap().variant, Variant::Twos);
    }

    #[test]
    fn shipped_weights_files_are_the_reference() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/weights");
        let text = std::fs::read_to_string(dir.join("nneonneo.ron")).unwrap();
        assert_eq!(text, Weights::nneonneo().to_ron());
        assert_eq!(
            std::fs::read_to_string(dir.join("default.ron")).unwrap(),
            text
        );
    }
}
