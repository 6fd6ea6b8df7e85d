//! Stage two of reading a config: every range and cross-field rule, the base
//! weights loaded, the typed [`TuneConfig`] built. Errors name the field path
//! and, where the scanner finds it, its line and column.

use std::path::{Path, PathBuf};

use super::locate::locate;
use super::{
    default_population, BankStarts, ConfigError, Depth, Location, Objective, Param, RawBank,
    RawConfig, RawParam, RawVariant, Stage, StopRules, TuneConfig, MAX_DEPTH,
};
use crate::bank::{record, Bank, HashText};
use crate::engine::Variant;
use crate::heuristic::{Weights, PARAM_NAMES};

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

    /// `value` is `Some(0)`: "must be positive", with what `None` means.
    fn positive<T: PartialEq + From<u8>>(
        &self,
        value: Option<T>,
        field: &str,
        none_means: &str,
    ) -> Result<(), ConfigError> {
        self.check(value != Some(T::from(0)), field, || {
            format!("must be positive{none_means}")
        })
    }
}

impl RawConfig {
    /// Stage two: checks every rule and loads the base weights. `text` is
    /// the source (for error lines and [`TuneConfig::source_text`]); `path`
    /// names it and anchors a relative `base_weights`.
    pub fn validate(self, text: &str, path: &Path) -> Result<TuneConfig, ConfigError> {
        let c = Checker { text, path };
        check_name(&c, &self.name)?;
        let variant = check_variant(&c, self.variant)?;
        check_search(&c, &self)?;
        let (base_weights_path, base_weights) = load_base(&c, &self.base_weights)?;
        let params = check_params(&c, &self.params, &base_weights)?;
        let bank = check_bank(&c, self.bank.as_ref())?;
        check_objective(&c, self.objective, bank.is_some())?;
        check_budget(&c, &self)?;
        check_stop(&c, &self.stop)?;
        check_extras(&c, &self)?;
        let stages = check_stages(&c, &self)?;
        let resolved = RawConfig {
            base_weights: base_weights_path.display().to_string(),
            params: params
                .iter()
                .zip(&self.params)
                .map(|(p, raw)| RawParam {
                    init: Some(p.init),
                    ..raw.clone()
                })
                .collect(),
            population: Some(
                self.population
                    .unwrap_or(default_population(params.len()) as u32),
            ),
            bank: bank.as_ref().map(|b| RawBank {
                file: b.path.display().to_string(),
                stage: b.stage.clone(),
                hash: Some(HashText(b.hash).to_string()),
            }),
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
            stop: self.stop,
            validation_games: self.validation_games,
            final_games: self.final_games,
            restarts: self.restarts,
            reselect: self.reselect,
            race: self.race,
            stages,
            seed: self.seed,
            threads: self.threads,
            move_limit: self.move_limit,
            bank,
            source_text: text.to_string(),
            resolved,
        })
    }
}

fn check_name(c: &Checker, name: &str) -> Result<(), ConfigError> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
    c.check(ok, "name", || {
        format!("{name:?} must be non-empty and use only letters, digits, '-' and '_'")
    })
}

fn check_variant(c: &Checker, variant: RawVariant) -> Result<Variant, ConfigError> {
    Ok(match variant {
        RawVariant::Classic { p4 } => {
            c.check((0.0..=1.0).contains(&p4), "variant.p4", || {
                format!("{p4} is outside [0, 1]")
            })?;
            Variant::Classic { p4 }
        }
        RawVariant::Twos => Variant::Twos,
    })
}

fn check_search(c: &Checker, raw: &RawConfig) -> Result<(), ConfigError> {
    if let Depth::Fixed(d) = raw.search.depth {
        c.check(d <= MAX_DEPTH, "search.depth", || {
            format!("{d} is deeper than the maximum {MAX_DEPTH}")
        })?;
    }
    let cutoff = raw.search.prob_cutoff;
    c.check(cutoff > 0.0 && cutoff < 1.0, "search.prob_cutoff", || {
        format!("{cutoff} is outside (0, 1)")
    })?;
    c.positive(raw.search.nodes, "search.nodes", " (or None for no budget)")
}

/// The base weights and where they were found (absolute when it could be made so).
fn load_base(c: &Checker, file: &str) -> Result<(PathBuf, Weights), ConfigError> {
    c.check(!file.is_empty(), "base_weights", || {
        "must name a weights file".into()
    })?;
    let path = resolve_relative(c.path, file);
    let weights = Weights::load(&path).map_err(|source| ConfigError::BaseWeights {
        at: c.at("base_weights"),
        source,
    })?;
    Ok((std::fs::canonicalize(&path).unwrap_or(path), weights))
}

