//! One test per parser or protocol reader, fed in-process. Each check says
//! what a good answer is: a value, or an error whose text names where the
//! input is wrong (a line, a field, a protocol line).

use std::io::Cursor;
use std::sync::OnceLock;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use tune2048::adversarial::player::Player;
use tune2048::adversarial::protocol::{parse_action, Message};
use tune2048::adversarial::protocol_player::ProtocolPlayer;
use tune2048::adversarial::rules::{Action, AdversarialPosition, Rules, Side};
use tune2048::adversarial::search::Limits;
use tune2048::bank::Bank;
use tune2048::engine::{Board, Direction};
use tune2048::heuristic::{Heuristic, Weights};
use tune2048::interact::{legal_answer, parse_word, play_judge, JudgeWord, Pace, PlayOptions};
use tune2048::place::rules::{value, MAX_SIDE, MIN_SIDE};
use tune2048::place::transcript;
use tune2048::player::external::protocol as external;
use tune2048::search::{Depth, Settings};
use tune2048::tune::journal::{self, Record, Scored};

use super::mutate::below;
use super::{files, inputs, lines_of, read_all, run, Scratch, Target};
use crate::util::repo_path;

/// Whether `text` holds `prefix` followed by a digit (`file:12`, `line 3`).
fn names_number_after(text: &str, prefix: &str) -> bool {
    text.match_indices(prefix).any(|(i, _)| {
        text[i + prefix.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

/// A whole protocol session's result: fine, or an error naming its line.
fn names_the_protocol_line<T, E: std::fmt::Display>(result: Result<T, E>) -> Result<(), String> {
    match result {
        Ok(_) => Ok(()),
        Err(e) => {
            let message = format!("{e:#}");
            require(
                names_number_after(&message, "protocol line "),
                "the protocol line",
                &message,
            )
        }
    }
}

/// Fails unless `ok`, showing the error text.
fn require(ok: bool, what: &str, message: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("the error does not name {what}: {message}"))
    }
}

/// The lines of every shipped file the targets read, for splices between files.
fn shipped_lines() -> &'static [Vec<u8>] {
    static LINES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut paths = files("configs", ".ron", true);
        paths.extend(files("runs/curated", ".ron", true));
        paths.extend(files("runs/curated", ".jsonl", true));
        paths.extend(files("banks", ".csv", false));
        paths.extend(files("tests/data", ".txt", false));
        let mut lines = lines_of(&read_all(&paths));
        lines.retain(|l| l.len() < 4096);
        lines
    })
}

/// Donor lines: the target's own corpus and every shipped file.
fn donors(corpus: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut all = lines_of(corpus);
    all.extend_from_slice(shipped_lines());
    all
}

/// Each target's share of a long run's inputs (`TUNE2048_FUZZ_INPUTS`): more
/// for the fast line readers, less for those that read a file or play games.
const SHARES: &[(&str, f64)] = &[
    ("configs", 0.06),
    ("weights", 0.10),
    ("networks", 0.01),
    ("packed_networks", 0.01),
    ("settings", 0.02),
    ("banks", 0.03),
    ("journals", 0.03),
    ("transcripts", 0.13),
    ("maxtile", 0.08),
    ("interact-words", 0.13),
    ("interact-games", 0.001),
    ("judge-answers", 0.13),
    ("gpcc-lines", 0.13),
    ("gpcc-games", 0.001),
    ("external-lines", 0.138),
];

#[test]
fn the_shares_make_the_whole_long_run() {
    let total: f64 = SHARES.iter().map(|(_, s)| s).sum();
    assert!((total - 1.0).abs() < 1e-9, "the shares add up to {total}");
}

/// A target of `short` inputs in a plain `cargo test`, its share of a long run.
fn target(name: &'static str, corpus: Vec<Vec<u8>>, short: u64) -> Target {
    let share = SHARES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| panic!("{name} has no share"), |(_, s)| *s);
    Target {
        name,
        donors: donors(&corpus),
        corpus,
        inputs: inputs(share, short),
        hang_limit: super::HANG_LIMIT,
    }
}

/// Pieces of `text` of `lines` lines each (from the first), each behind
/// `head` (a header every piece needs).
fn pieces(text: &[u8], head: &[u8], lines: usize) -> Vec<Vec<u8>> {
    let all: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    all.chunks(lines)
        .take(20)
        .map(|chunk| {
            let mut piece = head.to_vec();
            chunk.iter().for_each(|l| piece.extend_from_slice(l));
            piece
        })
        .collect()
}

