//! Replay or play, written once: every fitness a run needs is taken from the
//! journal when it holds it, and otherwise played (in one batch with the
//! others that share its games) and handed to the observers as a new record.

use std::collections::BTreeMap;

use super::config::{Depth, Game, SearchConfig, TuneConfig};
use super::contender::Contender;
use super::journal::{Record, Scored};
use super::objective::{fitness, per_game};
use super::observer::Observer;
use super::replay::{Replay, Replayed};
use super::TuneError;
use crate::adversarial::duel::DuelSpec;
use crate::evaluation::{Batch, Evaluator, Spec};
use crate::player::Player;
use crate::search::{Budget, SearchParams};
use crate::seeds::{run_game_seed, Stream};
use crate::selfplay::{GameResult, GameSpec};

/// The generation index the baseline's validation games are drawn under.
pub const BASELINE_GENERATION: u32 = u32::MAX;

/// What a fitness is the fitness of; names its journal record.
#[derive(Clone, Debug, PartialEq)]
pub enum Subject {
    Baseline,
    /// Candidate `index` of a generation, charged `penalty` for its bounds,
    /// on the generation's games from index `first` on.
    Candidate {
        generation: u32,
        index: u32,
        first: u32,
        x: Vec<f64>,
        penalty: f64,
    },
    /// A generation's distribution mean.
    Validation {
        generation: u32,
        x: Vec<f64>,
    },
    Contender {
        contender: Contender,
        x: Vec<f64>,
    },
}

/// A player to score, and what it stands for.
pub struct Task {
    pub subject: Subject,
    pub player: Player,
    /// The tuned parameters' values, for the journal.
    pub params: BTreeMap<String, f64>,
}

/// The games a set of tasks shares: `games` seeds of `stream` in
/// `generation`, from index `first` on.
#[derive(Clone, Copy, Debug)]
pub struct Games {
    pub stream: Stream,
    pub generation: u32,
    pub first: u32,
    pub games: u32,
}

/// Scores tasks for one run.
pub struct Scorer<'a> {
    pub config: &'a TuneConfig,
    /// The stage's search settings, and its games.
    pub search: SearchConfig,
    pub spec: Spec,
    pub replay: &'a Replay,
    pub evaluator: &'a dyn Evaluator,
    pub observer: &'a dyn Observer,
    /// Journal each candidate's per-game values (a race resumes from them).
    pub keep_values: bool,
}

/// How a config's games are played under `search` (a stage's settings).
pub fn game_spec(config: &TuneConfig, search: &SearchConfig) -> Spec {
    match &config.variant {
        Game::Solo(variant) => {
            let mut params = SearchParams::new(search.depth, *variant);
            params.prob_cutoff = search.prob_cutoff as f32;
            let mut spec = GameSpec::new(*variant, params);
            spec.move_limit = config.move_limit;
            spec.move_budget = search.nodes.map(Budget::Nodes);
            spec.clock = search.clock;
            Spec::Solo(spec)
        }
        Game::Gpcc(duel) => Spec::Duel(DuelSpec {
            rules: duel.rules,
            role: duel.role,
            opponents: duel.opponents.clone(),
            opening_turns: duel.opening_turns,
            plies: match search.depth {
                Depth::Fixed(plies) => plies,
                Depth::Auto => unreachable!("validated: a Gpcc search has fixed plies"),
            },
            nodes: search.nodes,
        }),
    }
}

/// `player` as it plays under `search` (a stage's settings): a built-in
/// or network player takes the stage's cutoff unless the job tunes it (the rule of
/// which source wins is [`crate::search::settings`]'s).
pub fn stage_player(config: &TuneConfig, search: &SearchConfig, player: &Player) -> Player {
    let mut player = player.clone();
    if let Player::Builtin { settings, .. } | Player::Network { settings, .. } = &mut player {
        if !config.tunes("prob_cutoff") {
            settings.prob_cutoff = search.prob_cutoff;
        }
    }
    player
}

