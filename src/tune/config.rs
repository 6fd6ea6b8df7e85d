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

use crate::adversarial::duel::Opponent;
use crate::adversarial::{Rules, Side};
use crate::engine::Variant;
use crate::heuristic::WeightsError;
use crate::loader::{ron_message, utf8_text};
use crate::player::external::Declared;
use crate::player::{Player, PlayerError};
use crate::search::{NodeClock, DEFAULT_PROB_CUTOFF};

mod locate;
mod validate;

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
    /// The mean score earned in the game: the final score less the start
    /// position's (with a bank); the same as `MeanScore` for whole games.
    MeanGain,
    /// The fraction of games whose largest tile reaches twice the largest
    /// tile of their start position (from an 8192 position, a 16384).
    /// Needs a bank.
    ReachNext,
    /// Minus the mean defender total of the games: an attacker's objective
    /// (a `Gpcc` variant with role `Attacker`), so that allowing less is better.
    ScoreAllowed,
}

/// Games start from positions of a bank file, as written in the config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Bank", deny_unknown_fields)]
pub struct RawBank {
    /// The bank file (`tune2048 bank` writes one). A relative path is looked
    /// up beside the config file first, then in the current directory.
    pub file: String,
    /// The stage whose positions the games start from: `8192`, `every:50`.
    pub stage: String,
    /// The file's content hash (16 hex digits). A run folder's config sets
    /// it, so that a resume refuses a bank that changed; leave it out.
    #[serde(default)]
    pub hash: Option<String>,
    /// `true`: the bank's header may record another variant than the run's
    /// (its positions come from other games, on purpose). By default such
    /// a bank is an error naming the file and the header line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub other_variant: bool,
}

/// A validated bank: the positions a run's games start from.
#[derive(Clone, Debug, PartialEq)]
pub struct BankStarts {
    /// Where the bank was found.
    pub path: PathBuf,
    pub stage: String,
    /// [`crate::bank::content_hash`] of the file.
    pub hash: u64,
    /// The stage's positions, in file order; never empty.
    pub starts: Vec<crate::engine::Start>,
}

impl BankStarts {
    /// Where the game of `seed` starts ([`crate::bank::pick`]).
    pub fn start(&self, seed: u64) -> crate::engine::Start {
        crate::bank::pick(&self.starts, seed)
    }
}

/// The game variant as written in the config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Variant", deny_unknown_fields)]
pub enum RawVariant {
    /// Random 2s and 4s after each move; `p4` is the chance of a 4, in [0, 1].
    Classic { p4: f64 },
    /// A 2 before every move on an initially empty board (BOJ 28489).
    Twos,
    /// Adversarial 2048: the candidate takes `role` against each of the
    /// fixed `opponents` in turn, from openings of `opening_turns` random
    /// turns; `search.depth` is the alpha-beta search's plies.
    Gpcc {
        rules: Rules,
        role: Side,
        /// `score`, `eval1`, `eval2`, or weights files (looked up as
        /// `base_weights` is).
        opponents: Vec<String>,
        #[serde(default = "default_opening_turns")]
        opening_turns: u32,
    },
}

/// Random turns opening a `Gpcc` game when the config does not say.
pub const DEFAULT_OPENING_TURNS: u32 = 2;

fn default_opening_turns() -> u32 {
    DEFAULT_OPENING_TURNS
}

/// The game a job plays, validated.
#[derive(Clone, Debug, PartialEq)]
pub enum Game {
    /// A solo game searched by expectimax: the classic game or twos.
    Solo(Variant),
    /// Adversarial 2048 against fixed opponents.
    Gpcc(Duel),
}

impl fmt::Display for Game {
    /// `Classic { p4: 0.1 }`, `Twos`, or for a duel its rules, role,
    /// opponents (weights files by file name) and openings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Game::Solo(variant) => write!(f, "{variant:?}"),
            Game::Gpcc(duel) => {
                let opponents: Vec<&str> = duel
                    .opponents
                    .iter()
                    .map(|o| {
                        let name = o.name();
                        name.rsplit('/').next().unwrap_or(name)
                    })
                    .collect();
                write!(
                    f,
                    "{} {} against {} (openings of {} turns)",
                    duel.rules.name(),
                    duel.role.name(),
                    opponents.join(", "),
                    duel.opening_turns
                )
            }
        }
    }
}

/// A validated `Gpcc` variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    pub rules: Rules,
    pub role: Side,
    /// At least one; weights files loaded.
    pub opponents: Vec<Opponent>,
    pub opening_turns: u32,
}