fn check_params(c: &Checker, raw: &[RawParam], base: &Weights) -> Result<Vec<Param>, ConfigError> {
    c.check(!raw.is_empty(), "params", || {
        "at least one param must be tuned".into()
    })?;
    let mut params: Vec<Param> = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let param = check_param(c, i, p, base)?;
        if let Some(j) = params.iter().position(|q| q.name == param.name) {
            return Err(c.invalid(
                &format!("params[{i}].name"),
                format!("`{}` is already tuned by params[{j}]", param.name),
            ));
        }
        params.push(param);
    }
    Ok(params)
}

/// One tuned term: a known name, finite bounds and scale, and an `init`
/// (given, or the base weights' value) within the bounds.
fn check_param(
    c: &Checker,
    i: usize,
    raw: &RawParam,
    base: &Weights,
) -> Result<Param, ConfigError> {
    let field = |f: &str| format!("params[{i}].{f}");
    let Some(&name) = PARAM_NAMES.iter().find(|&&n| n == raw.name) else {
        return Err(c.invalid(&field("name"), unknown_param_message(&raw.name)));
    };
    for (value, f) in [(raw.min, "min"), (raw.max, "max"), (raw.scale, "scale")] {
        c.finite(value, &field(f))?;
    }
    c.check(raw.min < raw.max, &field("min"), || {
        format!("min ({}) must be below max ({})", raw.min, raw.max)
    })?;
    c.check(raw.scale > 0.0, &field("scale"), || {
        format!("{} must be positive", raw.scale)
    })?;
    let within = |v: f64| (raw.min..=raw.max).contains(&v);
    let init = match raw.init {
        Some(init) => {
            c.finite(init, &field("init"))?;
            c.check(within(init), &field("init"), || {
                format!("{init} is outside [min, max] = [{}, {}]", raw.min, raw.max)
            })?;
            init
        }
        None => {
            let init = base.get(name).expect("listed names are fields");
            c.check(within(init), &field("name"), || {
                format!(
                    "no init given, and the base weights' value {init} is outside [min, max] = [{}, {}]",
                    raw.min, raw.max
                )
            })?;
            init
        }
    };
    Ok(Param {
        name,
        init,
        min: raw.min,
        max: raw.max,
        scale: raw.scale,
    })
}

/// The bank's file loaded, its stage's positions taken, and its hash
/// checked against the one the config records (a run folder's config).
fn check_bank(c: &Checker, raw: Option<&RawBank>) -> Result<Option<BankStarts>, ConfigError> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    c.check(!raw.file.is_empty(), "bank.file", || {
        "must name a bank file".into()
    })?;
    let path = resolve_relative(c.path, &raw.file);
    let (bank, hash) = Bank::load(&path).map_err(|source| ConfigError::Bank {
        at: c.at("bank.file"),
        source,
    })?;
    raw.stage
        .parse::<record::Stage>()
        .map_err(|m| c.invalid("bank.stage", m))?;
    let starts = bank.stage(&raw.stage);
    c.check(!starts.is_empty(), "bank.stage", || {
        let have: Vec<String> = bank
            .stages()
            .iter()
            .map(|(s, n)| format!("{s} ({n})"))
            .collect();
        format!(
            "{} has no position of stage `{}`; its stages: {}",
            path.display(),
            raw.stage,
            if have.is_empty() {
                "none".into()
            } else {
                have.join(", ")
            }
        )
    })?;
    if let Some(want) = &raw.hash {
        let want = u64::from_str_radix(want, 16)
            .map_err(|_| c.invalid("bank.hash", format!("`{want}` is not 16 hex digits")))?;
        c.check(want == hash, "bank.hash", || {
            format!(
                "{} changed since the run started: its content hash is {}, the run recorded {}. \
                 A run replays its games from the positions it started with: restore that file, \
                 or start a new run",
                path.display(),
                HashText(hash),
                HashText(want)
            )
        })?;
    }
    Ok(Some(BankStarts {
        path: std::fs::canonicalize(&path).unwrap_or(path),
        stage: raw.stage.clone(),
        hash,
        starts,
    }))
}

fn check_objective(c: &Checker, objective: Objective, bank: bool) -> Result<(), ConfigError> {
    match objective {
        Objective::ReachNext => c.check(bank, "objective", || {
            "ReachNext counts games that pass their start position's largest tile: set `bank`"
                .into()
        }),
        Objective::Reach { tile } => c.check(
            tile.is_power_of_two() && (4..=65536).contains(&tile),
            "objective.tile",
            || format!("{tile} is not a power of two in 4..=65536"),
        ),
        Objective::ScoreQuantile { q } => c.check(q > 0.0 && q < 1.0, "objective.q", || {
            format!("{q} is outside (0, 1)")
        }),
        Objective::MeanScore | Objective::MeanLog2MaxTile | Objective::MeanGain => Ok(()),
    }
}

/// Games per candidate, population and step size.
fn check_budget(c: &Checker, raw: &RawConfig) -> Result<(), ConfigError> {
    c.positive(Some(raw.games_per_candidate), "games_per_candidate", "")?;
    if let Some(p) = raw.population {
        c.check(p >= 2, "population", || {
            format!("{p} is below the minimum 2")
        })?;
    }
    c.finite(raw.sigma0, "sigma0")?;
    c.check(raw.sigma0 > 0.0, "sigma0", || {
        format!("{} must be positive", raw.sigma0)
    })
}

