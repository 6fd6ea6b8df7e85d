//! The evaluation seam: a batch of games (players × seeds × one game spec)
//! in, one result per game out. Everything that plays many games goes
//! through an [`Evaluator`]: a tuner's generations, validation, reselection
//! and final comparison, and the `eval` and `compare` commands.
//! [`LocalEvaluator`] plays on a rayon pool of this process (a batch with an
//! external player that plays games in lock step goes through `queue.rs`,
//! which keeps each thread on one player's games); with the `mpi` feature,
//! `cluster::MpiEvaluator` spreads the same games over the processes of an
//! MPI job, and [`crate::workers`] says which of the two a command plays on.
//! [`chunked`] plays long runs chunk by chunk, with their per-game CSV files.
//!
//! Two players on the same three seeds (common random numbers), played on
//! two threads and then on one: the same games either way.
//!
//! ```
//! use tune2048::engine::Variant;
//! use tune2048::evaluation::{Batch, Evaluator, LocalEvaluator};
//! use tune2048::heuristic::Weights;
//! use tune2048::player::Player;
//! use tune2048::search::{Depth, SearchParams};
//! use tune2048::selfplay::GameSpec;
//!
//! let mut no_empty = Weights::nneonneo();
//! no_empty.set("empty", 0.0).expect("a weight name");
//! let search = SearchParams::new(Depth::Fixed(0), Variant::CLASSIC);
//! let batch = Batch::new(
//!     GameSpec::new(Variant::CLASSIC, search),
//!     vec![
//!         Player::builtin(Weights::nneonneo()),
//!         Player::builtin(no_empty),
//!     ],
//!     vec![1, 2, 3],
//! );
//! let two = LocalEvaluator::new(Some(2))?.evaluate(&batch, &|_, _| {})?;
//! assert_eq!((two.games.len(), two.games[0].len()), (2, 3));
//! assert_eq!(two.games[1][2].seed, 3);
//! let one = LocalEvaluator::new(Some(1))?.evaluate(&batch, &|_, _| {})?;
//! assert_eq!(one, two);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod queue;

pub use queue::{lock_step, work, Source};

use rayon::prelude::*;

pub mod chunked;
pub mod game_csv;

use crate::adversarial::duel::DuelSpec;
use crate::adversarial::matchplay;
use crate::engine::{GameRecord, Outcome, Start};
use crate::player::{Player, PlayerError, Prepared};
use crate::search::SearchStats;
use crate::selfplay::{GameResult, GameSpec};

/// How the games of a batch are played.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Spec {
    /// A player plays a solo game of the classic game or twos.
    Solo(GameSpec),
    /// A built-in player's weights play one role of adversarial 2048 against fixed
    /// opponents; a game's score is the defender's total.
    Duel(DuelSpec),
}

impl From<GameSpec> for Spec {
    fn from(spec: GameSpec) -> Spec {
        Spec::Solo(spec)
    }
}

impl From<DuelSpec> for Spec {
    fn from(spec: DuelSpec) -> Spec {
        Spec::Duel(spec)
    }
}

/// Every player plays every seed (common random numbers), under `spec`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Batch {
    pub spec: Spec,
    pub players: Vec<Player>,
    pub seeds: Vec<u64>,
    /// Where the games start: empty for the variant's empty board, else one
    /// position per seed (`starts[s]` for `seeds[s]`), e.g. from a bank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub starts: Vec<Start>,
}

impl Batch {
    /// A batch of whole games.
    pub fn new(spec: impl Into<Spec>, players: Vec<Player>, seeds: Vec<u64>) -> Batch {
        Batch {
            spec: spec.into(),
            players,
            seeds,
            starts: Vec::new(),
        }
    }

    /// Games in the batch.
    pub fn games(&self) -> u64 {
        (self.players.len() * self.seeds.len()) as u64
    }