impl Scorer<'_> {
    /// Every task's fitness (and penalty), replayed or played; the games
    /// each one counts are its `games`, replayed or not.
    pub fn score(
        &self,
        tasks: &[Task],
        games: Games,
        phase: &str,
    ) -> Result<Vec<Replayed>, TuneError> {
        let mut out: Vec<Option<Replayed>> =
            tasks.iter().map(|t| self.replayed(&t.subject)).collect();
        let missing: Vec<usize> = (0..tasks.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            let played = self.play(missing.iter().map(|&i| &tasks[i].player), games, phase)?;
            for (&i, results) in missing.iter().zip(played) {
                let values = match &tasks[i].subject {
                    Subject::Candidate { .. } if self.keep_values => {
                        per_game(self.config.objective, &results).unwrap_or_default()
                    }
                    _ => Vec::new(),
                };
                let scored = Replayed {
                    fitness: fitness(self.config.objective, &results),
                    penalty: penalty(&tasks[i].subject),
                    games: games.games,
                    values,
                };
                let record = record(&tasks[i], &scored);
                self.observer
                    .on_record(&record)
                    .map_err(TuneError::Output)?;
                out[i] = Some(scored);
            }
        }
        Ok(out
            .into_iter()
            .map(|r| r.expect("every task scored"))
            .collect())
    }

    fn replayed(&self, subject: &Subject) -> Option<Replayed> {
        match subject {
            Subject::Baseline => self.replay.baseline(),
            Subject::Candidate {
                generation,
                first,
                x,
                ..
            } => self.replay.eval(*generation, *first, x),
            Subject::Validation { generation, .. } => self.replay.validation(*generation),
            Subject::Contender { contender, .. } => self.replay.reselect(&contender.to_string()),
        }
    }

    fn play<'w>(
        &self,
        players: impl Iterator<Item = &'w Player>,
        games: Games,
        phase: &str,
    ) -> Result<Vec<Vec<GameResult>>, TuneError> {
        let seeds: Vec<u64> = (0..games.games)
            .map(|i| {
                run_game_seed(
                    self.config.seed,
                    games.stream,
                    games.generation.into(),
                    i.into(),
                )
            })
            .collect();
        let players = players
            .map(|p| stage_player(self.config, &self.search, p))
            .collect();
        let mut batch = Batch::new(self.spec.clone(), players, seeds);
        if let Some(bank) = &self.config.bank {
            batch.starts = batch.seeds.iter().map(|&s| bank.start(s)).collect();
        }
        self.observer.on_phase(phase, batch.games());
        let results = self
            .evaluator
            .evaluate(&batch, &|_, _| self.observer.on_game())?;
        Ok(results.games)
    }
}

fn penalty(subject: &Subject) -> f64 {
    match subject {
        Subject::Candidate { penalty, .. } => *penalty,
        _ => 0.0,
    }
}

/// The journal record of a task just played.
fn record(task: &Task, scored: &Replayed) -> Record {
    let (f, games) = (&scored.fitness, scored.games);
    let params = task.params.clone();
    let scored_at = |x: &[f64]| Scored {
        x: x.to_vec(),
        params: task.params.clone(),
        fitness: f.value,
        fitness_ci95: f.ci95,
        mean_score: f.mean_score,
        games,
    };
    match &task.subject {
        Subject::Baseline => Record::Baseline {
            fitness: f.value,
            mean_score: f.mean_score,
            games,
        },
        Subject::Candidate {
            generation,
            index,
            first,
            x,
            penalty,
        } => Record::Eval {
            generation: *generation,
            index: *index,
            x: x.clone(),
            params,
            fitness: f.value,
            penalty: *penalty,
            mean_score: f.mean_score,
            games,
            first: *first,
            values: scored.values.clone(),
        },
        Subject::Validation { generation, x } => Record::Validation {
            generation: *generation,
            scored: scored_at(x),
        },
        Subject::Contender { contender, x } => Record::Reselect {
            label: contender.to_string(),
            generation: contender.generation(),
            scored: scored_at(x),
        },
    }
}