fn check_stop(c: &Checker, stop: &StopRules) -> Result<(), ConfigError> {
    c.check(
        stop.generations.is_some() || stop.total_games.is_some() || stop.wall_seconds.is_some(),
        "stop",
        || {
            "set at least one of generations, total_games, wall_seconds, or the run never ends"
                .into()
        },
    )?;
    c.positive(stop.generations, "stop.generations", "")?;
    c.positive(stop.total_games, "stop.total_games", "")?;
    c.positive(stop.stagnation, "stop.stagnation", "")?;
    if let Some(t) = stop.target_fitness {
        c.finite(t, "stop.target_fitness")?;
    }
    if let Some(s) = stop.wall_seconds {
        c.check(s.is_finite() && s > 0.0, "stop.wall_seconds", || {
            format!("{s} must be a positive number")
        })?;
    }
    Ok(())
}

/// Restarts, reselection, racing, threads and the move limit.
fn check_extras(c: &Checker, raw: &RawConfig) -> Result<(), ConfigError> {
    if let Some(r) = raw.restarts {
        let f = r.population_factor;
        c.check(
            f.is_finite() && f >= 1.0,
            "restarts.population_factor",
            || format!("{f} must be at least 1"),
        )?;
    }
    if let Some(r) = raw.reselect {
        c.positive(Some(r.top), "reselect.top", "")?;
        c.positive(Some(r.games), "reselect.games", "")?;
        c.check(raw.validation_games > 0, "reselect", || {
            "ranks generations by validation: set validation_games above 0, or reselect: None"
                .into()
        })?;
    }
    if let Some(r) = raw.race {
        c.positive(Some(r.round_games), "race.round_games", "")?;
        c.check(
            r.max_games >= raw.games_per_candidate,
            "race.max_games",
            || {
                format!(
                    "{} is below games_per_candidate ({})",
                    r.max_games, raw.games_per_candidate
                )
            },
        )?;
        c.check(r.delta > 0.0 && r.delta < 1.0, "race.delta", || {
            format!("{} is outside (0, 1)", r.delta)
        })?;
        c.check(
            !matches!(raw.objective, Objective::ScoreQuantile { .. }),
            "race",
            || "races compare means: use an objective other than ScoreQuantile".into(),
        )?;
    }
    c.positive(raw.threads, "threads", " (or None for all cores)")?;
    c.positive(raw.move_limit, "move_limit", " (or None for no limit)")
}

/// The stages as the run plays them: each written stage over the top-level
/// settings; without any, the top level alone, open-ended.
fn check_stages(c: &Checker, raw: &RawConfig) -> Result<Vec<Stage>, ConfigError> {
    let top = Stage {
        generations: None,
        search: raw.search,
        games_per_candidate: raw.games_per_candidate,
        validation_games: raw.validation_games,
    };
    let mut stages = Vec::with_capacity(raw.stages.len().max(1));
    for (i, s) in raw.stages.iter().enumerate() {
        let field = |f: &str| format!("stages[{i}].{f}");
        let last = i + 1 == raw.stages.len();
        c.check(
            last || s.generations.is_some(),
            &field("generations"),
            || "is required for every stage but the last".into(),
        )?;
        c.positive(s.generations, &field("generations"), "")?;
        let stage = Stage {
            generations: s.generations,
            search: s.search.unwrap_or(top.search),
            games_per_candidate: s.games_per_candidate.unwrap_or(top.games_per_candidate),
            validation_games: s.validation_games.unwrap_or(top.validation_games),
        };
        if let Depth::Fixed(d) = stage.search.depth {
            c.check(d <= MAX_DEPTH, &field("search.depth"), || {
                format!("{d} is deeper than the maximum {MAX_DEPTH}")
            })?;
        }
        let cutoff = stage.search.prob_cutoff;
        c.check(
            cutoff > 0.0 && cutoff < 1.0,
            &field("search.prob_cutoff"),
            || format!("{cutoff} is outside (0, 1)"),
        )?;
        c.positive(
            Some(stage.games_per_candidate),
            &field("games_per_candidate"),
            "",
        )?;
        if let Some(r) = raw.race {
            c.check(
                r.max_games >= stage.games_per_candidate,
                "race.max_games",
                || format!("{} is below stages[{i}].games_per_candidate", r.max_games),
            )?;
        }
        if raw.reselect.is_some() {
            c.check(
                stage.validation_games > 0,
                &field("validation_games"),
                || "reselection ranks generations by validation: keep it above 0".into(),
            )?;
        }
        stages.push(stage);
    }
    if stages.is_empty() {
        stages.push(top);
    }
    Ok(stages)
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
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
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
