//! Stage boundaries: where a network hands a board to another set of
//! tables.
//!
//! A boundary names the largest tile a board must hold (`16384`), or its two
//! or three largest tiles (`16384+8192`: a 16384 or more, and another tile of
//! 8192 or more beside it; `16384+8192+4096`: a third of 4096 or more). The
//! boundaries of a network are nested: each asks at least as much as the one
//! before, in every tile, so a board that reaches one has reached every one
//! before it, and its stage is the number it reaches.

use crate::engine::{rank_of, value_of, Board};

/// The most stage boundaries a network may have (each stage is a full set
/// of tables).
pub const MAX_STAGE_BOUNDARIES: usize = 3;

/// Where a stage begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    /// The rank the board's largest tile reaches.
    pub top: u8,
    /// The rank its second largest tile reaches (another cell's, which may
    /// hold an equal tile); 0 asks nothing of it.
    pub second: u8,
    /// The rank its third largest tile reaches (a third cell's); 0 asks
    /// nothing of it, and it is 0 wherever `second` is.
    pub third: u8,
}

impl Boundary {
    /// The boundary at a largest tile of rank `top`.
    pub const fn tile(top: u8) -> Boundary {
        Boundary {
            top,
            second: 0,
            third: 0,
        }
    }

    /// Whether a board whose three largest tiles have ranks `ranks` (the
    /// largest first) has reached it.
    #[inline(always)]
    pub fn reached(self, ranks: (u8, u8, u8)) -> bool {
        ranks.0 >= self.top && ranks.1 >= self.second && ranks.2 >= self.third
    }

    /// Whether every board that reaches `self` reaches `before`, and some
    /// board reaches `before` but not `self`.
    fn follows(self, before: Boundary) -> bool {
        self.top >= before.top
            && self.second >= before.second
            && self.third >= before.third
            && self != before
    }
}

/// The stage `board` reaches among `stages` (0 below the first boundary).
#[inline(always)]
pub fn stage_reached(stages: &[Boundary], board: Board) -> usize {
    let Some(last) = stages.last() else {
        return 0;
    };
    // Nested boundaries: the last asks the most of the second and third
    // tiles, so the board is read no further than it needs.
    let ranks = if last.third != 0 {
        board.top_three_ranks()
    } else if last.second != 0 {
        let (top, second) = board.top_two_ranks();
        (top, second, 0)
    } else {
        (board.max_rank(), 0, 0)
    };
    stages.iter().take_while(|b| b.reached(ranks)).count()
}

/// Parses stage boundaries written as tiles, `16384`, `8192,16384`,
/// `16384,16384+8192` or `16384,16384+8192,16384+8192+4096`: at most
/// [`MAX_STAGE_BOUNDARIES`], each asking more than the one before.
pub fn parse_stages(text: &str) -> Result<Vec<Boundary>, String> {
    let stages = text
        .split(',')
        .map(|t| parse_boundary(t.trim()))
        .collect::<Result<Vec<Boundary>, String>>()?;
    if stages.len() > MAX_STAGE_BOUNDARIES {
        return Err(format!(
            "at most {MAX_STAGE_BOUNDARIES} stage boundaries, not {}",
            stages.len()
        ));
    }
    if let Some(w) = stages.windows(2).find(|w| !w[1].follows(w[0])) {
        return Err(format!(
            "each stage boundary asks more than the one before, in every tile: `{}` after `{}`",
            boundary_text(w[1]),
            boundary_text(w[0])
        ));
    }
    Ok(stages)
}

/// `16384`, `16384+8192` or `16384+8192+4096`.
fn parse_boundary(text: &str) -> Result<Boundary, String> {
    let rank = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .and_then(rank_of)
            .filter(|&r| r >= 2)
            .ok_or_else(|| format!("`{t}` is not a tile from 4 to 32768"))
    };
    let ranks = text
        .split('+')
        .map(rank)
        .collect::<Result<Vec<u8>, String>>()?;
    if ranks.len() > 3 {
        return Err(format!("`{text}`: at most three tiles"));
    }
    if ranks.windows(2).any(|w| w[1] > w[0]) {
        return Err(format!("`{text}`: the larger tile comes first"));
    }
    let at = |i: usize| ranks.get(i).copied().unwrap_or(0);
    Ok(Boundary {
        top: at(0),
        second: at(1),
        third: at(2),
    })
}

/// One boundary as a header writes it.
fn boundary_text(b: Boundary) -> String {
    [b.top, b.second, b.third]
        .into_iter()
        .filter(|&r| r != 0)
        .map(|r| value_of(r).to_string())
        .collect::<Vec<_>>()
        .join("+")
}

/// Stage boundaries as a header or a message writes them: `8192,16384`,
/// `16384,16384+8192`.
pub fn stages_text(stages: &[Boundary]) -> String {
    stages
        .iter()
        .map(|&b| boundary_text(b))
        .collect::<Vec<_>>()
        .join(",")
}

