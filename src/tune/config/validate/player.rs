//! The config's player and what it tunes: the base player (the built-in one
//! with its base weights, or an external program after its handshake) and
//! each tuned parameter checked against what that player has.

use std::path::{Path, PathBuf};

use super::{resolve_relative, unknown_param_message, Checker};
use crate::engine::Variant;
use crate::heuristic::{Weights, PARAM_NAMES};
use crate::player::external::{
    describe, Declared, Program, DEFAULT_DECISION_SECS, DEFAULT_HANDSHAKE_SECS,
};
use crate::player::{builtin_names, NetworkFile};
use crate::search::Settings;
use crate::tune::config::{ConfigError, Game, Kind, Param, RawConfig, RawParam, RawPlayer};

/// The job's base player, validated.
pub(super) struct Base {
    pub(super) player: crate::player::Player,
    /// The built-in player's weights file (absolute when it could be made so).
    pub(super) weights_path: Option<PathBuf>,
    /// What an external player declared.
    pub(super) declared: Vec<Declared>,
    /// The player as the resolved config writes it (paths made absolute).
    pub(super) raw: RawPlayer,
}

/// The base player: the built-in one with the base weights and the
/// search's cutoff, or an external program after its handshake.
pub(super) fn check_player(c: &Checker, raw: &RawConfig, game: &Game) -> Result<Base, ConfigError> {
    match &raw.player {
        RawPlayer::Builtin => {
            let (path, weights) = load_base(c, &raw.base_weights)?;
            let settings = Settings {
                prob_cutoff: raw.search.prob_cutoff,
                ..Settings::default()
            };
            Ok(Base {
                player: crate::player::Player::Builtin { weights, settings },
                weights_path: Some(path),
                declared: Vec::new(),
                raw: RawPlayer::Builtin,
            })
        }
        RawPlayer::Network { file, hash } => check_network(c, raw, game, file, hash.as_deref()),
        RawPlayer::External {
            command,
            decision_secs,
            handshake_secs,
            lockstep,
        } => {
            let base = check_external(c, raw, game, command, *decision_secs, *handshake_secs)?;
            with_lockstep(c, base, *lockstep)
        }
    }
}

/// A network player: the search with the config's cutoff scoring leaves
/// with the network `file`, which must be of the job's game and, where the
/// run recorded its hash, the same network.
fn check_network(
    c: &Checker,
    raw: &RawConfig,
    game: &Game,
    file: &str,
    want: Option<&str>,
) -> Result<Base, ConfigError> {
    c.check(raw.base_weights.is_empty(), "base_weights", || {
        "a network player has no base weights (its network is its base): leave \
         `base_weights` out"
            .into()
    })?;
    let Game::Solo(variant) = game else {
        return Err(c.invalid(
            "player",
            "a network plays the classic game and twos, not Gpcc duels",
        ));
    };
    let path = resolve_relative(c.path, file);
    let network = NetworkFile::load(&path).map_err(|e| c.invalid("player.file", e.to_string()))?;
    let learned = network.network().trained.variant;
    c.check(learned.name() == variant.name(), "player.file", || {
        format!(
            "{} learned the {} game; the job plays {}",
            path.display(),
            learned.name(),
            variant.name()
        )
    })?;
    if let Some(want) = want {
        let want = u64::from_str_radix(want, 16)
            .map_err(|_| c.invalid("player.hash", format!("`{want}` is not 16 hex digits")))?;
        c.check(want == network.hash(), "player.hash", || {
            format!(
                "{} changed since the run started: its hash is {:016x}, the run recorded \
                 {want:016x}. A run replays its games with the network it started with: \
                 restore that file, or start a new run",
                path.display(),
                network.hash()
            )
        })?;
    }
    let settings = Settings {
        prob_cutoff: raw.search.prob_cutoff,
        ..Settings::default()
    };
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let hash = format!("{:016x}", network.hash());
    Ok(Base {
        player: crate::player::Player::Network { network, settings },
        weights_path: None,
        declared: Vec::new(),
        raw: RawPlayer::Network {
            file: path.display().to_string(),
            hash: Some(hash),
        },
    })
}

/// An external player's `lockstep`, checked and set on its program.
fn with_lockstep(
    c: &Checker,
    mut base: Base,
    lockstep: Option<usize>,
) -> Result<Base, ConfigError> {
    let max = crate::player::external::MAX_BATCH;
    let k = lockstep.unwrap_or(crate::player::external::DEFAULT_LOCKSTEP);
    c.check((1..=max).contains(&k), "player.lockstep", || {
        format!("must be 1 to {max}, not {k}")
    })?;
    if let crate::player::Player::External { program, .. } = &mut base.player {
        program.lockstep = k;
    }
    if let RawPlayer::External { lockstep: raw, .. } = &mut base.raw {
        *raw = lockstep;
    }
    Ok(base)
}

