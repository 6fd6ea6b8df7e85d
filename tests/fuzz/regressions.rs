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