#[test]
fn configs() {
    let mut paths = files("configs", ".ron", false);
    paths.extend(files("configs/external", ".ron", false));
    paths.extend(
        files("runs/curated", "config.ron", true)
            .into_iter()
            .take(12),
    );
    // The config stands in configs/, so relative weights and banks resolve.
    let anchor = repo_path("configs/fuzz.ron");
    let folder = Scratch::new("configs");
    run(target("configs", read_all(&paths), 300), move |input| {
        let Ok(text) = std::str::from_utf8(input) else {
            // Bytes that are not text are refused by the loader, before
            // any parse (so before any player could start).
            let path = folder.file("fuzz.ron");
            std::fs::write(&path, input).map_err(|e| e.to_string())?;
            let message = match tune2048::tune::config::load(&path) {
                Ok(_) => return Err("a file that is not UTF-8 was accepted".into()),
                Err(e) => e.to_string(),
            };
            return require(
                names_number_after(&message, "fuzz.ron:"),
                "a line",
                &message,
            );
        };
        // The recorded form: validated like a new config, but an external
        // player is not started (its command may be any text here).
        let Err(e) = tune2048::tune::config::parse_recorded(text, &anchor) else {
            return Ok(());
        };
        let message = e.to_string();
        require(message.contains("fuzz.ron"), "the file", &message)?;
        require(
            names_number_after(&message, "fuzz.ron:") || message.contains("field `"),
            "a line or a field",
            &message,
        )
    });
}

#[test]
fn weights() {
    let mut paths = files("configs/weights", ".ron", false);
    paths.extend(files("runs/curated", "best.ron", true));
    paths.extend(files("runs/curated", "base.ron", true));
    let mut corpus = read_all(&paths);
    corpus.push(Weights::nneonneo().to_ron().into_bytes());
    let folder = Scratch::new("weights");
    run(target("weights", corpus, 3000), move |input| {
        // Text in memory; bytes that are not text through the loader.
        let parsed = match std::str::from_utf8(input) {
            Ok(text) => Weights::from_ron(text, "w.ron"),
            Err(_) => {
                let path = folder.file("w.ron");
                std::fs::write(&path, input).map_err(|e| e.to_string())?;
                Weights::load(&path)
            }
        };
        match parsed {
            Ok(w) => {
                // What was accepted writes back to the same weights.
                let again = Weights::from_ron(&w.to_ron(), "again.ron")
                    .map_err(|e| format!("accepted weights do not read back: {e}"))?;
                require(again == w, "(no error) a round trip", "weights changed")
            }
            Err(e) => {
                let message = e.to_string();
                require(
                    names_number_after(&message, "w.ron:") || message.contains("field `"),
                    "a line or a field",
                    &message,
                )
            }
        }
    });
}

#[test]
fn settings() {
    let mut paths = files("runs/curated", "settings.ron", true);
    paths.extend(files("runs/curated/interact/clock-ramp", ".ron", false));
    paths.extend(files("runs/curated/interact/clock-spend", ".ron", false));
    let mut corpus = read_all(&paths);
    corpus.push(Settings::default().to_ron().into_bytes());
    let folder = Scratch::new("settings");
    run(target("settings", corpus, 1500), move |input| {
        // Text in memory; bytes that are not text through the loader.
        let parsed = match std::str::from_utf8(input) {
            Ok(text) => Settings::from_ron(text, "s.ron"),
            Err(_) => {
                let path = folder.file("s.ron");
                std::fs::write(&path, input).map_err(|e| e.to_string())?;
                Settings::load(&path)
            }
        };
        match parsed {
            Ok(s) => {
                // What was accepted writes back to the same settings.
                let again = Settings::from_ron(&s.to_ron(), "again.ron")
                    .map_err(|e| format!("accepted settings do not read back: {e}"))?;
                require(again == s, "(no error) a round trip", "settings changed")
            }
            Err(e) => {
                let message = e.to_string();
                require(
                    names_number_after(&message, "s.ron:") || message.contains("setting `"),
                    "a line or a setting",
                    &message,
                )
            }
        }
    });
}

