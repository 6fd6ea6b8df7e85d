//! Rounds as a pipeline on every thread: the games of round `r` are played
//! on the network as it stood after round `r − 2` (the block's start for
//! rounds 0 and 1), and learned from game by game in order; whatever the
//! threads, each game sees the same network and is learned in the same
//! order, so the network learned depends on the rounds, never on the
//! threads.
//!
//! Nothing waits for a whole round. After learning round `r`'s last game,
//! the learner copies out what `r` changed ([`Staged`]) and goes on to
//! round `r + 1`'s games as they finish; the copy is written to the
//! network games are played on (applied) once round `r + 1`'s games, the
//! last to play on it as it stands, are all done, and only then may round
//! `r + 2`'s games start. So a thread whose game ends while another's
//! still runs learns, or plays the next round, instead of waiting for it.
//!
//! Work is taken in jobs: apply a round, learn the next game, play the
//! next game, in that order of preference (the first two are what the
//! later games wait on). Workers are rayon tasks that take jobs until none
//! is left, and each job that makes work ready starts workers for it, up
//! to one per thread.

use std::sync::{Mutex, PoisonError, RwLock};

use super::staged::Staged;
use super::value::Network;

/// One unit of work.
enum Job {
    /// Writes round `r`'s copy to the network games are played on.
    Apply(usize),
    /// Learns game `game`, then, where it ends round `r`, copies the round
    /// out.
    Learn { game: u64, ends: Option<usize> },
    /// Plays game `g` (counted from the block's first).
    Play(u64),
}

/// A job done, for the plan to record.
enum Done {
    Applied,
    Learned { staged: bool },
    Played(u64),
}

/// Where the block stands: kept under one lock, read and changed only
/// between jobs.
struct Plan {
    /// Round `r`'s games are `bounds[r]..bounds[r + 1]`, from the block's
    /// first game.
    bounds: Vec<u64>,
    /// Each game of the block: played yet.
    played: Vec<bool>,
    /// Rounds `0..complete` have every game played.
    complete: usize,
    /// Games `0..claimed` have been taken to play.
    claimed: u64,
    /// The game the learner takes next.
    next_learn: u64,
    /// A worker holds the learner.
    learning: bool,
    /// Rounds `0..staged` are copied out; `0..applied` are applied.
    staged: usize,
    applied: usize,
    applying: bool,
    /// Workers running, and the most there may be.
    workers: usize,
    threads: usize,
}

impl Plan {
    fn rounds(&self) -> usize {
        self.bounds.len() - 1
    }

    /// Games before this may be played: round `r` plays once round
    /// `r − 2` is applied.
    fn playable(&self) -> u64 {
        self.bounds[(self.applied + 2).min(self.rounds())]
    }

    /// Round `applied` may be applied: it is copied out, and every game
    /// that plays on the network before it (those of rounds up to the next
    /// one) is done.
    fn can_apply(&self) -> bool {
        let r = self.applied;
        !self.applying && r < self.staged && self.complete >= (r + 2).min(self.rounds())
    }

    fn can_learn(&self) -> bool {
        !self.learning && self.played.get(self.next_learn as usize) == Some(&true)
    }

    /// Takes the job a worker should do next, if any.
    fn take(&mut self) -> Option<Job> {
        if self.can_apply() {
            self.applying = true;
            Some(Job::Apply(self.applied))
        } else if self.can_learn() {
            self.learning = true;
            let game = self.next_learn;
            let r = self.bounds.partition_point(|&b| b <= game) - 1;
            let ends = (self.bounds[r + 1] == game + 1).then_some(r);
            Some(Job::Learn { game, ends })
        } else if self.claimed < self.playable() {
            self.claimed += 1;
            Some(Job::Play(self.claimed - 1))
        } else {
            None
        }
    }

    fn record(&mut self, done: Done) {
        match done {
            Done::Applied => {
                self.applied += 1;
                self.applying = false;
            }
            Done::Learned { staged } => {
                self.next_learn += 1;
                self.learning = false;
                self.staged += usize::from(staged);
            }
            Done::Played(g) => {
                self.played[g as usize] = true;
                while self.complete < self.rounds() && self.round_played(self.complete) {
                    self.complete += 1;
                }
            }
        }
    }

    fn round_played(&self, r: usize) -> bool {
        let games = self.bounds[r] as usize..self.bounds[r + 1] as usize;
        self.played[games].iter().all(|&p| p)
    }

    /// The jobs [`Plan::take`] would hand out now, one after another.
    fn ready(&self) -> usize {
        usize::from(self.can_apply())
            + usize::from(self.can_learn())
            + (self.playable() - self.claimed) as usize
    }
}