    /// The batch's players, ready to play (heuristic tables built).
    pub fn prepare(&self) -> Vec<Prepared<'_>> {
        self.players.par_iter().map(Player::prepare).collect()
    }

    /// Where seed `s`'s games start (`None`: the empty board).
    pub fn start(&self, s: usize) -> Option<Start> {
        assert!(
            self.starts.is_empty() || self.starts.len() == self.seeds.len(),
            "a batch has no starts or one per seed"
        );
        self.starts.get(s).copied()
    }

    /// Plays job `job` (player `job / seeds`, seed `job % seeds`);
    /// `prepared` are the batch's players, [`Batch::prepare`]d.
    pub fn play(&self, prepared: &[Prepared], job: usize) -> Result<GameResult, Box<PlayerError>> {
        let per_set = self.seeds.len();
        let s = job % per_set;
        let player = &prepared[job / per_set];
        match &self.spec {
            Spec::Solo(spec) => player.play(spec, self.seeds[s], self.start(s)),
            Spec::Duel(duel) => {
                let heuristic = player.heuristic().ok_or_else(|| {
                    Box::new(PlayerError {
                        player: "external".into(),
                        seed: Some(self.seeds[s]),
                        sent: None,
                        answer: None,
                        problem: "external players play solo games only, not adversarial ones"
                            .into(),
                        stderr: Vec::new(),
                    })
                })?;
                Ok(duel_result(
                    self.seeds[s],
                    duel.play(heuristic, self.seeds[s], s),
                ))
            }
        }
    }
}

/// A duel's game as the tuner sees a game: the defender's total is its
/// score. A duel's record counts no fours and carries no search statistics.
fn duel_result(seed: u64, game: matchplay::MatchGame) -> GameResult {
    GameResult {
        seed,
        start: None,
        record: GameRecord {
            moves: game.moves,
            score: game.score,
            max_tile: game.max_tile,
            fours: 0,
            outcome: Outcome::GameOver,
            board: game.board,
        },
        stats: SearchStats::default(),
    }
}

/// A batch's results: `games[w][s]` is player `w` on seed `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchResults {
    pub games: Vec<Vec<GameResult>>,
}

impl BatchResults {
    /// Results in job order (job `j`: weight set `j / seeds`, seed
    /// `j % seeds`) split into one row per weight set.
    pub fn from_jobs(flat: Vec<GameResult>, sets: usize, seeds: usize) -> BatchResults {
        let games = if seeds == 0 {
            vec![Vec::new(); sets]
        } else {
            flat.chunks(seeds).map(<[GameResult]>::to_vec).collect()
        };
        BatchResults { games }
    }

    /// Splits a batch's wall time among its weight sets in proportion to the
    /// moves each played (search time is close to proportional to moves), so
    /// each set's rates describe its own games.
    pub fn time_shares(&self, elapsed_s: f64) -> Vec<f64> {
        let moves: Vec<f64> = self
            .games
            .iter()
            .map(|g| g.iter().map(|r| f64::from(r.record.moves)).sum())
            .collect();
        time_shares(elapsed_s, &moves)
    }
}

/// Splits `elapsed_s` among weight sets in proportion to the moves each
/// played ([`BatchResults::time_shares`], for games tallied as they finish).
pub fn time_shares(elapsed_s: f64, moves: &[f64]) -> Vec<f64> {
    let total: f64 = moves.iter().sum();
    moves
        .iter()
        .map(|m| {
            if total > 0.0 {
                elapsed_s * m / total
            } else {
                0.0
            }
        })
        .collect()
}

/// Why a batch could not be played.
#[derive(Debug, thiserror::Error)]
pub enum EvaluationError {
    /// A worker (a thread pool, another process) failed or went away.
    #[error("evaluation worker {worker} failed: {message}")]
    Worker { worker: String, message: String },
    /// An external player failed.
    #[error(transparent)]
    Player(#[from] Box<PlayerError>),
}

/// Plays batches of games.
pub trait Evaluator: Sync {
    /// Plays every game of `batch`; `on_game` is called once per finished
    /// game, from any thread, with its job (player `job / seeds`, seed
    /// `job % seeds`: the index of the result in job order). Results never
    /// depend on how the games were spread over workers.
    fn evaluate(
        &self,
        batch: &Batch,
        on_game: &(dyn Fn(usize, &GameResult) + Sync),
    ) -> Result<BatchResults, EvaluationError>;

    /// Worker threads, all processes together (for reports).
    fn threads(&self) -> usize;