/// Search settings: expectimax's, or for a `Gpcc` variant alpha-beta's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Search", deny_unknown_fields)]
pub struct SearchConfig {
    /// Search depth: `Fixed(0..=8)` or `Auto`; for `Gpcc`, `Fixed(plies)`.
    pub depth: Depth,
    /// Chance nodes whose probability falls below this are cut off: the
    /// base player's [`crate::search::Settings::prob_cutoff`] (its range and
    /// default, 1e-4), unless the job tunes it; alpha-beta has no chance
    /// nodes.
    #[serde(default = "default_prob_cutoff")]
    pub prob_cutoff: f64,
    /// A per-move budget in moves tried (iterative deepening up to `depth`);
    /// `None`: every move searched to `depth`. Deterministic, unlike time.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// A game clock in moves tried instead of a per-move budget: each move
    /// may spend what the player's clock settings allow (`interact`'s rule,
    /// in moves tried). Deterministic, like `nodes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<NodeClock>,
}

fn default_prob_cutoff() -> f64 {
    DEFAULT_PROB_CUTOFF
}

/// How CMA-ES's normalized coordinate `x` maps to a parameter's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// value = init + scale·x.
    #[default]
    Real,
    /// value = init·scale^x: one unit multiplies the value by `scale` (> 1);
    /// for positive values spanning orders of magnitude (a cutoff, a budget).
    Log,
    /// value = round(init + scale·x): integral `init`, `min` and `max`.
    Integer,
}

/// The player a job tunes, as written in the config.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Player", deny_unknown_fields)]
pub enum RawPlayer {
    /// The built-in expectimax player: `base_weights` and the search
    /// settings; params name its terms and its settings.
    #[default]
    Builtin,
    /// The built-in expectimax search scoring its leaves with a learned
    /// network (`learn`, `pack`); params name its search settings only.
    Network {
        /// The network file; a relative path is looked up beside the config
        /// file first, then in the current directory.
        file: String,
        /// The file's hash (16 hex digits). A run folder's config sets it,
        /// so that a resume refuses a network that changed; leave it out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hash: Option<String>,
    },
    /// A program over the line protocol; params name what it declares.
    External {
        /// The program and its arguments; a relative program path is looked
        /// up beside the config file first, then in the current directory.
        command: Vec<String>,
        /// The most one decision may take, in seconds (default 5).
        #[serde(default)]
        decision_secs: Option<f64>,
        /// The most the program's start and handshake may take, in seconds
        /// (default 30).
        #[serde(default)]
        handshake_secs: Option<f64>,
        /// Boards in a line to the program (protocol version 2; 1 to 1024,
        /// default 64; 1 speaks version 1): a worker keeps two such lines of
        /// games in flight. The games are the same whatever it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lockstep: Option<usize>,
    },
}

/// One tuned parameter, as written in the config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Param", deny_unknown_fields)]
pub struct RawParam {
    /// A parameter of the player: for the built-in one a term of
    /// [`crate::heuristic::PARAM_NAMES`] (`"empty"`, `"snake[3]"`) or a setting of
    /// [`crate::search::SETTING_NAMES`] (`"prob_cutoff"`).
    pub name: String,
    /// Starting value; defaults to the base weights' value.
    #[serde(default)]
    pub init: Option<f64>,
    /// Lower bound (inclusive).
    pub min: f64,
    /// Upper bound (inclusive); above `min`.
    pub max: f64,
    /// The size of one normalized unit of this term; positive (for `Log`,
    /// the factor of one unit, above 1).
    pub scale: f64,
    /// `Real` (the default), `Log` or `Integer`.
    #[serde(default, skip_serializing_if = "is_real")]
    pub kind: Kind,
}

fn is_real(kind: &Kind) -> bool {
    *kind == Kind::Real
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
    /// Games each of them plays (at least 2: one gives no interval); all
    /// play the same seeds.
    pub games: u32,
}

/// Racing inside selection: every candidate plays `games_per_candidate`
/// games, then those whose place among the μ best is still in doubt play
/// rounds of `round_games` more, until every place is decided with
/// confidence 1 − `delta` or a candidate has played `max_games`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Race", deny_unknown_fields)]
pub struct Race {
    /// Games per round after the first (positive).
    pub round_games: u32,
    /// Games a candidate plays at most in a generation (at least `games_per_candidate`).
    pub max_games: u32,
    /// The chance that any decision of a generation's race is wrong, 0 < δ < 1.
    pub delta: f64,
}

/// A stage of a staged job, as written: the fields it sets replace the
/// top-level ones while it lasts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Stage", deny_unknown_fields)]
pub struct RawStage {
    /// Generations this stage lasts (positive). Required but for the last
    /// stage, which without it runs until a stop rule ends the run.
    #[serde(default)]
    pub generations: Option<u32>,
    #[serde(default)]
    pub search: Option<SearchConfig>,
    #[serde(default)]
    pub games_per_candidate: Option<u32>,
    #[serde(default)]
    pub validation_games: Option<u32>,
}