/// What the workers share.
struct Shared<'a, G, S, P, L, C> {
    plan: Mutex<Plan>,
    /// The network games are played on: read by games, written by applies,
    /// never both at once (the plan orders them; the lock checks it).
    on: RwLock<&'a mut Network>,
    /// Each game of the block, from played to learned.
    games: Vec<Mutex<Option<G>>>,
    /// What learns: held by one worker at a time (the plan's `learning`).
    learner: Mutex<&'a mut S>,
    /// Round `r`'s copy is in `copies[r % 2]`: round `r + 2` is copied out
    /// only after round `r + 1`'s games, which wait for `r`'s apply.
    copies: [Mutex<Staged>; 2],
    /// The block's first game.
    first: u64,
    play: P,
    learn: L,
    copy: C,
}

fn locked<T>(lock: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Learns games `first..end` in rounds of `round` on every thread of the
/// current rayon pool: `play(on, game)` plays a game on `on`,
/// `learn(learner, game)` learns from it, and `copy(learner, staged)`
/// copies out what the learning since the last copy changed. `on` equals
/// what learns at the start; it does again at the end.
pub(super) fn in_rounds<G, S, P, L, C>(
    learner: &mut S,
    on: &mut Network,
    (first, end): (u64, u64),
    round: u64,
    play: P,
    learn: L,
    copy: C,
) where
    G: Send,
    S: Send,
    P: Fn(&Network, u64) -> G + Sync,
    L: Fn(&mut S, G) + Sync,
    C: Fn(&mut S, &mut Staged) + Sync,
{
    let games = end.saturating_sub(first);
    if games == 0 {
        return;
    }
    let mut bounds: Vec<u64> = (0..games).step_by(round as usize).collect();
    bounds.push(games);
    let threads = rayon::current_num_threads();
    let shared = Shared {
        plan: Mutex::new(Plan {
            bounds,
            played: vec![false; games as usize],
            complete: 0,
            claimed: 0,
            next_learn: 0,
            learning: false,
            staged: 0,
            applied: 0,
            applying: false,
            workers: 0,
            threads,
        }),
        on: RwLock::new(on),
        games: (0..games).map(|_| Mutex::new(None)).collect(),
        learner: Mutex::new(learner),
        copies: Default::default(),
        first,
        play,
        learn,
        copy,
    };
    rayon::scope(|scope| {
        let mut plan = locked(&shared.plan);
        shared.start_workers(scope, &mut plan);
    });
    let plan = shared
        .plan
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    debug_assert_eq!(plan.applied, plan.rounds(), "every round applied");
}

impl<G, S, P, L, C> Shared<'_, G, S, P, L, C>
where
    G: Send,
    S: Send,
    P: Fn(&Network, u64) -> G + Sync,
    L: Fn(&mut S, G) + Sync,
    C: Fn(&mut S, &mut Staged) + Sync,
{
    /// Starts a worker for each job ready, up to one per thread.
    fn start_workers<'s>(&'s self, scope: &rayon::Scope<'s>, plan: &mut Plan) {
        let more = plan.ready().min(plan.threads - plan.workers);
        plan.workers += more;
        for _ in 0..more {
            scope.spawn(move |scope| self.work(scope));
        }
    }

    /// A worker: takes jobs until none is ready. Taking none and leaving
    /// happen under one lock, so a job made ready meanwhile starts a worker.
    fn work<'s>(&'s self, scope: &rayon::Scope<'s>) {
        let mut plan = locked(&self.plan);
        while let Some(job) = plan.take() {
            self.start_workers(scope, &mut plan);
            drop(plan);
            let done = self.run(job);
            plan = locked(&self.plan);
            plan.record(done);
        }
        plan.workers -= 1;
    }

    /// Does `job`.
    fn run(&self, job: Job) -> Done {
        match job {
            Job::Apply(r) => {
                let copy = locked(&self.copies[r % 2]);
                let mut on = self.on.write().unwrap_or_else(PoisonError::into_inner);
                copy.apply(&mut on);
                Done::Applied
            }
            Job::Learn { game, ends } => {
                let played = locked(&self.games[game as usize])
                    .take()
                    .expect("a game is learned once, after it is played");
                let mut learner = locked(&self.learner);
                (self.learn)(&mut learner, played);
                if let Some(r) = ends {
                    (self.copy)(&mut learner, &mut locked(&self.copies[r % 2]));
                }
                Done::Learned {
                    staged: ends.is_some(),
                }
            }
            Job::Play(g) => {
                let played = {
                    let on = self.on.read().unwrap_or_else(PoisonError::into_inner);
                    (self.play)(&on, self.first + g)
                };
                *locked(&self.games[g as usize]) = Some(played);
                Done::Played(g)
            }
        }
    }
}