#[test]
fn networks() {
    use tune2048::engine::Variant;
    use tune2048::network::Network;
    // Small networks with some weights set: the header and the weights
    // both get mutated.
    let mut corpus = Vec::new();
    for (tuples, variant) in [
        (vec![vec![0, 1]], Variant::CLASSIC),
        (vec![vec![0, 1, 2], vec![5, 6]], Variant::Twos),
    ] {
        let mut net = Network::new(tuples, variant, 3, 0.1).unwrap();
        net.adjust(
            Board::from_ranks([1, 2, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 5, 0, 0, 1]),
            0.5,
        );
        corpus.push(net.to_bytes());
    }
    run(
        target("networks", corpus, 1500),
        move |input| match Network::from_bytes(input) {
            Ok(net) => require(
                net.to_bytes() == input,
                "(no error) the same bytes written back",
                "an accepted file writes back differently",
            ),
            Err(message) => require(
                ["line ", "header", "hash", "bytes of weights", "weight "]
                    .iter()
                    .any(|w| message.contains(w)),
                "a line, the header, the hash or the weights",
                &message,
            ),
        },
    );
}

#[test]
fn packed_networks() {
    use tune2048::engine::Variant;
    use tune2048::network::{pack, Network, Plan};
    // Each input gets its hash made right before it is read, so that the
    // mutations reach the packed fields and the compressed weights rather
    // than stop at the hash.
    let mut corpus = Vec::new();
    for (tuples, step) in [
        (vec![vec![0, 1]], 0.25),
        (vec![vec![0, 1, 2], vec![5, 6]], 1.0),
    ] {
        let mut net = Network::new(tuples, Variant::CLASSIC, 3, 0.1).unwrap();
        for (ranks, by) in [
            ([1, 2, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 5, 0, 0, 1], 7.5),
            ([0, 0, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0], -3.0),
        ] {
            net.adjust(Board::from_ranks(ranks), by);
        }
        corpus.push(pack(&net, Plan::step(step), 0x1234).unwrap().0);
    }
    run(target("packed_networks", corpus, 1500), move |input| {
        let mut bytes = input.to_vec();
        if let Some(split) = bytes.len().checked_sub(8) {
            let hash = tune2048::fnv::hash(&bytes[..split]);
            bytes[split..].copy_from_slice(&hash.to_le_bytes());
        }
        match Network::read(&bytes) {
            Ok((net, Some(packing))) => {
                // Packed again, it reads back as the same network.
                let again = pack(
                    &net,
                    Plan {
                        drop: packing.drop,
                        ..Plan::step(packing.step)
                    },
                    packing.source,
                )
                .and_then(|(b, _)| Network::from_bytes(&b));
                require(
                    again.as_ref() == Ok(&net),
                    "(no error) the same network packed again",
                    &format!("packed again: {again:?}"),
                )
            }
            Ok((net, None)) => require(
                net.to_bytes() == bytes,
                "(no error) the same bytes written back",
                "an accepted file writes back differently",
            ),
            Err(message) => require(
                [
                    "line ",
                    "header",
                    "hash",
                    "bytes",
                    "weight",
                    "gap ",
                    "inflate",
                    "cut short",
                ]
                .iter()
                .any(|w| message.contains(w)),
                "a line, the header, the hash or the weights",
                &message,
            ),
        }
    });
}

#[test]
fn banks() {
    let shipped = read_all(&files("banks", ".csv", false));
    let mut corpus = shipped.clone();
    for bank in &shipped {
        corpus.extend(pieces(bank, b"", 12));
    }
    let folder = Scratch::new("banks");
    run(target("banks", corpus, 400), move |input| {
        let path = folder.file("b.csv");
        std::fs::write(&path, input).map_err(|e| e.to_string())?;
        // Through the loader, as a config's `bank.file` is read.
        let Err(e) = Bank::load(&path) else {
            return Ok(());
        };
        let message = e.to_string();
        require(names_number_after(&message, "b.csv:"), "a line", &message)?;
        require(message.contains("field `"), "a field", &message)
    });
}

