//! Stage two of reading a config: every range and cross-field rule, the base
//! weights loaded, the typed [`TuneConfig`] built. Errors name the field path
//! and, where the scanner finds it, its line and column.

mod player;

use std::path::{Path, PathBuf};

use super::locate::locate;
use super::{
    default_population, BankStarts, ConfigError, Depth, Duel, Game, Location, Objective, RawBank,
    RawConfig, RawParam, RawVariant, SearchConfig, StopRules, TuneConfig, TuneStage, MAX_DEPTH,
};
use crate::adversarial::duel::Opponent;
use crate::adversarial::player::{Player as GpccPlayer, BUILTIN};
use crate::adversarial::search::MAX_PLIES;
use crate::adversarial::Side;
use crate::bank::{record, Bank, HashText};
use crate::engine::Variant;
use crate::heuristic::Weights;
use crate::search::Settings;
use player::{check_params, check_player};

/// Collects the context a validation error needs.
struct Checker<'a> {
    text: &'a str,
    path: &'a Path,
    /// Start an external player to read its declarations (else the
    /// config's params stand for them).
    start_players: bool,
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
        self.validate_with(text, path, true)
    }

    /// [`RawConfig::validate`], starting an external player to read its
    /// declarations only when `start_players`.
    pub fn validate_with(
        self,
        text: &str,
        path: &Path,
        start_players: bool,
    ) -> Result<TuneConfig, ConfigError> {
        let c = Checker {
            text,
            path,
            start_players,
        };
        check_name(&c, &self.name)?;
        let variant = check_variant(&c, &self.variant)?;
        check_search(&c, &self.search, "search", &variant)?;
        let base = check_player(&c, &self, &variant)?;
        let params = check_params(&c, &self.params, &base, &variant)?;
        let bank = check_bank(&c, self.bank.as_ref(), &variant)?;
        check_objective(&c, self.objective, bank.is_some())?;
        match &variant {
            Game::Gpcc(duel) => check_duel_job(&c, duel, &self)?,
            Game::Solo(_) => c.check(
                self.objective != Objective::ScoreAllowed,
                "objective",
                || {
                    "ScoreAllowed scores an attacker: it needs a Gpcc variant with role Attacker"
                        .into()
                },
            )?,
        }
        check_budget(&c, &self)?;
        check_stop(&c, &self.stop)?;
        check_extras(&c, &self)?;
        let stages = check_stages(&c, &self, &variant)?;
        let resolved = self.resolved(&variant, &base, &params, bank.as_ref());
        Ok(TuneConfig {
            path: path.to_path_buf(),
            name: self.name,
            variant,
            search: self.search,
            base_weights_path: base.weights_path,
            base: base.player,
            declared: base.declared,
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

    /// The config as the run folder records it: the variant resolved, the
    /// player's and the files' paths made absolute, every param's `init`
    /// and the population written out, and the bank's hash.
    fn resolved(
        &self,
        variant: &Game,
        base: &player::Base,
        params: &[super::Param],
        bank: Option<&BankStarts>,
    ) -> RawConfig {
        RawConfig {
            variant: resolved_variant(&self.variant, variant),
            player: base.raw.clone(),
            base_weights: base
                .weights_path
                .as_ref()
                .map_or_else(String::new, |p| p.display().to_string()),
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
            bank: bank.map(|b| RawBank {
                file: b.path.display().to_string(),
                stage: b.stage.clone(),
                hash: Some(HashText(b.hash).to_string()),
                other_variant: self.bank.as_ref().is_some_and(|raw| raw.other_variant),
            }),
            ..self.clone()
        }
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

fn check_variant(c: &Checker, variant: &RawVariant) -> Result<Game, ConfigError> {
    Ok(match variant {
        &RawVariant::Classic { p4 } => {
            c.check((0.0..=1.0).contains(&p4), "variant.p4", || {
                format!("{p4} is outside [0, 1]")
            })?;
            Game::Solo(Variant::Classic { p4 })
        }
        RawVariant::Twos => Game::Solo(Variant::Twos),
        RawVariant::Gpcc {
            rules,
            role,
            opponents,
            opening_turns,
        } => {
            c.check(!opponents.is_empty(), "variant.opponents", || {
                "name at least one opponent".into()
            })?;
            c.check(
                *opening_turns <= MAX_OPENING_TURNS,
                "variant.opening_turns",
                || format!("{opening_turns} is above the maximum {MAX_OPENING_TURNS}"),
            )?;
            let opponents = opponents
                .iter()
                .enumerate()
                .map(|(i, spec)| load_opponent(c, i, spec))
                .collect::<Result<_, _>>()?;
            Game::Gpcc(Duel {
                rules: *rules,
                role: *role,
                opponents,
                opening_turns: *opening_turns,
            })
        }
    })
}

/// Random turns an opening may have at most: enough for any variety.
const MAX_OPENING_TURNS: u32 = 64;

/// Opponent `i`: a built-in name, else a weights file looked up as
/// `base_weights` is.
fn load_opponent(c: &Checker, i: usize, spec: &str) -> Result<Opponent, ConfigError> {
    if GpccPlayer::builtin(spec).is_some() {
        return Ok(Opponent::Builtin(spec.to_string()));
    }
    let field = format!("variant.opponents[{i}]");
    c.check(!spec.is_empty(), &field, || {
        format!(
            "must be a built-in player ({}) or a weights file",
            BUILTIN.join(", ")
        )
    })?;
    let path = resolve_relative(c.path, spec);
    let weights = Weights::load(&path).map_err(|source| ConfigError::Opponent {
        at: c.at(&field),
        field: field.clone(),
        source: Box::new(source),
    })?;
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    Ok(Opponent::Weights {
        name: path.display().to_string(),
        weights: Box::new(weights),
    })
}

/// The variant as a run folder's config writes it: weights opponents by
/// the paths they were found at, so that it parses from any directory.
fn resolved_variant(raw: &RawVariant, game: &Game) -> RawVariant {
    match (raw, game) {
        (RawVariant::Gpcc { .. }, Game::Gpcc(duel)) => RawVariant::Gpcc {
            rules: duel.rules,
            role: duel.role,
            opponents: duel
                .opponents
                .iter()
                .map(|o| o.name().to_string())
                .collect(),
            opening_turns: duel.opening_turns,
        },
        _ => raw.clone(),
    }
}

/// The search settings at `field` (`search`, `stages[1].search`): a depth
/// within the game's search's range, a cutoff in (0, 1), a positive budget.
fn check_search(
    c: &Checker,
    search: &SearchConfig,
    field: &str,
    game: &Game,
) -> Result<(), ConfigError> {
    let f = |sub: &str| format!("{field}.{sub}");
    match (game, search.depth) {
        (Game::Solo(_), Depth::Fixed(d)) => c.check(d <= MAX_DEPTH, &f("depth"), || {
            format!("{d} is deeper than the maximum {MAX_DEPTH}")
        })?,
        (Game::Solo(_), Depth::Auto) => {}
        (Game::Gpcc(_), Depth::Fixed(p)) => {
            c.check((1..=MAX_PLIES).contains(&p), &f("depth"), || {
                format!("{p} plies is outside 1..={MAX_PLIES} (a Gpcc search's depth is in plies)")
            })?
        }
        (Game::Gpcc(_), Depth::Auto) => {
            return Err(c.invalid(
                &f("depth"),
                "a Gpcc search needs Fixed(plies); set `nodes` for a budget",
            ))
        }
    }
    if let Some(Err(why)) = Settings::check("prob_cutoff", search.prob_cutoff) {
        return Err(c.invalid(&f("prob_cutoff"), why));
    }
    c.positive(search.nodes, &f("nodes"), " (or None for no budget)")?;
    if let Some(clock) = search.clock {
        c.check(matches!(game, Game::Solo(_)), &f("clock"), || {
            "a game clock is for expectimax games, not Gpcc duels".into()
        })?;
        c.check(search.nodes.is_none(), &f("clock"), || {
            "a game clock takes the place of `nodes`: give one of them".into()
        })?;
        c.check(clock.game_nodes > 0, &f("clock.game_nodes"), || {
            "must be positive".into()
        })?;
        let rate = clock.nodes_per_ms;
        c.check(
            rate.is_finite() && rate > 0.0,
            &f("clock.nodes_per_ms"),
            || format!("{rate} must be a positive number"),
        )?;
    }
    Ok(())
}

/// What a `Gpcc` job may not combine: its objective must fit its role, and
/// it has no bank positions or move limit.
fn check_duel_job(c: &Checker, duel: &Duel, raw: &RawConfig) -> Result<(), ConfigError> {
    match duel.role {
        Side::Attacker => c.check(
            raw.objective == Objective::ScoreAllowed,
            "objective",
            || "an attacker is scored by the defender totals it allows: use ScoreAllowed".into(),
        )?,
        Side::Defender => c.check(
            !matches!(
                raw.objective,
                Objective::ScoreAllowed | Objective::MeanGain | Objective::ReachNext
            ),
            "objective",
            || {
                "a defender is scored by its own games: use MeanScore, MeanLog2MaxTile, \
                 Reach or ScoreQuantile"
                    .into()
            },
        )?,
    }
    c.check(raw.bank.is_none(), "bank", || {
        "Gpcc games start from openings, not bank positions: leave `bank` out".into()
    })?;
    c.check(raw.move_limit.is_none(), "move_limit", || {
        "Gpcc games are played to their end: leave `move_limit` out".into()
    })
}

/// The bank's file loaded, its stage's positions taken, and its hash
/// checked against the one the config records (a run folder's config).
fn check_bank(
    c: &Checker,
    raw: Option<&RawBank>,
    variant: &Game,
) -> Result<Option<BankStarts>, ConfigError> {
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
    if let (Game::Solo(variant), false) = (variant, raw.other_variant) {
        bank.check_variant(&path, *variant).map_err(|e| {
            c.invalid(
                "bank.file",
                format!("{e}; `other_variant: true` in `bank` starts the run's games there all the same"),
            )
        })?;
    }
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
        Objective::MeanScore
        | Objective::MeanLog2MaxTile
        | Objective::MeanGain
        | Objective::ScoreAllowed => Ok(()),
    }
}

/// Why a comparison may not rest on one game: its interval would be a
/// point, with nothing to say how far the mean may be from it.
fn one_game() -> String {
    "1 game gives no confidence interval: 0 (off) or at least 2".into()
}

/// Games per candidate, population, step size, and the games of the
/// validations and the final comparison.
fn check_budget(c: &Checker, raw: &RawConfig) -> Result<(), ConfigError> {
    c.positive(Some(raw.games_per_candidate), "games_per_candidate", "")?;
    if let Some(p) = raw.population {
        c.check(p >= 2, "population", || {
            format!("{p} is below the minimum 2")
        })?;
    }
    for (games, field) in [
        (raw.validation_games, "validation_games"),
        (raw.final_games, "final_games"),
    ] {
        c.check(games != 1, field, one_game)?;
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
        c.check(r.games != 1, "reselect.games", one_game)?;
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
fn check_stages(c: &Checker, raw: &RawConfig, game: &Game) -> Result<Vec<TuneStage>, ConfigError> {
    let top = TuneStage {
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
        let stage = TuneStage {
            generations: s.generations,
            search: s.search.unwrap_or(top.search),
            games_per_candidate: s.games_per_candidate.unwrap_or(top.games_per_candidate),
            validation_games: s.validation_games.unwrap_or(top.validation_games),
        };
        check_search(c, &stage.search, &field("search"), game)?;
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
        c.check(
            stage.validation_games != 1,
            &field("validation_games"),
            one_game,
        )?;
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

/// "unknown parameter" with the closest of the `known` names, or all of them.
fn unknown_param_message(name: &str, known: &[&str]) -> String {
    let closest = known
        .iter()
        .map(|&n| (edit_distance(name, n), n))
        .min()
        .filter(|&(d, _)| d <= 2.max(name.len() / 3));
    match closest {
        Some((_, n)) => format!("unknown parameter `{name}`; did you mean `{n}`?"),
        None => format!(
            "unknown parameter `{name}`; valid names: {}",
            known.join(", ")
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
