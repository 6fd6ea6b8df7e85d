//! Tuples as data: the cells each weight table reads, and the named tuple
//! sets `learn` offers.
//!
//! A tuple is a list of cells (0..16, row by row from the top left), in
//! ascending order. Its table holds one weight per way of filling those
//! cells with ranks: 16^n entries for n cells.

/// The most cells a tuple may have (a 16^7 table is 1 GiB of weights).
pub const MAX_TUPLE_CELLS: usize = 6;

/// The most tuples a network may have.
pub const MAX_TUPLES: usize = 16;

/// The names [`named_tuples`] knows.
pub const TUPLE_NAMES: [&str; 4] = ["lines-squares", "five", "six", "eight"];

/// The tuples of the named networks `learn` offers (`--tuples NAME`).
pub fn named_tuples(name: &str) -> Option<Vec<Vec<u8>>> {
    let t: &[&[u8]] = match name {
        // The four lines of a board edge and its next row, and the three
        // kinds of 2×2 square (corner, edge, centre): 5 tables of 65,536.
        "lines-squares" => &[
            &[0, 1, 2, 3],
            &[4, 5, 6, 7],
            &[0, 1, 4, 5],
            &[1, 2, 5, 6],
            &[5, 6, 9, 10],
        ],
        // Two 2×3 rectangles and two 6-cell bends along an edge: 4 tables of
        // 16,777,216 (256 MiB of weights).
        "six" => &[
            &[0, 1, 2, 3, 4, 5],
            &[4, 5, 6, 7, 8, 9],
            &[0, 1, 2, 4, 5, 6],
            &[4, 5, 6, 8, 9, 10],
        ],
        // Two 5-cell bends and two 5-cell pieces of the second and third
        // rows: 4 tables of 1,048,576.
        "five" => &[
            &[0, 1, 2, 3, 4],
            &[4, 5, 6, 7, 8],
            &[0, 1, 2, 4, 5],
            &[4, 5, 6, 8, 9],
        ],
        // Eight 6-cell shapes (the set the strongest published learners
        // use): 8 tables of 16,777,216 (512 MiB of weights).
        "eight" => &[
            &[0, 1, 2, 4, 5, 6],
            &[1, 2, 5, 6, 9, 13],
            &[0, 1, 2, 3, 4, 5],
            &[0, 1, 5, 6, 7, 10],
            &[0, 1, 2, 5, 9, 10],
            &[0, 1, 5, 9, 13, 14],
            &[0, 1, 5, 8, 9, 13],
            &[0, 1, 2, 4, 6, 10],
        ],
        _ => return None,
    };
    Some(t.iter().map(|c| c.to_vec()).collect())
}

/// The tuples `text` names: a name of [`TUPLE_NAMES`], or cell lists as
/// [`parse_tuples`] reads them (text with a comma, or digits alone).
pub fn tuples_named_or_listed(text: &str) -> Result<Vec<Vec<u8>>, String> {
    match named_tuples(text) {
        Some(t) => Ok(t),
        None if text.contains(',') || text.chars().all(|c| c.is_ascii_digit()) => {
            parse_tuples(text)
        }
        None => Err(format!(
            "`{text}` is neither a name ({}) nor cell lists",
            TUPLE_NAMES.join(", ")
        )),
    }
}

/// Checks a network's tuples: 1..=[`MAX_TUPLES`] of them, each of
/// 1..=[`MAX_TUPLE_CELLS`] cells on the board, in ascending order.
pub fn check_tuples(tuples: &[Vec<u8>]) -> Result<(), String> {
    for t in tuples {
        check_tuple(t)?;
    }
    if tuples.is_empty() || tuples.len() > MAX_TUPLES {
        return Err(format!(
            "a network has 1 to {MAX_TUPLES} tuples, not {}",
            tuples.len()
        ));
    }
    Ok(())
}

/// The tuples of a network widened by `extra` (`learn --add-tuples`): its
/// own, then those added. Refused: none added, a tuple the network has
/// already (or one given twice), and a set [`check_tuples`] refuses.
pub fn widened_tuples(own: &[Vec<u8>], extra: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, String> {
    if extra.is_empty() {
        return Err("no tuples to add".into());
    }
    let mut tuples = own.to_vec();
    for t in extra {
        if tuples.contains(t) {
            return Err(format!(
                "tuple {} is in the network already",
                tuples_text(std::slice::from_ref(t))
            ));
        }
        tuples.push(t.clone());
    }
    check_tuples(&tuples)?;
    Ok(tuples)
}

/// Checks one tuple: 1..=[`MAX_TUPLE_CELLS`] cells, each on the board, no cell twice.
pub(super) fn check_tuple(cells: &[u8]) -> Result<(), String> {
    if cells.is_empty() || cells.len() > MAX_TUPLE_CELLS {
        return Err(format!(
            "a tuple has 1 to {MAX_TUPLE_CELLS} cells, not {}",
            cells.len()
        ));
    }
    for (i, &c) in cells.iter().enumerate() {
        if c >= 16 {
            return Err(format!("cell {c} is outside the board (cells are 0..16)"));
        }
        if i > 0 && cells[i - 1] >= c {
            return Err(format!(
                "cells are listed in ascending order, each once ({} then {c})",
                cells[i - 1]
            ));
        }
    }
    Ok(())
}

/// Parses tuples written as cell lists, `0,1,2,3 4,5,6,7`.
pub fn parse_tuples(text: &str) -> Result<Vec<Vec<u8>>, String> {
    let tuples = text
        .split_whitespace()
        .map(|t| {
            t.split(',')
                .map(|c| {
                    c.parse::<u8>()
                        .map_err(|_| format!("`{c}` in tuple `{t}` is not a cell number"))
                })
                .collect::<Result<Vec<u8>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    if tuples.is_empty() {
        return Err("no tuples given".into());
    }
    Ok(tuples)
}

/// Tuples as a header writes them: `0,1,2,3 4,5,6,7`.
pub(super) fn tuples_text(tuples: &[Vec<u8>]) -> String {
    tuples
        .iter()
        .map(|t| t.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join(" ")
}