/// Journal lines of every kind, as the writer makes them.
fn generated_journal() -> Vec<u8> {
    let params: std::collections::BTreeMap<String, f64> =
        [("empty".to_string(), 270.5), ("sum".to_string(), -0.0)].into();
    let scored = Scored {
        x: vec![0.5, -1.25],
        params: params.clone(),
        fitness: 1234.5,
        fitness_ci95: [1200.0, 1269.0],
        mean_score: 20000.0,
        games: 100,
    };
    let records = [
        Record::Baseline {
            fitness: 1.0,
            mean_score: 2.0,
            games: 3,
        },
        Record::Eval {
            generation: 1,
            index: 0,
            x: vec![0.1, f64::MIN_POSITIVE],
            params,
            fitness: 5.0,
            penalty: 0.0,
            mean_score: 6.0,
            games: 7,
            first: 8,
            values: vec![1.0, 2.0],
        },
        Record::Validation {
            generation: 1,
            scored: scored.clone(),
        },
        Record::Generation {
            generation: 1,
            sigma: 0.5,
            best: 1.0,
            median: 0.5,
            mean: 0.25,
            evaluations: 10,
            games: u64::MAX,
            elapsed_s: 1e300,
        },
        Record::Reselect {
            label: "generation 1".into(),
            generation: 1,
            scored,
        },
        Record::Restart {
            generation: 2,
            restart: 1,
            population: 20,
        },
    ];
    let mut text = String::new();
    for r in &records {
        text.push_str(&serde_json::to_string(r).expect("records serialize"));
        text.push('\n');
    }
    text.into_bytes()
}

#[test]
fn journals() {
    let shipped = read_all(&files("runs/curated", ".jsonl", true));
    let mut corpus = vec![generated_journal()];
    for journal in &shipped {
        corpus.extend(pieces(journal, b"", 8));
    }
    let folder = Scratch::new("journals");
    run(target("journals", corpus, 400), move |input| {
        let path = folder.file("journal.jsonl");
        std::fs::write(&path, input).map_err(|e| e.to_string())?;
        // The one reader never fails on content: it sorts every line into
        // records, bad lines (each named by its number) and a torn last line.
        let contents = journal::read(&path).map_err(|e| e.to_string())?;
        let lines = input.split(|&b| b == b'\n').count();
        require(
            contents.valid_len <= input.len() as u64
                && (contents.valid_len == 0 || input[contents.valid_len as usize - 1] == b'\n'),
            "a valid prefix that ends a line",
            &contents.valid_len.to_string(),
        )?;
        require(
            contents
                .bad
                .iter()
                .all(|bad| bad.line >= 1 && bad.line <= lines),
            "bad lines named by a line of the file",
            &format!("{:?}", contents.bad.first()),
        )?;
        // Replaying refuses exactly the journals with a bad line, naming it.
        match journal::read_for_replay(&path) {
            Ok((records, valid)) => require(
                contents.bad.is_empty()
                    && records == contents.records
                    && valid == contents.valid_len,
                "(no error) the same records as the reader",
                &records.len().to_string(),
            ),
            Err(e) => require(
                !contents.bad.is_empty() && names_number_after(&e.to_string(), "journal.jsonl:"),
                "a line",
                &e.to_string(),
            ),
        }
    });
}

#[test]
fn transcripts() {
    let mut corpus = read_all(&[repo_path("tests/data/place-3x3-512.txt")]);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    for n in MIN_SIDE..=MAX_SIDE.min(5) {
        let turns: Vec<(usize, Direction)> = (0..1 + below(&mut rng, 30))
            .map(|_| (below(&mut rng, n * n), Direction::ALL[below(&mut rng, 4)]))
            .collect();
        corpus.push(transcript::write(n, &turns, 1 << (1 + below(&mut rng, 8))).into_bytes());
    }
    run(target("transcripts", corpus, 3000), |input| {
        let text = String::from_utf8_lossy(input);
        let parsed = match transcript::parse(&text) {
            Ok(t) => t,
            Err(e) => {
                let message = e.to_string();
                return require(names_number_after(&message, "line "), "a line", &message);
            }
        };
        // Replayed on every size `place --verify` takes, as far as it goes.
        let n = MIN_SIDE + input.len() % (MAX_SIDE - MIN_SIDE + 1);
        match transcript::replay(&parsed, n, value(1 + (input.len() % 9) as u8)) {
            Ok(_) => Ok(()),
            Err(e) => {
                let message = e.to_string();
                require(names_number_after(&message, "line "), "a line", &message)
            }
        }
    });
}