/// An external player's part of the config: its command, time limits and
/// the game it plays, and the parameters it declares.
fn check_external(
    c: &Checker,
    raw: &RawConfig,
    game: &Game,
    command: &[String],
    decision_secs: Option<f64>,
    handshake_secs: Option<f64>,
) -> Result<Base, ConfigError> {
    c.check(raw.base_weights.is_empty(), "base_weights", || {
        "an external player has no base weights (its declared defaults are its base): \
         leave `base_weights` out"
            .into()
    })?;
    c.check(matches!(game, Game::Solo(_)), "player", || {
        "external players play the classic game and twos, not Gpcc duels".into()
    })?;
    if let Game::Solo(Variant::Classic { p4 }) = game {
        c.check(*p4 == Variant::CLASSIC.p4(), "variant.p4", || {
            format!("an external player plays the classic game with p4 0.1, not {p4}")
        })?;
    }
    c.check(!command.is_empty(), "player.command", || {
        "must name the program to run".into()
    })?;
    let secs = decision_secs.unwrap_or(DEFAULT_DECISION_SECS);
    let hello = handshake_secs.unwrap_or(DEFAULT_HANDSHAKE_SECS);
    for (s, field) in [
        (secs, "player.decision_secs"),
        (hello, "player.handshake_secs"),
    ] {
        c.check(s.is_finite() && s > 0.0 && s <= 1e6, field, || {
            format!("{s} must be a positive number of seconds")
        })?;
    }
    for (unset, field) in [
        (raw.search.nodes.is_none(), "search.nodes"),
        (raw.search.clock.is_none(), "search.clock"),
    ] {
        c.check(unset, field, || {
            "an external player does its own search: leave it out".into()
        })?;
    }
    let command: Vec<String> = command
        .iter()
        .map(|word| resolve_word(c.path, word))
        .collect();
    let program = Program {
        command: command.clone(),
        decision_secs: secs,
        handshake_secs: hello,
        lockstep: crate::player::external::DEFAULT_LOCKSTEP,
    };
    let declared = declared_params(c, raw, &program)?;
    Ok(Base {
        player: crate::player::Player::External {
            program,
            values: Default::default(),
        },
        weights_path: None,
        declared,
        raw: RawPlayer::External {
            command,
            decision_secs: Some(secs),
            handshake_secs: Some(hello),
            lockstep: None,
        },
    })
}

/// The parameters `program` declares: asked of it when the checker starts
/// players, else read from the config's own `params` (their starts as defaults).
fn declared_params(
    c: &Checker,
    raw: &RawConfig,
    program: &Program,
) -> Result<Vec<Declared>, ConfigError> {
    if c.start_players {
        return describe(program).map_err(|e| ConfigError::Player {
            at: c.at("player"),
            source: e,
        });
    }
    Ok(raw
        .params
        .iter()
        .map(|p| Declared {
            name: p.name.clone(),
            default: p.init.unwrap_or(p.min),
        })
        .collect())
}

/// A word of an external player's command, made absolute when it names a
/// file beside the config or in the current directory (so that a run
/// folder's config starts the same program from anywhere).
fn resolve_word(config: &Path, word: &str) -> String {
    if word.is_empty() || word.starts_with('-') || Path::new(word).is_absolute() {
        return word.to_string();
    }
    let path = resolve_relative(config, word);
    match std::fs::canonicalize(&path) {
        Ok(abs) if path.is_file() => abs.display().to_string(),
        _ => word.to_string(),
    }
}

/// The base weights and where they were found (absolute when it could be made so).
fn load_base(c: &Checker, file: &str) -> Result<(PathBuf, Weights), ConfigError> {
    c.check(!file.is_empty(), "base_weights", || {
        "must name a weights file (the built-in player's base)".into()
    })?;
    let path = resolve_relative(c.path, file);
    let weights = Weights::load(&path).map_err(|source| ConfigError::BaseWeights {
        at: c.at("base_weights"),
        source: Box::new(source),
    })?;
    Ok((std::fs::canonicalize(&path).unwrap_or(path), weights))
}