    /// Processes that play the games (for reports).
    fn processes(&self) -> usize {
        1
    }
}

/// Plays on a rayon pool of this process. Games go out one at a time to
/// whichever thread is free: their lengths vary by 10× and more, so fixed
/// shares per thread or per weight set would leave threads idle.
pub struct LocalEvaluator {
    pool: rayon::ThreadPool,
}

impl LocalEvaluator {
    /// A pool of `threads` workers (`None`: one per core).
    pub fn new(threads: Option<usize>) -> Result<LocalEvaluator, EvaluationError> {
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(t) = threads {
            builder = builder.num_threads(t);
        }
        let pool = builder.build().map_err(|e| EvaluationError::Worker {
            worker: "local thread pool".into(),
            message: e.to_string(),
        })?;
        Ok(LocalEvaluator { pool })
    }

    /// `f` of every item, on this pool, in item order: for work on games
    /// that needs more than their results (watching every move of a game).
    pub fn map<T: Sync, R: Send>(&self, items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
        self.pool
            .install(|| items.par_iter().with_max_len(1).map(f).collect())
    }
}

impl Evaluator for LocalEvaluator {
    fn evaluate(
        &self,
        batch: &Batch,
        on_game: &(dyn Fn(usize, &GameResult) + Sync),
    ) -> Result<BatchResults, EvaluationError> {
        let prepared = self.pool.install(|| batch.prepare());
        if queue::lock_step(batch, &prepared).is_some() {
            let queue = queue::Queue::new(batch, &prepared, on_game);
            self.pool
                .broadcast(|_| queue::work(batch, &prepared, &queue));
            let flat = queue.finish()?;
            return Ok(BatchResults::from_jobs(
                flat,
                prepared.len(),
                batch.seeds.len(),
            ));
        }
        self.pool.install(|| {
            let per_set = batch.seeds.len();
            let flat: Vec<GameResult> = (0..prepared.len() * per_set)
                .into_par_iter()
                .with_max_len(1)
                .map(|job| {
                    let r = batch.play(&prepared, job)?;
                    on_game(job, &r);
                    Ok(r)
                })
                .collect::<Result<_, Box<PlayerError>>>()?;
            Ok(BatchResults::from_jobs(flat, prepared.len(), per_set))
        })
    }

    fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }
}