#[test]
fn maxtile_inputs() {
    // Each golden case without its `= ANSWER` line.
    let golden = std::fs::read_to_string(repo_path("tests/data/boj12100-cases.txt")).unwrap();
    let mut corpus = Vec::new();
    let mut case = String::new();
    for line in golden.lines().filter(|l| !l.starts_with('#')) {
        if line.starts_with('=') {
            corpus.push(std::mem::take(&mut case).into_bytes());
        } else {
            case.push_str(line);
            case.push('\n');
        }
    }
    run(target("maxtile", corpus, 1500), |input| {
        let text = String::from_utf8_lossy(input);
        match tune2048::maxtile::parse_input(&text) {
            // The problem's five moves, as `maxtile` plays them.
            Ok(grid) => {
                let best = tune2048::maxtile::max_tile(&grid, 5);
                require(
                    best >= grid.max_tile(),
                    "(no error) a best tile no smaller than the start's",
                    &best.to_string(),
                )
            }
            Err(
                e @ (tune2048::maxtile::MaxtileError::Empty
                | tune2048::maxtile::MaxtileError::NoTile),
            ) => {
                // About the whole input, which is where the fault is.
                require(!e.to_string().is_empty(), "anything", "")
            }
            Err(e) => {
                let message = e.to_string();
                require(names_number_after(&message, "line "), "a line", &message)
            }
        }
    });
}

/// BOJ 28489 sessions: distinct cells, then `-1`.
pub fn interact_sessions(count: usize) -> Vec<Vec<u8>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(28489);
    let mut corpus = vec![b"10\n4\n6\n15\n8\n-1\n3\n".to_vec()];
    for _ in 0..count {
        let mut cells: Vec<usize> = (1..=16).collect();
        for i in (1..16).rev() {
            cells.swap(i, below(&mut rng, i + 1));
        }
        let take = 1 + below(&mut rng, 16);
        let mut text: String = cells[..take].iter().map(|c| format!("{c}\n")).collect();
        if rng.next_u32() % 4 != 0 {
            text.push_str("-1\n");
        }
        corpus.push(text.into_bytes());
    }
    corpus
}

#[test]
fn interact_words() {
    run(
        target("interact-words", interact_sessions(16), 3000),
        |input| {
            let text = String::from_utf8_lossy(input);
            for (i, line) in text.lines().enumerate() {
                let number = i + 1;
                for word in line.split_whitespace() {
                    match parse_word(word, number) {
                        Ok(JudgeWord::Cell(c)) if c >= 16 => {
                            return Err(format!("cell {c} accepted from `{word}`"))
                        }
                        Ok(_) => {}
                        Err(message) => require(
                            message.starts_with(&format!("protocol line {number}: ")),
                            "the protocol line",
                            &message,
                        )?,
                    }
                }
            }
            Ok(())
        },
    );
}

#[test]
fn interact_games() {
    let weights = Weights::load(&repo_path("configs/weights/interact.ron")).unwrap();
    let heuristic = Heuristic::new(&weights);
    let settings = Settings::default();
    // A per-move node budget: answers depend on the input alone, and fast.
    let options = PlayOptions {
        depth: Depth::Fixed(2),
        pace: Pace::Nodes(64),
        trace: None,
    };
    run(
        target("interact-games", interact_sessions(16), 60),
        move |input| {
            let mut answers = Vec::new();
            names_the_protocol_line(play_judge(
                Cursor::new(input),
                &mut answers,
                &heuristic,
                &settings,
                &options,
            ))
        },
    );
}