pub(super) fn check_params(
    c: &Checker,
    raw: &[RawParam],
    base: &Base,
    game: &Game,
) -> Result<Vec<Param>, ConfigError> {
    c.check(!raw.is_empty(), "params", || {
        "at least one param must be tuned".into()
    })?;
    let mut params: Vec<Param> = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let param = check_param(c, i, p, base, game)?;
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

/// One tuned parameter: a name the player has, finite bounds and scale
/// that suit its kind, and an `init` (given, or the base's value) within
/// the bounds.
fn check_param(
    c: &Checker,
    i: usize,
    raw: &RawParam,
    base: &Base,
    game: &Game,
) -> Result<Param, ConfigError> {
    let field = |f: &str| format!("params[{i}].{f}");
    let default = base_value(c, &field("name"), raw, base, game)?;
    check_bounds(c, &field, raw, base)?;
    let init = check_init(c, &field, raw, default)?;
    Ok(Param {
        name: raw.name.clone(),
        init,
        min: raw.min,
        max: raw.max,
        scale: raw.scale,
        kind: raw.kind,
    })
}

/// The base player's value of the parameter `raw` names, refused (at
/// `name_field`) when the player has no such parameter.
fn base_value(
    c: &Checker,
    name_field: &str,
    raw: &RawParam,
    base: &Base,
    game: &Game,
) -> Result<f64, ConfigError> {
    Ok(match &base.player {
        crate::player::Player::Builtin { .. } => {
            let known: Vec<&str> = builtin_names().collect();
            if !known.contains(&raw.name.as_str()) {
                return Err(c.invalid(name_field, unknown_param_message(&raw.name, &known)));
            }
            if matches!(game, Game::Gpcc(_)) {
                c.check(PARAM_NAMES.contains(&raw.name.as_str()), name_field, || {
                    format!(
                        "`{}` is an expectimax setting; a Gpcc job tunes weights only",
                        raw.name
                    )
                })?;
            }
            base.player.get(&raw.name).expect("a known name")
        }
        crate::player::Player::Network { .. } => {
            let known = crate::search::SETTING_NAMES;
            if !known.contains(&raw.name.as_str()) {
                return Err(c.invalid(name_field, unknown_param_message(&raw.name, &known)));
            }
            base.player.get(&raw.name).expect("a setting")
        }
        crate::player::Player::External { program, .. } => {
            let Some(d) = base.declared.iter().find(|d| d.name == raw.name) else {
                let known: Vec<&str> = base.declared.iter().map(|d| d.name.as_str()).collect();
                let message = if known.is_empty() {
                    format!(
                        "`{}` declares no parameters, so nothing can be tuned",
                        program.name()
                    )
                } else {
                    unknown_param_message(&raw.name, &known)
                };
                return Err(c.invalid(name_field, message));
            };
            d.default
        }
    })
}

/// Finite bounds and scale, in order, that suit the parameter's kind and,
/// for a search setting of the built-in player, the setting's range.
fn check_bounds(
    c: &Checker,
    field: &dyn Fn(&str) -> String,
    raw: &RawParam,
    base: &Base,
) -> Result<(), ConfigError> {
    for (value, f) in [(raw.min, "min"), (raw.max, "max"), (raw.scale, "scale")] {
        c.finite(value, &field(f))?;
    }
    c.check(raw.min < raw.max, &field("min"), || {
        format!("min ({}) must be below max ({})", raw.min, raw.max)
    })?;
    c.check(raw.scale > 0.0, &field("scale"), || {
        format!("{} must be positive", raw.scale)
    })?;
    check_kind(c, field, raw)?;
    if let Some((must, ok)) = Settings::range(&raw.name) {
        if !matches!(base.player, crate::player::Player::External { .. }) {
            for (value, f) in [(raw.min, "min"), (raw.max, "max")] {
                c.check(ok(value), &field(f), || {
                    format!("`{}` must be {must}; {f} {value} is not", raw.name)
                })?;
            }
            if must.starts_with("an integer") {
                c.check(raw.kind == Kind::Integer, &field("kind"), || {
                    format!("`{}` is an integer: write `kind: Integer`", raw.name)
                })?;
            }
        }
    }
    Ok(())
}

/// Bounds and scale that suit the parameter's kind.
fn check_kind(
    c: &Checker,
    field: &dyn Fn(&str) -> String,
    raw: &RawParam,
) -> Result<(), ConfigError> {
    match raw.kind {
        Kind::Real => {}
        Kind::Log => {
            c.check(raw.min > 0.0, &field("min"), || {
                format!(
                    "a Log parameter's values are positive: min {} must be above 0",
                    raw.min
                )
            })?;
            c.check(raw.scale > 1.0, &field("scale"), || {
                format!(
                    "a Log parameter's scale is the factor of one unit: {} must be above 1",
                    raw.scale
                )
            })?;
        }
        Kind::Integer => {
            for (value, f) in [(raw.min, "min"), (raw.max, "max")] {
                c.check(value.fract() == 0.0, &field(f), || {
                    format!("an Integer parameter's bounds are integers, not {value}")
                })?;
            }
        }
    }
    Ok(())
}

/// The parameter's start: its `init`, or else the base's value `default`,
/// within the bounds (and an integer for an Integer parameter).
fn check_init(
    c: &Checker,
    field: &dyn Fn(&str) -> String,
    raw: &RawParam,
    default: f64,
) -> Result<f64, ConfigError> {
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
            c.check(within(default), &field("name"), || {
                format!(
                    "no init given, and the base's value {default} is outside [min, max] = [{}, {}]",
                    raw.min, raw.max
                )
            })?;
            default
        }
    };
    if raw.kind == Kind::Integer {
        c.check(init.fract() == 0.0, &field("init"), || {
            format!("an Integer parameter starts at an integer, not {init}")
        })?;
    }
    Ok(init)
}
