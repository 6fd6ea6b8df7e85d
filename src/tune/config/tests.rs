//! Tests of config parsing: each error names its file and line or field.

use super::locate::locate;
use super::validate::edit_distance;
use super::*;
use crate::adversarial::duel::Opponent;
use crate::heuristic::{Weights, PARAM_NAMES};

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
    assert_eq!(c.variant, Game::Solo(Variant::Classic { p4: 0.1 }));
    assert_eq!(c.search.depth, Depth::Fixed(1));
    assert_eq!(c.params.len(), 2);
    assert_eq!(c.params[0].name, "empty");
    assert_eq!(c.params[1].init, 700.0, "init defaults to the base weights");
    assert_eq!(c.population(), 4 + 2, "4 + floor(3 ln 2)");
    assert_eq!(c.stop.generations, Some(5));
    assert_eq!(c.move_limit, Some(5000), "implicit Some");
    assert_eq!(c.restarts.unwrap().max_restarts, 2);
    assert_eq!(c.base.weights(), Some(&Weights::nneonneo()));
    assert!(c.base_weights_path.unwrap().is_absolute());
    assert_eq!(c.source_text, VALID);
}

#[test]
fn weights_with_sets_tuned_terms_within_bounds() {
    let c = parse(VALID, &config_path()).unwrap();
    assert_eq!(c.initial_player().weights(), Some(&Weights::nneonneo()));
    let p = c.player_with(&[-5.0, 1234.5]);
    let w = p.weights().unwrap();
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
fn reselect_is_checked() {
    let restarts = "restarts: Some((max_restarts: 2, population_factor: 2.0)),";
    let with = |reselect: &str, validation: &str| {
        let text = VALID
            .replacen(
                restarts,
                &format!("{restarts}\n    reselect: {reselect},"),
                1,
            )
            .replacen("validation_games: 0", validation, 1);
        parse(&text, &config_path())
    };
    let ok = with("Some((top: 3, games: 40))", "validation_games: 20").unwrap();
    assert_eq!(ok.reselect, Some(Reselect { top: 3, games: 40 }));
    assert_eq!(parse(VALID, &config_path()).unwrap().reselect, None);
    for (reselect, validation, field) in [
        (
            "Some((top: 3, games: 40))",
            "validation_games: 0",
            "reselect",
        ),
        (
            "Some((top: 0, games: 40))",
            "validation_games: 20",
            "reselect.top",
        ),
        (
            "Some((top: 2, games: 0))",
            "validation_games: 20",
            "reselect.games",
        ),
    ] {
        let err = with(reselect, validation).unwrap_err();
        assert_eq!(err.field(), Some(field), "{err}");
        assert!(err.to_string().contains(":19:"), "{err}");
    }
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
            if let Some(weights_path) = &config.base_weights_path {
                assert_eq!(
                    config.base.weights(),
                    Some(&Weights::load(weights_path).unwrap()),
                    "{}",
                    path.display()
                );
            } else {
                // The one network job: the shipped classic network's settings.
                assert_eq!(
                    config.base.describe(),
                    format!("network {}", dir.join("networks/six.ntp").display())
                );
            }
            names.push(config.name);
        }
    }
    names.sort();
    assert_eq!(
        names,
        [
            "classic",
            "classic-d1-crowding",
            "classic-d1-snake",
            "classic-d1-terms",
            "classic-d2",
            "classic-d2-corner",
            "classic-d3",
            "classic-d3-corner",
            "classic-d3-ordered",
            "classic-network",
            "gpcc-attacker",
            "gpcc-defender",
            "interact",
            "interact-clock",
            "quick",
            "smoke",
            "twos"
        ]
    );
    // The Python example's job starts its player to read what it declares.
    let python =
        load(&dir.join("external/python-player.ron")).unwrap_or_else(|e| panic!("{}", chain(&e)));
    assert_eq!(python.declared.len(), 7);
    assert!(python.base.weights().is_none());
}