/// A stage, validated: what its generations play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TuneStage {
    /// Generations it lasts; `None` only for a last stage that ends with the run.
    pub generations: Option<u32>,
    pub search: SearchConfig,
    pub games_per_candidate: u32,
    pub validation_games: u32,
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
    /// The player tuned: `Builtin` (the default), `Network(file: …)` or
    /// `External(command: …)`.
    #[serde(default, skip_serializing_if = "is_builtin")]
    pub player: RawPlayer,
    /// The built-in player's weights file: the terms not tuned, the default
    /// `init` of tuned ones and the baseline of the final comparison. A
    /// relative path is looked up beside the config file first, then in the
    /// current directory. An external player has none: its declared
    /// defaults are its base.
    #[serde(default)]
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
    /// Games on which the distribution mean is validated each generation; 0
    /// disables, 1 is refused (one game gives no interval).
    pub validation_games: u32,
    /// Paired games, best against base weights, at the end; 0 disables, 1 is
    /// refused (one game gives no interval).
    pub final_games: u32,
    /// IPOP restarts; `None` disables.
    #[serde(default)]
    pub restarts: Option<Restarts>,
    /// Re-play the leading generations before choosing the best; `None`:
    /// the best validation stands. Needs `validation_games`.
    #[serde(default)]
    pub reselect: Option<Reselect>,
    /// Race the candidates of each generation; `None`: every candidate plays
    /// `games_per_candidate` games. Needs an objective that is a mean.
    #[serde(default)]
    pub race: Option<Race>,
    /// Stages run in order, each starting from the previous stage's mean and
    /// step size (e.g. depth 2, then depth 3); empty: one stage, as above.
    #[serde(default)]
    pub stages: Vec<RawStage>,
    /// The run seed every game seed derives from.
    pub seed: u64,
    /// Worker threads (positive); `None`: all cores.
    #[serde(default)]
    pub threads: Option<u32>,
    /// Moves per game at most (positive); `None`: play every game to its end.
    #[serde(default)]
    pub move_limit: Option<u32>,
    /// Start every game of the run (but the final comparison's) from a
    /// position of a bank, drawn by the game's seed; `None`: whole games.
    #[serde(default)]
    pub bank: Option<RawBank>,
}

fn is_builtin(player: &RawPlayer) -> bool {
    *player == RawPlayer::Builtin
}

/// One tuned parameter, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// A parameter of the job's player.
    pub name: String,
    /// Starting value, within `min..=max`.
    pub init: f64,
    pub min: f64,
    pub max: f64,
    /// Size of one normalized unit; positive (above 1 for `Log`).
    pub scale: f64,
    pub kind: Kind,
}

impl Param {
    /// The value at normalized coordinate `x`, clamped to the bounds, and
    /// how far outside them `x` lies, in normalized units.
    pub fn decode(&self, x: f64) -> (f64, f64) {
        let raw = match self.kind {
            Kind::Real | Kind::Integer => self.init + self.scale * x,
            Kind::Log => self.init * self.scale.powf(x),
        };
        let clamped = raw.clamp(self.min, self.max);
        let outside = match self.kind {
            Kind::Real | Kind::Integer => (raw - clamped) / self.scale,
            Kind::Log => (raw / clamped).ln() / self.scale.ln(),
        };
        let value = match self.kind {
            Kind::Integer => clamped.round(),
            _ => clamped,
        };
        (value, outside)
    }
}

/// A validated tuning job.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// The config file it was read from.
    pub path: PathBuf,
    /// Prefix of the run folder's name.
    pub name: String,
    pub variant: Game,
    pub search: SearchConfig,
    /// Where the base weights were found (absolute when it could be made
    /// so); `None` for an external player.
    pub base_weights_path: Option<PathBuf>,
    /// The player every candidate starts from: the built-in player with the
    /// base weights and default settings (the config's cutoff), or the
    /// external program with its declared defaults.
    pub base: Player,
    /// What an external player declared at its handshake (empty for the built-in one).
    pub declared: Vec<Declared>,
    /// The tuned parameters, in config order; names are distinct.
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
    pub race: Option<Race>,
    /// At least one. Without stages in the file, one open-ended stage of the
    /// top-level settings.
    pub stages: Vec<TuneStage>,
    pub seed: u64,
    pub threads: Option<u32>,
    pub move_limit: Option<u32>,
    pub bank: Option<BankStarts>,
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
        source: Box<WeightsError>,
    },
    /// The external player could not be started or failed its handshake.
    #[error("{at}: field `player`: the external player failed")]
    Player {
        at: Location,
        #[source]
        source: Box<PlayerError>,
    },
    /// An opponent's weights file is missing or invalid.
    #[error("{at}: field `{field}`: cannot load the opponent's weights")]
    Opponent {
        at: Location,
        field: String,
        #[source]
        source: Box<WeightsError>,
    },
    /// The bank file is missing or malformed.
    #[error("{at}: field `bank.file`: cannot load the bank")]
    Bank {
        at: Location,
        #[source]
        source: crate::bank::BankError,
    },
}

