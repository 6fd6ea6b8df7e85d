//! Writing a bank file (`tune2048 bank`): the games of a [`Plan`], played
//! chunk by chunk ([`CHUNK_GAMES`]) and recorded ([`record`]), their
//! positions streamed to the file in seed order behind a header that says
//! what made them ([`Maker`], [`Made`]). Memory does not grow with the
//! number of games, and the file does not depend on the thread count.

use std::path::Path;

use super::record::{record, Stage};
use super::{head_text, HashText, Made};
use crate::atomic_file::Streamed;
use crate::evaluation::chunked::CHUNK_GAMES;
use crate::evaluation::LocalEvaluator;
use crate::fnv;
use crate::heuristic::{Evaluate, Weights};
use crate::seeds::game_seed;
use crate::selfplay::GameSpec;

/// The games that fill a bank.
#[derive(Clone, Debug)]
pub struct Plan<'a> {
    pub spec: GameSpec,
    /// Games `0..games` of `seed` ([`game_seed`]).
    pub games: u32,
    pub seed: u64,
    /// Where each game's positions are saved.
    pub stages: &'a [Stage],
}

/// Who plays a bank's games, as its header records them.
#[derive(Clone, Debug, PartialEq)]
pub struct Maker {
    /// `weights FILE` or `network FILE`, for the comment line.
    label: String,
    /// The header fields that name the player.
    fields: Vec<(String, String)>,
}

impl Maker {
    /// Weights read from `file` (as the user named it).
    pub fn weights(weights: &Weights, file: &str) -> Result<Maker, ron::Error> {
        Ok(Maker {
            label: format!("weights {file}"),
            fields: vec![
                ("weights_file".to_string(), file.to_string()),
                ("weights".to_string(), ron::to_string(weights)?),
            ],
        })
    }

    /// A learned network read from `file`, whose bytes hash to `hash`
    /// ([`fnv::hash`]).
    pub fn network(file: &str, hash: u64) -> Maker {
        Maker {
            label: format!("network {file}"),
            fields: vec![
                ("network_file".to_string(), file.to_string()),
                ("network_hash".to_string(), HashText(hash).to_string()),
            ],
        }
    }
}

/// Why a bank could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The search settings could not be written as a header field.
    #[error(transparent)]
    Ron(#[from] ron::Error),
}

/// What a written bank holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Positions per stage, in the order of [`Plan::stages`].
    pub counts: Vec<u64>,
    /// The file's [`content_hash`](super::content_hash).
    pub hash: u64,
}

impl Plan<'_> {
    /// The bank's comment line: what made it, in words.
    pub fn made_by(&self, maker: &Maker) -> String {
        format!(
            "tune2048 bank: {}; variant {}; depth {}; {} games from seed {}; stages {}",
            maker.label,
            self.spec.variant.name(),
            self.spec.search.depth,
            self.games,
            self.seed,
            self.stage_names().join(" ")
        )
    }

    /// The bank's header fields: the variant, the player, the search and
    /// its limits, the games and the stages.
    fn made(&self, maker: &Maker) -> Result<Made, ron::Error> {
        let spec = &self.spec;
        let mut fields = maker.fields.clone();
        fields.push(("search".to_string(), ron::to_string(&spec.search)?));
        if let Some(limit) = spec.move_limit {
            fields.push(("move_limit".into(), limit.to_string()));
        }
        if let Some(budget) = spec.move_budget {
            fields.push(("move_budget".into(), ron::to_string(&budget)?));
        }
        fields.extend([
            ("games".to_string(), self.games.to_string()),
            ("seed".to_string(), self.seed.to_string()),
            ("stages".to_string(), self.stage_names().join(" ")),
        ]);
        Ok(Made::new(spec.variant, fields))
    }

    fn stage_names(&self) -> Vec<String> {
        self.stages.iter().map(Stage::to_string).collect()
    }

    /// Plays the games with `evaluation` (the heuristic or network `maker`
    /// names) scoring the search's leaves, on `evaluator`'s threads, and
    /// writes the bank to `out` (through a temporary name, renamed when
    /// whole). `on_game` is called once per finished game, from any thread.
    pub fn write(
        &self,
        out: &Path,
        maker: &Maker,
        evaluation: &impl Evaluate,
        evaluator: &LocalEvaluator,
        on_game: &(dyn Fn() + Sync),
    ) -> Result<Written, WriteError> {
        let made = self.made(maker)?;
        let stages = self.stage_names();
        // Positions go to the file chunk by chunk, in seed order, as they
        // are found.
        let mut file = Streamed::create(out)?;
        let head = head_text(&self.made_by(maker), &made);
        file.write_all(head.as_bytes())?;
        let mut hash = fnv::hash(head.as_bytes());
        let mut counts = vec![0u64; stages.len()];
        let mut lines = String::new();
        for first in (0..self.games).step_by(CHUNK_GAMES as usize) {
            let last = first.saturating_add(CHUNK_GAMES).min(self.games);
            let seeds: Vec<u64> = (first..last)
                .map(|i| game_seed(self.seed, i.into()))
                .collect();
            let chunk = record(
                evaluator,
                &self.spec,
                evaluation,
                &seeds,
                self.stages,
                on_game,
            );
            lines.clear();
            for p in &chunk.positions {
                lines.push_str(&p.to_line());
                if let Some(i) = stages.iter().position(|s| *s == p.stage) {
                    counts[i] += 1;
                }
            }
            file.write_all(lines.as_bytes())?;
            hash = fnv::extend(hash, lines.as_bytes());
        }
        file.finish()?;
        Ok(Written { counts, hash })
    }
}
