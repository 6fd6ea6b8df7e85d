//! The journal indexed by what each record answers, so a resumed run takes
//! every finished result from it instead of playing the games again.

use std::collections::{HashMap, HashSet};

use super::journal::{Record, Scored};
use super::objective::Fitness;

/// A scored result, played now or read back from the journal.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    pub fitness: Fitness,
    /// The bound penalty the optimizer was charged (candidates only; else 0).
    pub penalty: f64,
    pub games: u32,
    /// The objective per game, where a race keeps them (else empty).
    pub values: Vec<f64>,
}

/// A normalized point, keyed by its exact bits.
pub type PointKey = Vec<u64>;

pub fn point_key(x: &[f64]) -> PointKey {
    x.iter().map(|v| v.to_bits()).collect()
}

/// What a journal already holds.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    baseline: Option<Replayed>,
    evals: HashMap<(u32, u32, PointKey), Replayed>,
    validations: HashMap<u32, Replayed>,
    generations: HashMap<u32, f64>,
    restarts: HashSet<u32>,
    reselects: HashMap<String, Replayed>,
    /// How the journal says the run ended (its last stop record).
    stop: Option<Record>,
    records: usize,
}

impl Replay {
    pub fn new(records: &[Record]) -> Replay {
        let mut r = Replay {
            records: records.len(),
            stop: super::journal::stop_record(records).cloned(),
            ..Replay::default()
        };
        for rec in records {
            match rec {
                Record::Baseline {
                    fitness,
                    mean_score,
                    games,
                } => {
                    // The baseline's interval is not journaled; it is never used.
                    r.baseline = Some(scored(*fitness, [*fitness; 2], *mean_score, *games));
                }
                Record::Eval {
                    generation,
                    x,
                    fitness,
                    penalty,
                    mean_score,
                    games,
                    first,
                    values,
                    ..
                } => {
                    // What the optimizer saw is fitness − penalty, penalty as journaled.
                    let replayed = Replayed {
                        penalty: *penalty,
                        values: values.clone(),
                        ..scored(*fitness, [*fitness; 2], *mean_score, *games)
                    };
                    r.evals
                        .insert((*generation, *first, point_key(x)), replayed);
                }
                Record::Validation { generation, scored } => {
                    r.validations.insert(*generation, from_scored(scored));
                }
                Record::Reselect { label, scored, .. } => {
                    r.reselects.insert(label.clone(), from_scored(scored));
                }
                Record::Generation {
                    generation,
                    elapsed_s,
                    ..
                } => {
                    r.generations.insert(*generation, *elapsed_s);
                }
                Record::Restart { generation, .. } => {
                    r.restarts.insert(*generation);
                }
                // How a run ended is not a result: a resumed run ends anew.
                Record::Stop { .. } | Record::Unknown => {}
            }
        }
        r
    }

    /// The journal's stop record, unless the run went on after it: a
    /// resumed run that ends the same way does not record its end again.
    pub fn stop(&self) -> Option<&Record> {
        self.stop.as_ref()
    }

    /// Records read.
    pub fn len(&self) -> usize {
        self.records
    }

    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    pub fn baseline(&self) -> Option<Replayed> {
        self.baseline.clone()
    }

    /// A candidate's games from index `first` of its generation's seeds.
    pub fn eval(&self, generation: u32, first: u32, x: &[f64]) -> Option<Replayed> {
        self.evals.get(&(generation, first, point_key(x))).cloned()
    }

    pub fn validation(&self, generation: u32) -> Option<Replayed> {
        self.validations.get(&generation).cloned()
    }

    pub fn reselect(&self, label: &str) -> Option<Replayed> {
        self.reselects.get(label).cloned()
    }

    /// The elapsed time journaled at the end of `generation`, if it ended.
    pub fn generation_elapsed(&self, generation: u32) -> Option<f64> {
        self.generations.get(&generation).copied()
    }

    /// Whether a restart before `generation` is journaled.
    pub fn has_restart(&self, generation: u32) -> bool {
        self.restarts.contains(&generation)
    }

    /// The latest elapsed time journaled (0 for a new run).
    pub fn elapsed_s(&self) -> f64 {
        self.generations.values().copied().fold(0.0, f64::max)
    }
}

fn from_scored(s: &Scored) -> Replayed {
    scored(s.fitness, s.fitness_ci95, s.mean_score, s.games)
}

fn scored(value: f64, ci95: [f64; 2], mean_score: f64, games: u32) -> Replayed {
    Replayed {
        fitness: Fitness {
            value,
            ci95,
            mean_score,
        },
        penalty: 0.0,
        games,
        values: Vec::new(),
    }
}