impl ConfigError {
    /// The field path a semantic error is about (`params[2].min`).
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::Invalid { field, .. } => Some(field),
            ConfigError::BaseWeights { .. } => Some("base_weights"),
            ConfigError::Bank { .. } => Some("bank.file"),
            ConfigError::Player { .. } => Some("player"),
            ConfigError::Opponent { field, .. } => Some(field),
            _ => None,
        }
    }
}

/// Reads and validates a config file.
pub fn load(path: &Path) -> Result<TuneConfig, ConfigError> {
    let bytes = std::fs::read(path).map_err(|source| ConfigError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let text = utf8_text(bytes).map_err(|(line, column)| ConfigError::Syntax {
        path: path.display().to_string(),
        line,
        column,
        message: "not UTF-8 text".into(),
    })?;
    parse(&text, path)
}

/// A run folder's recorded config, read without starting its external
/// player: the names and `init`s it records stand for the player's
/// declarations (for reports and charts of a run whose program may be gone).
pub fn parse_recorded(text: &str, path: &Path) -> Result<TuneConfig, ConfigError> {
    raw_config(text, path)?.validate_with(text, path, false)
}

/// Parses and validates config text; `path` names it in errors and anchors
/// a relative `base_weights`.
pub fn parse(text: &str, path: &Path) -> Result<TuneConfig, ConfigError> {
    raw_config(text, path)?.validate(text, path)
}

/// Stage one: the text as a [`RawConfig`].
fn raw_config(text: &str, path: &Path) -> Result<RawConfig, ConfigError> {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| ConfigError::Syntax {
        path: path.display().to_string(),
        line: e.position.line,
        column: e.position.col,
        message: ron_message(&e.code),
    })
}

impl TuneConfig {
    /// The stage the run ends in: its games are the final comparison's.
    pub fn last_stage(&self) -> &TuneStage {
        self.stages.last().expect("at least one stage")
    }

    /// The CMA-ES population: as configured, else 4 + floor(3 ln n).
    pub fn population(&self) -> usize {
        match self.population {
            Some(p) => p as usize,
            None => default_population(self.params.len()),
        }
    }

    /// The base player with every tuned parameter at its `init`.
    #[cfg(test)]
    pub fn initial_player(&self) -> Player {
        self.player_with(&self.params.iter().map(|p| p.init).collect::<Vec<_>>())
    }

    /// The base player with the tuned parameters set to `values` (config
    /// order), each clamped to its bounds.
    pub fn player_with(&self, values: &[f64]) -> Player {
        assert_eq!(values.len(), self.params.len(), "one value per param");
        let mut player = self.base.clone();
        for (param, &value) in self.params.iter().zip(values) {
            player
                .set(&param.name, value.clamp(param.min, param.max))
                .expect("param names are validated");
        }
        player
    }

    /// Whether the job tunes parameter `name`.
    pub fn tunes(&self, name: &str) -> bool {
        self.params.iter().any(|p| p.name == name)
    }

    /// [`TuneConfig::to_ron`] with `base_weights` pointing at `base`, the
    /// bank's file at `bank` and weights opponent `i` at `opponent(i)` (a
    /// run folder keeps its own copies of them beside its config).
    pub fn to_ron_in_folder(
        &self,
        base: &Path,
        bank: &Path,
        opponent: impl Fn(usize) -> String,
    ) -> String {
        let mut copy = self.clone();
        if self.base_weights_path.is_some() {
            copy.resolved.base_weights = base.display().to_string();
        }
        if let Some(b) = &mut copy.resolved.bank {
            b.file = bank.display().to_string();
        }
        if let (RawVariant::Gpcc { opponents, .. }, Game::Gpcc(duel)) =
            (&mut copy.resolved.variant, &self.variant)
        {
            for (i, o) in duel.opponents.iter().enumerate() {
                if let Opponent::Weights { .. } = o {
                    opponents[i] = opponent(i);
                }
            }
        }
        copy.to_ron()
    }

    /// The resolved raw config (every `init`, the base weights' and the
    /// bank's paths and the bank's hash filled in, population made explicit)
    /// as RON text; it parses back to the same job from any directory.
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

#[cfg(test)]
mod tests;