#[test]
fn judge_answers() {
    let corpus: Vec<Vec<u8>> = [
        "UP\n",
        "DOWN\n",
        "LEFT\n",
        "RIGHT\n",
        "up\nleft\n",
        "RIGHT\r\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    let boards = [
        Board::from_values([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap(),
        Board::from_values([2, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]).unwrap(),
        Board::from_values([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 0]).unwrap(),
    ];
    run(target("judge-answers", corpus, 3000), move |input| {
        let text = String::from_utf8_lossy(input);
        let board = boards[input.len() % boards.len()];
        for (i, answer) in text.lines().enumerate() {
            let number = i as u32 + 1;
            if let Err(message) = legal_answer(board, answer, number) {
                require(
                    message.starts_with(&format!("answer {number}: ")),
                    "the answer's number",
                    &message,
                )?;
            }
        }
        Ok(())
    });
}

/// GPCC sessions played out with our own player answering, so that every
/// line after the set-up is legal: the referee's side of real games.
pub fn gpcc_sessions() -> Vec<Vec<u8>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2015);
    let mut sessions = vec![
        b"rules gpcc2015\nrole attacker\nboard 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
score 0\ngo\nend\nrules gpcc2016\nrole defender\nboard 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
score 0\nplace 16 4\nend\n"
            .to_vec(),
    ];
    for k in 0..6 {
        let rules = [Rules::Gpcc2015, Rules::Gpcc2016][k % 2];
        let ours = [Side::Attacker, Side::Defender][k / 2 % 2];
        let mut player = ProtocolPlayer::new(Player::builtin("eval1").unwrap(), Limits::plies(1));
        let mut text = String::new();
        let mut send = |line: String, text: &mut String| {
            text.push_str(&line);
            text.push('\n');
            player.handle(&line).expect("a legal session")
        };
        let mut pos = AdversarialPosition::START;
        for line in [
            format!("rules {}", rules.name()),
            format!("role {}", ours.name()),
            Message::Board(pos.board).to_string(),
            "score 0".to_string(),
        ] {
            send(line, &mut text);
        }
        let mut actions = Vec::new();
        let mut last: Option<Action> = None;
        for _ in 0..40 {
            if pos.is_over() {
                break;
            }
            if pos.to_move == ours {
                let line = match last {
                    None => "go".to_string(),
                    Some(a) => Message::Action(a).to_string(),
                };
                let answer = send(line, &mut text).expect("our turn gets an answer");
                let action = parse_action(&answer).expect("our answers parse");
                pos = pos.play(rules, action).expect("our answers are legal");
            } else {
                pos.actions(rules, &mut actions);
                let a = actions[below(&mut rng, actions.len())];
                pos = pos.play(rules, a).unwrap();
                last = Some(a);
            }
        }
        text.push_str("end\n");
        sessions.push(text.into_bytes());
    }
    sessions
}

#[test]
fn gpcc_lines() {
    run(target("gpcc-lines", gpcc_sessions(), 3000), |input| {
        let text = String::from_utf8_lossy(input);
        for line in text.lines() {
            match Message::parse(line) {
                // What was read writes back to the same message.
                Ok(m) => require(
                    Message::parse(&m.to_string()) == Ok(m),
                    "(no error) a round trip",
                    &format!("`{line}` -> `{m}`"),
                )?,
                Err(why) => require(!why.is_empty(), "why", "")?,
            }
            if let Err(why) = parse_action(line) {
                require(!why.is_empty(), "why", "")?;
            }
        }
        Ok(())
    });
}

#[test]
fn gpcc_games() {
    let player = Player::builtin("eval1").unwrap();
    run(target("gpcc-games", gpcc_sessions(), 60), move |input| {
        let mut answers = Vec::new();
        let served = tune2048::adversarial::protocol_player::serve(
            ProtocolPlayer::new(player.clone(), Limits::plies(1)),
            Cursor::new(input),
            &mut answers,
        );
        names_the_protocol_line(served)
    });
}

#[test]
fn external_player_lines() {
    let corpus: Vec<Vec<u8>> = [
        "param lost_penalty 200000\nparam empty 270.0\nparam sum_power 3.5\nready\n",
        "ready\n",
        "move U\nmove D\nmove L\nmove R\n",
        "version 2\nmoves U D L\nmoves R\nmoves\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    run(target("external-lines", corpus, 3000), |input| {
        let text = String::from_utf8_lossy(input);
        for line in text.lines() {
            match external::parse_handshake(line) {
                Ok(external::Handshake::Param { name, default }) => {
                    require(default.is_finite(), "(no error) a finite default", line)?;
                    require(
                        external::check_name(&name).is_ok(),
                        "(no error) a good name",
                        line,
                    )?;
                }
                Ok(external::Handshake::Ready) => {}
                Ok(external::Handshake::Version(v)) => {
                    require(v == 1 || v == 2, "(no error) version 1 or 2", line)?;
                }
                Err(why) => require(!why.is_empty(), "why", "")?,
            }
            if let Err(why) = external::parse_move(line) {
                require(!why.is_empty(), "why", "")?;
            }
            for n in [0, 1, 3] {
                match external::parse_moves(line, n) {
                    Ok(moves) => require(moves.len() == n, "(no error) one move a board", line)?,
                    Err((at, why)) => {
                        require(!why.is_empty(), "why", "")?;
                        require(at.is_none_or(|i| i < n), "a board of the line", line)?;
                    }
                }
            }
        }
        Ok(())
    });
}
