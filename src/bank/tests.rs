use super::record::{record, Stage};
use super::*;
use crate::engine::Variant;
use crate::evaluation::LocalEvaluator;
use crate::heuristic::{Heuristic, Weights};
use crate::search::{Depth, SearchParams};
use crate::seeds::game_seed;
use crate::selfplay::{play_one, GameSpec};

fn spec() -> GameSpec {
    GameSpec::new(
        Variant::CLASSIC,
        SearchParams::new(Depth::Fixed(0), Variant::CLASSIC),
    )
}

fn small_bank() -> Bank {
    let seeds: Vec<u64> = (0..6).map(|i| game_seed(3, i)).collect();
    let stages = [Stage::Tile(128), Stage::Every(100)];
    record(
        &LocalEvaluator::new(Some(2)).unwrap(),
        &spec(),
        &Heuristic::new(&Weights::nneonneo()),
        &seeds,
        &stages,
        &|| {},
    )
}

#[test]
fn a_bank_round_trips_through_its_file_text() {
    let bank = small_bank();
    let stages = bank.stages();
    assert!(stages.contains(&("128".to_string(), 6)), "{stages:?}");
    assert!(stages.iter().any(|(s, n)| s == "every:100" && *n > 6));
    let text = bank.to_text("made by a test\nsecond line");
    assert!(text.starts_with("# made by a test\n# second line\nstage,board,score,moves,seed\n"));
    assert_eq!(Bank::parse(&text, "t.csv").unwrap(), bank);
    assert_eq!(content_hash(text.as_bytes()), content_hash(text.as_bytes()));
    assert_ne!(
        content_hash(text.as_bytes()),
        content_hash(text.replace("every:100", "every:101").as_bytes())
    );
}

#[test]
fn saved_positions_are_those_the_games_reached() {
    let bank = small_bank();
    let h = crate::heuristic::Heuristic::new(&Weights::nneonneo());
    for p in &bank.positions {
        let whole = play_one(&spec(), &h, p.seed).record;
        assert!(p.start.moves < whole.moves && p.start.score <= whole.score);
        match p.stage.parse::<Stage>().unwrap() {
            Stage::Tile(t) => assert_eq!(crate::engine::value_of(p.start.board.max_rank()), t),
            Stage::Every(k) => assert_eq!(p.start.moves % k, 0),
        }
    }
    // Same bank on one thread.
    let seeds: Vec<u64> = (0..6).map(|i| game_seed(3, i)).collect();
    let one = record(
        &LocalEvaluator::new(Some(1)).unwrap(),
        &spec(),
        &Heuristic::new(&Weights::nneonneo()),
        &seeds,
        &[Stage::Tile(128), Stage::Every(100)],
        &|| {},
    );
    assert_eq!(one, bank);
}

#[test]
fn a_written_bank_holds_the_recorded_positions_behind_its_header() {
    use super::write::{Maker, Plan};
    let dir = std::env::temp_dir().join(format!("tune2048-bank-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("bank.csv");
    let stages = [Stage::Tile(128), Stage::Every(100)];
    let plan = Plan {
        spec: spec(),
        games: 6,
        seed: 3,
        stages: &stages,
    };
    let weights = Weights::nneonneo();
    let maker = Maker::weights(&weights, "w.ron").unwrap();
    let evaluator = LocalEvaluator::new(Some(2)).unwrap();
    let h = Heuristic::new(&weights);
    let written = plan.write(&out, &maker, &h, &evaluator, &|| {}).unwrap();
    let (bank, hash) = Bank::load(&out).unwrap();
    assert_eq!(written.hash, hash);
    assert_eq!(bank.positions, small_bank().positions);
    let counts: Vec<u64> = ["128", "every:100"]
        .iter()
        .map(|s| bank.stage(s).len() as u64)
        .collect();
    assert_eq!(written.counts, counts);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with(&format!("# {}\n", plan.made_by(&maker))),
        "{text}"
    );
    assert!(plan
        .made_by(&maker)
        .starts_with("tune2048 bank: weights w.ron; variant classic;"));
    let keys: Vec<&str> = bank.made.fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "variant",
            "p4",
            "weights_file",
            "weights",
            "search",
            "games",
            "seed",
            "stages"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn boards_are_16_hex_digits_cell_0_first() {
    let b = Board::from_ranks([1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15]);
    assert_eq!(board_hex(b), "120000000000000f");
    assert_eq!(parse_board("120000000000000F").unwrap(), b);
}

/// The error for `row` under a valid header.
fn row_error(row: &str) -> String {
    let text = format!("# comment\n{HEADER}\n8192,1200000000000000,10,5,7\n{row}\n");
    Bank::parse(&text, "b.csv").unwrap_err().to_string()
}

#[test]
fn malformed_lines_are_errors_naming_file_line_and_field() {
    let cases = [
        (
            "8192,12,10,5,7",
            "b.csv:4: field `board`: `12` is not 16 hex digits",
        ),
        ("8192,12000000000000g0,10,5,7", "field `board`"),
        (
            "8192,123456789abcdef1,10,5,7",
            "field `board`: `123456789abcdef1` has no legal move",
        ),
        (
            "8192,1200000000000000,-1,5,7",
            "b.csv:4: field `score`: `-1` is not",
        ),
        (
            "8192,1200000000000000,1,5000000000,7",
            "field `moves`: 5000000000 is too large",
        ),
        ("8192,1200000000000000,1,5,x", "field `seed`"),
        (
            "8192,1200000000000000,1,5",
            "field `row`: expected 5 fields",
        ),
        (",1200000000000000,1,5,7", "field `stage`"),
    ];
    for (row, want) in cases {
        let got = row_error(row);
        assert!(got.contains(want), "{row}: {got}");
    }
    let err = Bank::parse("# only a comment\nboard,score\n", "c.csv").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("c.csv:2: field `header`: expected `{HEADER}`, found `board,score`")
    );
    let err = Bank::parse("# nothing\n", "e.csv").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("e.csv:1: field `header`: no header"),
        "{err}"
    );
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let err = Bank::load(Path::new("no/such/bank.csv")).unwrap_err();
    assert!(err.to_string().starts_with("no/such/bank.csv:"), "{err}");
}

#[test]
fn stages_parse_and_print_their_names() {
    for name in ["4", "8192", "32768", "every:1", "every:50"] {
        assert_eq!(name.parse::<Stage>().unwrap().to_string(), name);
    }
    for bad in ["2", "3", "65536", "every:0", "every:", "every:x", "big"] {
        assert!(bad.parse::<Stage>().is_err(), "{bad}");
    }
}

#[test]
fn picks_spread_over_the_stage_s_positions() {
    let starts: Vec<Start> = (0..5)
        .map(|moves| Start {
            board: Board::EMPTY,
            score: 0,
            moves,
        })
        .collect();
    let picked: std::collections::HashSet<u32> = (0..200)
        .map(|i| pick(&starts, game_seed(9, i)).moves)
        .collect();
    assert_eq!(picked.len(), 5);
    assert_eq!(pick(&starts, 7), starts[2]);
}