#[test]
fn default_ron_is_the_serious_classic_job() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let c = load(&dir.join("default.ron")).unwrap();
    assert_eq!(c.variant, Game::Solo(Variant::Classic { p4: 0.1 }));
    assert_eq!(c.search.depth, Depth::Fixed(1));
    assert_eq!(
        (c.games_per_candidate, c.validation_games, c.final_games),
        (1000, 1000, 2000)
    );
    assert_eq!(c.stop.generations, Some(40));
    let names: Vec<_> = c.params.iter().map(|p| p.name.as_str()).collect();
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
        "reselect",
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
    assert_eq!(
        load(&dir.join("twos.ron")).unwrap().variant,
        Game::Solo(Variant::Twos)
    );
}

#[test]
fn shipped_weights_files_load_and_the_baseline_is_the_reference() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/weights");
    let text = std::fs::read_to_string(dir.join("nneonneo.ron")).unwrap();
    assert_eq!(text, Weights::nneonneo().to_ron());
    // The default set is the best general one: the depth-2 winner (level with
    // the depth-1 winner at depth 2, 1.16x it at depth 3; see
    // docs/src/results/index.md).
    assert_eq!(
        Weights::load(&dir.join("default.ron")).unwrap(),
        Weights::load(&dir.join("classic-d2.ron")).unwrap()
    );
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        Weights::load(&path).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn stages_inherit_the_top_level_and_need_their_lengths() {
    let staged = VALID.replace(
        "seed: 3,",
        "seed: 3, stages: [(generations: Some(5)), (search: Some((depth: Fixed(2), prob_cutoff: 1e-4)), games_per_candidate: Some(50))],",
    );
    let c = parse(&staged, &config_path()).unwrap();
    assert_eq!(c.stages.len(), 2);
    assert_eq!(c.stages[0].generations, Some(5));
    assert_eq!(c.stages[0].search, c.search);
    assert_eq!(c.stages[1].generations, None);
    assert_eq!(c.stages[1].search.depth, Depth::Fixed(2));
    assert_eq!(c.stages[1].games_per_candidate, 50);
    assert_eq!(c.stages[1].validation_games, c.validation_games);
    assert_eq!(c.last_stage(), &c.stages[1]);
    let plain = parse(VALID, &config_path()).unwrap();
    assert_eq!(plain.stages.len(), 1);
    assert_eq!(
        plain.stages[0].games_per_candidate,
        plain.games_per_candidate
    );
    let open_first = VALID.replace("seed: 3,", "seed: 3, stages: [(), (generations: Some(3))],");
    let err = parse(&open_first, &config_path()).unwrap_err();
    assert_eq!(err.field(), Some("stages[0].generations"), "{err}");
    let too_deep = VALID.replace(
        "seed: 3,",
        "seed: 3, stages: [(search: Some((depth: Fixed(12), prob_cutoff: 1e-4)))],",
    );
    let err = parse(&too_deep, &config_path()).unwrap_err();
    assert_eq!(err.field(), Some("stages[0].search.depth"), "{err}");
}

#[test]
fn a_comparison_of_one_game_is_refused_where_it_would_give_an_interval() {
    for (from, to, field) in [
        (
            "validation_games: 0,",
            "validation_games: 1,",
            "validation_games",
        ),
        ("final_games: 0,", "final_games: 1,", "final_games"),
        (
            "seed: 3,",
            "seed: 3, stages: [(validation_games: Some(1))],",
            "stages[0].validation_games",
        ),
        (
            "validation_games: 0,",
            "validation_games: 4, reselect: Some((top: 3, games: 1)),",
            "reselect.games",
        ),
    ] {
        let err = parse_with(from, to).unwrap_err();
        assert_eq!(err.field(), Some(field), "{err}");
        assert!(
            chain(&err).contains("1 game gives no confidence interval"),
            "{err}"
        );
    }
    // Two games give one, and 0 still turns either off.
    for (from, to) in [
        ("validation_games: 0,", "validation_games: 2,"),
        ("final_games: 0,", "final_games: 2,"),
    ] {
        parse_with(from, to).unwrap_or_else(|e| panic!("{from} -> {to}: {e}"));
    }
}