impl Drop for LocalEvaluator {
    /// Each thread's external player is asked to quit now, not whenever
    /// the pool's threads end.
    fn drop(&mut self) {
        self.pool
            .broadcast(|_| crate::player::external::stop_this_thread());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;
    use crate::heuristic::{Heuristic, Weights};
    use crate::search::{Depth, SearchParams};
    use crate::seeds::game_seed;
    use crate::selfplay::play_one;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn greedy() -> GameSpec {
        GameSpec::new(
            Variant::CLASSIC,
            SearchParams::new(Depth::Fixed(0), Variant::CLASSIC),
        )
    }

    fn batch_of(spec: impl Into<Spec>) -> Batch {
        let mut other = Weights::nneonneo();
        other.empty *= 2.0;
        Batch::new(
            spec,
            vec![Player::builtin(Weights::nneonneo()), Player::builtin(other)],
            (0..9).map(|i| game_seed(5, i)).collect(),
        )
    }

    fn batch() -> Batch {
        batch_of(greedy())
    }

    /// The batch's results on pools of 1, 2 and 3 threads, which must agree.
    fn same_on_any_pool(b: &Batch) -> BatchResults {
        let on = |threads| {
            LocalEvaluator::new(Some(threads))
                .unwrap()
                .evaluate(b, &|_, _| {})
                .unwrap()
        };
        let one = on(1);
        assert_eq!(one, on(2));
        assert_eq!(one, on(3));
        one
    }

    #[test]
    fn every_set_plays_every_seed_in_order_on_any_pool() {
        let b = batch();
        let count = AtomicU64::new(0);
        let one = LocalEvaluator::new(Some(1))
            .unwrap()
            .evaluate(&b, &|_, _| {
                count.fetch_add(1, Ordering::Relaxed);
            })
            .unwrap();
        assert_eq!(count.load(Ordering::Relaxed), b.games());
        let three = LocalEvaluator::new(Some(3))
            .unwrap()
            .evaluate(&b, &|_, _| {})
            .unwrap();
        assert_eq!(one, three);
        assert_eq!(one.games.len(), 2);
        for (set, games) in one.games.iter().enumerate() {
            let h = Heuristic::new(b.players[set].weights().unwrap());
            for (g, &seed) in games.iter().zip(&b.seeds) {
                assert_eq!(g.seed, seed);
                assert_eq!(*g, play_one(&greedy(), &h, seed));
            }
        }
        assert_ne!(one.games[0], one.games[1]);
    }

    #[test]
    fn games_start_from_their_seed_s_position_on_any_pool() {
        let mut b = batch();
        let h = Heuristic::new(b.players[0].weights().unwrap());
        // Positions reached by games of other seeds.
        b.starts = b
            .seeds
            .iter()
            .map(|&seed| {
                let mut at = None;
                let mut score = 0;
                crate::selfplay::play_one_observed(&greedy(), &h, seed ^ 1, |board, dir| {
                    let moved = board.make_move(dir).unwrap();
                    if at.is_none() && board.max_rank() >= 6 {
                        at = Some(Start {
                            board,
                            score,
                            moves: 0,
                        });
                    }
                    score += u64::from(moved.score);
                });
                at.unwrap()
            })
            .collect();
        let one = same_on_any_pool(&b);
        for (s, g) in one.games[0].iter().enumerate() {
            let from = crate::selfplay::play_start(&greedy(), &h, b.seeds[s], Some(b.starts[s]));
            assert_eq!(*g, from);
            assert_eq!(g.start, Some(b.starts[s]));
            assert!(g.record.score >= b.starts[s].score);
            assert_ne!(g.record, play_one(&greedy(), &h, b.seeds[s]).record);
        }
        let json = serde_json::to_string(&b).unwrap();
        let back: Batch = serde_json::from_str(&json).unwrap();
        assert_eq!(back.starts, b.starts);
    }

    #[test]
    fn node_budget_games_replay_on_any_pool() {
        let mut spec = greedy();
        spec.search = SearchParams::new(Depth::Fixed(3), Variant::CLASSIC);
        spec.move_budget = Some(crate::search::Budget::Nodes(2_000));
        spec.move_limit = Some(150);
        let mut b = batch_of(spec);
        b.seeds.truncate(3);
        same_on_any_pool(&b);
    }

    #[test]
    fn an_empty_batch_has_an_empty_row_per_set() {
        let mut b = batch();
        b.seeds.clear();
        let r = LocalEvaluator::new(Some(2))
            .unwrap()
            .evaluate(&b, &|_, _| {})
            .unwrap();
        assert_eq!(r.games, vec![Vec::<GameResult>::new(); 2]);
    }

    #[test]
    fn duels_meet_their_opponents_in_turn_on_any_pool() {
        use crate::adversarial::duel::Opponent;
        use crate::adversarial::{Rules, Side};
        let duel = DuelSpec {
            rules: Rules::Gpcc2015,
            role: Side::Attacker,
            opponents: vec![
                Opponent::Builtin("eval1".into()),
                Opponent::Builtin("score".into()),
            ],
            opening_turns: 2,
            plies: 2,
            nodes: None,
        };
        let b = batch_of(duel.clone());
        let one = same_on_any_pool(&b);
        for (set, games) in one.games.iter().enumerate() {
            let h = Heuristic::new(b.players[set].weights().unwrap());
            for (s, g) in games.iter().enumerate() {
                let game = duel.play(&h, b.seeds[s], s);
                assert_eq!((g.seed, g.record.score), (b.seeds[s], game.score));
                assert_eq!((g.record.moves, g.record.board), (game.moves, game.board));
            }
        }
        // Game s meets opponent s mod 2: the other one would change games.
        let h = Heuristic::new(b.players[0].weights().unwrap());
        let swapped = (0..b.seeds.len())
            .filter(|&s| one.games[0][s].record.score != duel.play(&h, b.seeds[s], s + 1).score);
        assert!(swapped.count() > 0);
    }
}