/// For a network with boundaries `old` split at `new`, the old stage each
/// new stage starts from: the one that scored its boards, which is the
/// number of old boundaries among the new ones up to it. `new` must keep
/// every old boundary and add at least one.
pub fn stage_sources(old: &[Boundary], new: &[Boundary]) -> Result<Vec<usize>, String> {
    if let Some(&lost) = old.iter().find(|b| !new.contains(b)) {
        return Err(format!(
            "the network is split already (stages at {}): a further split names each again, and \
             `{}` is missing",
            stages_text(old),
            boundary_text(lost)
        ));
    }
    if new.len() == old.len() {
        return Err(format!(
            "the network is split already (stages at {}): a further split adds a boundary",
            stages_text(old)
        ));
    }
    let mut sources = vec![0];
    for b in new {
        let last = sources[sources.len() - 1];
        sources.push(last + usize::from(old.contains(b)));
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Board;

    fn board(values: [u32; 16]) -> Board {
        Board::from_ranks(values.map(|v| if v == 0 { 0 } else { rank_of(v).unwrap() }))
    }

    #[test]
    fn a_split_starts_each_stage_from_the_one_that_scored_its_boards() {
        let stages = |t: &str| parse_stages(t).unwrap();
        assert_eq!(stage_sources(&[], &stages("16384")), Ok(vec![0, 0]));
        assert_eq!(
            stage_sources(&[], &stages("8192,16384,32768")),
            Ok(vec![0, 0, 0, 0])
        );
        let late = stages("16384");
        assert_eq!(
            stage_sources(&late, &stages("16384,16384+8192")),
            Ok(vec![0, 1, 1])
        );
        assert_eq!(
            stage_sources(&late, &stages("8192,16384")),
            Ok(vec![0, 0, 1])
        );
        assert_eq!(
            stage_sources(&stages("8192,32768"), &stages("8192,16384,32768")),
            Ok(vec![0, 1, 1, 2])
        );
        let e = stage_sources(&late, &stages("16384+8192")).unwrap_err();
        assert!(
            e.contains("split already") && e.contains("`16384` is missing"),
            "{e}"
        );
        let e = stage_sources(&late, &late).unwrap_err();
        assert!(e.contains("adds a boundary"), "{e}");
    }

    #[test]
    fn boundaries_read_and_write_back() {
        for text in [
            "16384",
            "8192,16384",
            "16384,16384+8192",
            "8192,16384+8192,32768+16384",
            "16384,16384+8192,16384+8192+4096",
            "8192+4096+4096,16384+16384+16384",
        ] {
            assert_eq!(stages_text(&parse_stages(text).unwrap()), text);
        }
        assert_eq!(
            parse_stages("8192,16384").unwrap(),
            [Boundary::tile(13), Boundary::tile(14)]
        );
        assert_eq!(
            parse_stages("16384,16384+8192").unwrap(),
            [
                Boundary::tile(14),
                Boundary {
                    top: 14,
                    second: 13,
                    third: 0
                }
            ]
        );
        for (text, why) in [
            ("16384,8192", "`8192` after `16384`"),
            ("16384,16384", "`16384` after `16384`"),
            ("16384+8192,32768", "`32768` after `16384+8192`"),
            ("8192+16384", "the larger tile comes first"),
            ("16384+4096+8192", "the larger tile comes first"),
            ("16384+8192+4096+2048", "at most three tiles"),
            (
                "16384+8192+4096,16384+8192",
                "`16384+8192` after `16384+8192+4096`",
            ),
            ("16384+8192+4096,32768", "`32768` after `16384+8192+4096`"),
            ("16384+", "`` is not a tile"),
            ("16384+3000", "`3000` is not a tile"),
            ("2", "`2` is not a tile"),
            ("4,8,16,32", "at most 3"),
        ] {
            let e = parse_stages(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn a_board_reaches_the_boundaries_its_two_largest_tiles_pass() {
        let stages = parse_stages("16384,16384+8192").unwrap();
        let small = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 8192, 0, 0, 2]);
        let one = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4096, 0, 16384, 0, 0, 2]);
        let both = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 8192, 0, 16384, 0, 0, 2]);
        let pair = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 16384, 0, 16384, 0, 0, 2]);
        let after = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4, 0, 32768, 0, 0, 2]);
        let stage = |b| stage_reached(&stages, b);
        assert_eq!([small, one, both, pair, after].map(stage), [0, 1, 2, 2, 1]);
        assert_eq!(stage_reached(&[], both), 0);
        assert_eq!(stage_reached(&parse_stages("16384").unwrap(), after), 1);
    }

    #[test]
    fn a_board_reaches_the_boundaries_its_three_largest_tiles_pass() {
        let stages = parse_stages("16384,16384+8192,16384+8192+4096").unwrap();
        let one = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 4096, 0, 16384, 0, 0, 2]);
        let two = board([2, 4, 8, 16, 0, 2, 0, 2048, 0, 0, 8192, 0, 16384, 0, 0, 2]);
        let three = board([
            2, 4, 8, 16, 0, 2, 0, 4096, 0, 2048, 8192, 4096, 16384, 0, 0, 2,
        ]);
        let pair = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 16384, 4096, 16384, 0, 0, 2]);
        let short = board([2, 4, 8, 16, 0, 2, 0, 32, 0, 0, 8192, 0, 16384, 0, 0, 2]);
        let stage = |b| stage_reached(&stages, b);
        assert_eq!([one, two, three, pair, short].map(stage), [1, 2, 3, 3, 2]);
    }
}
