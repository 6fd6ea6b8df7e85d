//! Faults the fuzzing found, each pinned by the input that showed it.

use crate::util::{bin, run_with_stdin, text, weights};

/// A line that is not UTF-8 was refused with the reader's bare "stream did
/// not contain valid UTF-8", naming no line; now the protocol line is named.
#[test]
fn a_line_that_is_not_utf8_is_named_by_both_protocol_readers() {
    let interact = run_with_stdin(
        bin().args([
            "interact",
            "--weights",
            &weights("interact.ron"),
            "--depth",
            "1",
            "--untimed",
        ]),
        b"3\n1\xff\n",
    );
    let stderr = text(&interact.stderr);
    assert_eq!(interact.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("protocol line 2: "), "{stderr}");

    let gpcc = run_with_stdin(
        bin().args(["gpcc-player", "--plies", "1"]),
        b"rules gpcc2015\nrole \xc3\n",
    );
    let stderr = text(&gpcc.stderr);
    assert_eq!(gpcc.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("protocol line 2: "), "{stderr}");
}

/// A weights, config or settings file that is not UTF-8 was refused as
/// unreadable ("cannot read the weights file"), naming no line; now it is a
/// syntax error at the line and column where the text stops being UTF-8.
#[test]
fn a_weights_or_config_file_that_is_not_utf8_names_its_line_and_column() {
    let dir = crate::util::TempDir::new("fuzz-utf8");
    let path = dir.join("w.ron");
    std::fs::write(&path, b"(\n  empty: 1.0,\n  ab\xe9: 2.0,\n)\n").unwrap();
    let weights = tune2048::heuristic::Weights::load(&path).unwrap_err();
    let message = weights.to_string();
    assert!(message.ends_with("w.ron:3:5: not UTF-8 text"), "{message}");

    let config = tune2048::tune::config::load(&path).unwrap_err();
    let message = config.to_string();
    assert!(message.ends_with("w.ron:3:5: not UTF-8 text"), "{message}");

    let settings = tune2048::search::Settings::load(&path).unwrap_err();
    let message = settings.to_string();
    assert!(message.ends_with("w.ron:3:5: not UTF-8 text"), "{message}");
    assert_eq!(
        tune2048::loader::utf8_text(b"ok\n\xc3(".to_vec()),
        Err((2, 1))
    );
}
