//! How a network learns beyond its rate: the trace decay λ, temporal
//! coherence, restarts, lookahead, a stop tile, and whether games are played
//! one after another or in rounds (see [`super::learn`]). A network's header records
//! its method on a `method` line, absent for [`Method::PLAIN`], so every
//! network learned before methods existed reads, hashes and resumes as
//! before.

/// How games are laid out in time (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// One game after another, each on the network the last left.
    Sequential,
    /// Rounds of this many games, played two rounds behind the learning.
    Rounds(u64),
}

impl Schedule {
    /// Games per round (1 for one after another).
    pub fn round(self) -> u64 {
        match self {
            Schedule::Sequential => 1,
            Schedule::Rounds(r) => r,
        }
    }
}

/// How a network learns beyond the rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Method {
    /// The trace decay λ in [0, 1): 0 is TD(0).
    pub lambda: f32,
    /// Temporal coherence: a rate per weight from its past errors.
    pub coherence: bool,
    /// Go on from the middle of every game until a segment is short.
    pub restarts: bool,
    /// Learning games' moves chosen one chance layer deep
    /// ([`super::lookahead`]), not greedily.
    pub lookahead: bool,
    /// Learning games stop at their first afterstate holding this tile or a
    /// larger one: the stages of such boards are read, never learned.
    pub until: Option<u32>,
    pub schedule: Schedule,
}

impl Method {
    /// TD(0), one game after another: how every network learned before
    /// methods existed was learned, and what a header without a `method`
    /// line means.
    pub const PLAIN: Method = Method {
        lambda: 0.0,
        coherence: false,
        restarts: false,
        lookahead: false,
        until: None,
        schedule: Schedule::Sequential,
    };

    /// The method as a network header's `method` line writes it: words
    /// separated by spaces, e.g. `lambda 0.5 coherence restarts until 16384
    /// rounds 8`.
    pub fn text(&self) -> String {
        let mut words = vec![format!("lambda {}", self.lambda)];
        if self.coherence {
            words.push("coherence".into());
        }
        if self.restarts {
            words.push("restarts".into());
        }
        if self.lookahead {
            words.push("lookahead".into());
        }
        if let Some(tile) = self.until {
            words.push(format!("until {tile}"));
        }
        if let Schedule::Rounds(r) = self.schedule {
            words.push(format!("rounds {r}"));
        }
        words.join(" ")
    }

    /// Reads [`Method::text`]; the error names the word at fault.
    pub fn parse(text: &str) -> Result<Method, String> {
        let mut method = Method::PLAIN;
        let mut words = text.split_whitespace();
        while let Some(word) = words.next() {
            let mut number = |what: &str| {
                words
                    .next()
                    .ok_or_else(|| format!("`{word}` needs {what}"))
                    .map(str::to_string)
            };
            match word {
                "lambda" => {
                    let n = number("a value in [0, 1)")?;
                    method.lambda = parse_lambda(&n)?;
                }
                "until" => {
                    let n = number("a tile")?;
                    method.until = Some(parse_until(&n)?);
                }
                "rounds" => {
                    let n = number("a game count")?;
                    method.schedule = Schedule::Rounds(parse_round(&n)?);
                }
                "coherence" => method.coherence = true,
                "restarts" => method.restarts = true,
                "lookahead" => method.lookahead = true,
                other => return Err(format!("unknown word `{other}`")),
            }
        }
        Ok(method)
    }
}

/// A trace decay: a number in [0, 1).
pub fn parse_lambda(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(l) if (0.0..1.0).contains(&l) => Ok(l),
        _ => Err(format!("λ must be a number in [0, 1), not `{text}`")),
    }
}

/// A stop tile: a power of two from 8 to 32768.
pub fn parse_until(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(t) if t.is_power_of_two() && (8..=32768).contains(&t) => Ok(t),
        _ => Err(format!(
            "the stop tile must be a power of two from 8 to 32768, not `{text}`"
        )),
    }
}

/// Games per round: 1 to [`MAX_ROUND`].
pub fn parse_round(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(r) if (1..=MAX_ROUND).contains(&r) => Ok(r),
        _ => Err(format!(
            "games per round must be a whole number from 1 to {MAX_ROUND}, not `{text}`"
        )),
    }
}

/// The most games a round may hold (the round's games are kept in memory).
pub const MAX_ROUND: u64 = 1024;