#[test]
fn a_node_budget_is_optional_and_positive() {
    let budget = VALID.replace(
        "prob_cutoff: 1e-4)",
        "prob_cutoff: 1e-4, nodes: Some(50000))",
    );
    let c = parse(&budget, &config_path()).unwrap();
    assert_eq!(c.search.nodes, Some(50_000));
    assert_eq!(parse(VALID, &config_path()).unwrap().search.nodes, None);
    let zero = VALID.replace("prob_cutoff: 1e-4)", "prob_cutoff: 1e-4, nodes: Some(0))");
    let err = parse(&zero, &config_path()).unwrap_err();
    assert_eq!(err.field(), Some("search.nodes"), "{err}");
}

/// VALID with a bank line added.
fn with_bank(bank: &str) -> Result<TuneConfig, ConfigError> {
    parse_with(
        "    move_limit: 5000,\n",
        &format!("    move_limit: 5000,\n    bank: {bank},\n"),
    )
}

#[test]
fn a_bank_gives_its_stage_s_positions_and_records_its_hash() {
    let c = with_bank(r#"(file: "../banks/d2-default.csv", stage: "8192")"#).unwrap();
    let bank = c.bank.clone().unwrap();
    assert_eq!(bank.stage, "8192");
    assert!(!bank.starts.is_empty());
    assert!(bank.starts.iter().all(|s| s.board.max_rank() == 13));
    let text = c.to_ron();
    let hash = crate::bank::HashText(bank.hash).to_string();
    assert!(text.contains(&format!("hash: Some(\"{hash}\")")), "{text}");
    let back = parse(&text, Path::new("/elsewhere/config.ron")).unwrap();
    assert_eq!(back.bank, c.bank);
    // A run folder's config points at its own copy.
    let folder = c.to_ron_in_folder(Path::new("base.ron"), Path::new("bank.csv"), |i| {
        format!("opponent-{i}.ron")
    });
    assert!(folder.contains("file: \"bank.csv\""), "{folder}");
}

#[test]
fn bank_errors_name_their_field() {
    let wrong =
        r#"(file: "../banks/d2-default.csv", stage: "8192", hash: Some("0123456789abcdef"))"#;
    let err = chain(&with_bank(wrong).unwrap_err());
    assert!(err.contains("field `bank.hash`"), "{err}");
    assert!(err.contains("changed since the run started"), "{err}");
    assert!(err.contains("0123456789abcdef"), "{err}");
    let err = chain(&with_bank(r#"(file: "../banks/d2-default.csv", stage: "1024")"#).unwrap_err());
    assert!(err.contains("field `bank.stage`"), "{err}");
    assert!(err.contains("its stages: 4096 ("), "{err}");
    let err = chain(&with_bank(r#"(file: "../banks/d2-default.csv", stage: "big")"#).unwrap_err());
    assert!(
        err.contains("field `bank.stage`: `big` is not a stage"),
        "{err}"
    );
    let err = chain(&with_bank(r#"(file: "no-such-bank.csv", stage: "8192")"#).unwrap_err());
    assert!(
        err.contains("field `bank.file`: cannot load the bank"),
        "{err}"
    );
    assert!(err.contains("no-such-bank.csv"), "{err}");
    let err = chain(&with_bank(r#"(file: "weights/nneonneo.ron", stage: "8192")"#).unwrap_err());
    assert!(err.contains("nneonneo.ron:1: field `header`"), "{err}");
    let err = chain(&parse_with("objective: MeanScore", "objective: ReachNext").unwrap_err());
    assert!(err.contains("field `objective`: ReachNext"), "{err}");
    let c = parse_with("objective: MeanScore", "objective: MeanGain").unwrap();
    assert_eq!(c.objective, Objective::MeanGain);
}

/// [`VALID`] as a Gpcc defender job (and without its move limit).
fn gpcc(role: &str, objective: &str, opponents: &str, depth: &str) -> String {
    VALID
        .replacen(
            "variant: Classic(p4: 0.1),",
            &format!(
                "variant: Gpcc(\n        rules: Gpcc2016,\n        role: {role},\n        opponents: {opponents},\n    ),"
            ),
            1,
        )
        .replacen(
            "search: (depth: Fixed(1), prob_cutoff: 1e-4),",
            &format!("search: (depth: {depth}),"),
            1,
        )
        .replacen("objective: MeanScore,", &format!("objective: {objective},"), 1)
        .replacen("    move_limit: 5000,\n", "", 1)
}

#[test]
fn gpcc_jobs_load_their_opponents_and_play_duels() {
    let text = gpcc(
        "Attacker",
        "ScoreAllowed",
        r#"["eval2", "weights/nneonneo.ron"]"#,
        "Fixed(5)",
    );
    let c = parse(&text, &config_path()).unwrap();
    let Game::Gpcc(duel) = &c.variant else {
        panic!("a Gpcc job: {:?}", c.variant)
    };
    assert_eq!(
        (duel.rules, duel.role),
        (
            crate::adversarial::Rules::Gpcc2016,
            crate::adversarial::Side::Attacker
        )
    );
    assert_eq!(duel.opening_turns, DEFAULT_OPENING_TURNS);
    assert_eq!(duel.opponents[0], Opponent::Builtin("eval2".into()));
    assert!(
        matches!(&duel.opponents[1], Opponent::Weights { weights, .. } if **weights == Weights::nneonneo())
    );
    assert_eq!(c.search.prob_cutoff, DEFAULT_PROB_CUTOFF);
    let crate::evaluation::Spec::Duel(spec) = super::super::scoring::game_spec(&c, &c.search)
    else {
        panic!("duels")
    };
    assert_eq!((spec.plies, spec.nodes), (5, None));
    // The resolved config names the opponent's file by its full path and
    // parses back to the same job from anywhere.
    let again = parse(&c.to_ron(), Path::new("/elsewhere/config.ron")).unwrap();
    assert_eq!(again.variant, c.variant);
}

#[test]
fn gpcc_errors_name_the_field_and_its_line() {
    let path = file();
    let bad = |text: String| chain(&parse(&text, &config_path()).expect_err("rejected"));
    let missing = bad(gpcc(
        "Defender",
        "MeanScore",
        r#"["eval2", "nope.ron"]"#,
        "Fixed(3)",
    ));
    assert!(
        missing.starts_with(&format!("{path}:7:"))
            && missing.contains("variant.opponents[1]")
            && missing.contains("nope.ron"),
        "{missing}"
    );
    // (role, objective, opponents, depth): what the message must name.
    for (role, objective, opponents, depth, names) in [
        (
            "Defender",
            "MeanScore",
            "[]",
            "Fixed(3)",
            ["`variant.opponents`", "at least one"],
        ),
        (
            "Attacker",
            "MeanScore",
            r#"["eval2"]"#,
            "Fixed(3)",
            ["`objective`", "ScoreAllowed"],
        ),
        (
            "Defender",
            "ScoreAllowed",
            r#"["eval2"]"#,
            "Fixed(3)",
            ["`objective`", "MeanScore"],
        ),
        (
            "Defender",
            "MeanScore",
            r#"["eval2"]"#,
            "Auto",
            ["`search.depth`", "plies"],
        ),
        (
            "Defender",
            "MeanScore",
            r#"["eval2"]"#,
            "Fixed(0)",
            ["`search.depth`", "plies"],
        ),
    ] {
        let e = bad(gpcc(role, objective, opponents, depth));
        assert!(names.iter().all(|n| e.contains(n)), "{e}");
    }
    let solo = error_with("objective: MeanScore,", "objective: ScoreAllowed,");
    assert!(
        solo.contains("`objective`") && solo.contains("Gpcc"),
        "{solo}"
    );
    let with_limit = gpcc("Defender", "MeanScore", r#"["eval2"]"#, "Fixed(3)").replacen(
        "seed: 3,",
        "seed: 3,\n    move_limit: 100,",
        1,
    );
    assert!(bad(with_limit).contains("`move_limit`"));
}

#[test]
fn search_settings_are_parameters_with_kinds_checked_by_name() {
    const MERGES: &str = r#"(name: "merges", min: 0.0, max: 3000.0, scale: 200.0),"#;
    let c = parse_with(
        MERGES,
        r#"(name: "prob_cutoff", min: 1e-6, max: 1e-2, scale: 4.0, kind: Log),
        (name: "auto_offset", min: 0.0, max: 6.0, scale: 1.0, kind: Integer),"#,
    )
    .unwrap();
    assert_eq!(c.params[1].kind, Kind::Log);
    assert_eq!(
        c.params[1].init, 1e-4,
        "init defaults to the default setting"
    );
    assert_eq!(c.params[2].init, 2.0);
    // Log: one unit multiplies by the scale; Integer rounds; both clamp.
    assert_eq!(c.params[1].decode(1.0).0, 4e-4);
    assert_eq!(
        c.params[1].decode(10.0),
        (1e-2, (4f64.powi(10) * 1e-4 / 1e-2).ln() / 4f64.ln())
    );
    assert_eq!(c.params[2].decode(0.6).0, 3.0);
    let p = c.player_with(&[300.0, 1e-3, 4.0]);
    assert_eq!(p.get("prob_cutoff"), Some(1e-3));
    assert_eq!(p.get("auto_offset"), Some(4.0));

    let err = error_with(
        MERGES,
        r#"(name: "prob_cutof", min: 1e-6, max: 1e-2, scale: 4.0),"#,
    );
    assert!(err.contains("did you mean `prob_cutoff`?"), "{err}");
    let err = error_with(
        MERGES,
        r#"(name: "prob_cutoff", min: 0.0, max: 1e-2, scale: 4.0, kind: Log),"#,
    );
    assert!(
        err.contains("params[1].min") && err.contains("above 0"),
        "{err}"
    );
    let err = error_with(
        MERGES,
        r#"(name: "prob_cutoff", min: 1e-6, max: 1e-2, scale: 0.5, kind: Log),"#,
    );
    assert!(
        err.contains("params[1].scale") && err.contains("above 1"),
        "{err}"
    );
    let err = error_with(
        MERGES,
        r#"(name: "auto_offset", min: 0.0, max: 6.0, scale: 1.0),"#,
    );
    assert!(
        err.contains("params[1].kind") && err.contains("kind: Integer"),
        "{err}"
    );
    let err = error_with(
        MERGES,
        r#"(name: "auto_offset", min: 0.5, max: 6.0, scale: 1.0, kind: Integer),"#,
    );
    assert!(err.contains("params[1].min"), "{err}");
    let err = error_with(
        MERGES,
        r#"(name: "prob_cutoff", min: 1e-6, max: 2.0, scale: 4.0, kind: Log),"#,
    );
    assert!(
        err.contains("params[1].max") && err.contains("0 <= p < 1"),
        "{err}"
    );
}

#[test]
fn a_game_clock_and_an_external_player_are_checked_before_anything_runs() {
    const SEARCH: &str = "search: (depth: Fixed(1), prob_cutoff: 1e-4),";
    let c = parse_with(
        SEARCH,
        "search: (depth: Fixed(3), clock: (game_nodes: 1000000, nodes_per_ms: 100.0)),",
    )
    .unwrap();
    assert_eq!(c.search.clock.unwrap().game_nodes, 1_000_000);
    let err = error_with(
        SEARCH,
        "search: (depth: Fixed(3), nodes: 10, clock: (game_nodes: 10, nodes_per_ms: 1.0)),",
    );
    assert!(
        err.contains("search.clock") && err.contains("place of `nodes`"),
        "{err}"
    );
    let err = error_with(
        SEARCH,
        "search: (depth: Fixed(3), clock: (game_nodes: 10, nodes_per_ms: 0.0)),",
    );
    assert!(err.contains("search.clock.nodes_per_ms"), "{err}");
    // An external player with base weights, or one that cannot start.
    let err = error_with(
        SEARCH,
        r#"search: (depth: Fixed(1)), player: External(command: ["true"]),"#,
    );
    assert!(
        err.contains("field `base_weights`") && err.contains("leave"),
        "{err}"
    );
    let no_base = VALID.replace(r#"    base_weights: "weights/nneonneo.ron","#, "");
    let text = no_base.replace(
        SEARCH,
        r#"search: (depth: Fixed(1)), player: External(command: ["/nonexistent/player"]),"#,
    );
    let err = chain(&parse(&text, &config_path()).unwrap_err());
    assert!(
        err.contains("field `player`") && err.contains("cannot start it"),
        "{err}"
    );
}
