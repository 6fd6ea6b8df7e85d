//! Ask/tell over the `cmaes` crate, which only steps a generation through a
//! callback per point.
//!
//! The crate's generation step ([`cmaes::CMAES::next_parallel`]) runs on a thread of
//! its own, inside a rayon pool of exactly λ threads. Each of the λ callbacks
//! hands its point to the driver and blocks until its fitness comes back, so
//! the driver holds the whole generation at once: [`AskTell::ask`] returns
//! every point, [`AskTell::tell`] answers them all and returns the updated
//! distribution.
//!
//! Why λ threads suffice: rayon splits the λ points down to single items
//! (it splits at least log2(λ)+1 times), a thread only ever blocks inside a
//! callback, and a thread not blocked steals the items still queued; so with
//! λ threads every callback starts.
//!
//! The callbacks arrive in no fixed order, so [`AskTell::ask`] sorts the points
//! (lexicographically, by total order): the candidates of a generation are
//! numbered the same way on every run. The crate's update depends only on the
//! points and their values, so this numbering never changes the search.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use cmaes::{CMAESOptions, DVector, Mode, TerminationReason};

/// A point waiting for its fitness, with the way back to its callback.
struct Pending {
    x: Vec<f64>,
    reply: Sender<f64>,
}

/// What the optimizer's thread reports after a generation's update.
struct Stepped {
    mean: Vec<f64>,
    sigma: f64,
    terminated: Vec<TerminationReason>,
}

/// The distribution after a generation, as [`AskTell::tell`] returns it.
#[derive(Clone, Debug, PartialEq)]
pub struct Told {
    /// The new distribution mean (normalized coordinates).
    pub mean: Vec<f64>,
    pub sigma: f64,
    /// The crate's termination criteria met by this generation (empty: go on).
    pub terminated: Vec<TerminationReason>,
}

/// Errors of the ask/tell wrapper.
#[derive(Debug, thiserror::Error)]
pub enum AskTellError {
    #[error("CMA-ES options rejected: {0}")]
    Options(String),
    #[error("could not start the CMA-ES threads: {0}")]
    Threads(String),
    #[error("the CMA-ES thread stopped unexpectedly")]
    Lost,
    #[error("tell got {got} fitness values for {want} points")]
    Count { got: usize, want: usize },
    #[error("tell without ask")]
    NotAsked,
}

/// A CMA-ES instance driven by ask/tell; maximizes.
pub struct AskTell {
    lambda: usize,
    step: Option<Sender<()>>,
    points: Receiver<Pending>,
    stepped: Receiver<Stepped>,
    pending: Vec<Pending>,
    /// A generation was asked and not yet told.
    outstanding: bool,
    thread: Option<JoinHandle<()>>,
}

impl AskTell {
    /// Starts an optimizer at `mean` with step size `sigma0`, population
    /// `lambda` and a fixed seed.
    pub fn new(
        mean: Vec<f64>,
        sigma0: f64,
        lambda: usize,
        seed: u64,
    ) -> Result<AskTell, AskTellError> {
        let (point_tx, points) = mpsc::channel::<Pending>();
        let (step, step_rx) = mpsc::channel::<()>();
        let (stepped_tx, stepped) = mpsc::channel::<Stepped>();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(lambda)
            .thread_name(|i| format!("cmaes-{i}"))
            .build()
            .map_err(|e| AskTellError::Threads(e.to_string()))?;
        let objective = move |x: &DVector<f64>| {
            let (reply, answer) = mpsc::channel();
            let pending = Pending {
                x: x.iter().copied().collect(),
                reply,
            };
            // A closed channel (the driver gave up) answers NaN, which ends
            // the crate's step with InvalidFunctionValue.
            if point_tx.send(pending).is_err() {
                return f64::NAN;
            }
            answer.recv().unwrap_or(f64::NAN)
        };
        let mut cma = CMAESOptions::new(mean, sigma0)
            .mode(Mode::Maximize)
            .population_size(lambda)
            .seed(seed)
            .build(objective)
            .map_err(|e| AskTellError::Options(format!("{e:?}")))?;
        let thread = std::thread::Builder::new()
            .name("cmaes".into())
            .spawn(move || {
                while step_rx.recv().is_ok() {
                    let terminated = pool.install(|| cma.next_parallel());
                    let report = Stepped {
                        mean: cma.mean().iter().copied().collect(),
                        sigma: cma.sigma(),
                        terminated: terminated.map(|t| t.reasons).unwrap_or_default(),
                    };
                    if stepped_tx.send(report).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| AskTellError::Threads(e.to_string()))?;
        Ok(AskTell {
            lambda,
            step: Some(step),
            points,
            stepped,
            pending: Vec::new(),
            outstanding: false,
            thread: Some(thread),
        })
    }

    /// The population size λ.
    pub fn lambda(&self) -> usize {
        self.lambda
    }

    /// The λ points of the next generation, in a fixed (sorted) order.
    pub fn ask(&mut self) -> Result<Vec<Vec<f64>>, AskTellError> {
        if self.outstanding {
            // Abandon the generation asked and never told: its callbacks get
            // NaN, and the crate's (invalid) step is waited for and dropped.
            self.pending.clear();
            self.stepped.recv().map_err(|_| AskTellError::Lost)?;
            self.outstanding = false;
        }
        self.step
            .as_ref()
            .ok_or(AskTellError::Lost)?
            .send(())
            .map_err(|_| AskTellError::Lost)?;
        let mut pending = Vec::with_capacity(self.lambda);
        for _ in 0..self.lambda {
            pending.push(self.points.recv().map_err(|_| AskTellError::Lost)?);
        }
        pending.sort_by(|a, b| {
            a.x.iter()
                .zip(&b.x)
                .map(|(p, q)| p.total_cmp(q))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let points = pending.iter().map(|p| p.x.clone()).collect();
        self.pending = pending;
        self.outstanding = true;
        Ok(points)
    }

    /// Answers the points of the last [`AskTell::ask`], in its order, and
    /// returns the updated distribution.
    pub fn tell(&mut self, fitness: &[f64]) -> Result<Told, AskTellError> {
        if !self.outstanding {
            return Err(AskTellError::NotAsked);
        }
        if fitness.len() != self.pending.len() {
            return Err(AskTellError::Count {
                got: fitness.len(),
                want: self.pending.len(),
            });
        }
        for (p, &f) in self.pending.drain(..).zip(fitness) {
            p.reply.send(f).map_err(|_| AskTellError::Lost)?;
        }
        self.outstanding = false;
        let s = self.stepped.recv().map_err(|_| AskTellError::Lost)?;
        Ok(Told {
            mean: s.mean,
            sigma: s.sigma,
            terminated: s.terminated,
        })
    }
}

impl Drop for AskTell {
    fn drop(&mut self) {
        // Unblock any waiting callback (NaN), then end the optimizer's loop.
        self.pending.clear();
        self.step = None;
        while self.points.try_recv().is_ok() {}
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(x: &[f64]) -> f64 {
        -x.iter().map(|v| (v - 1.5) * (v - 1.5)).sum::<f64>()
    }

    #[test]
    fn ask_tell_equals_the_crates_own_loop() {
        // The crate stepping a plain callback, serially.
        let mut plain = CMAESOptions::new(vec![0.0; 4], 0.7)
            .mode(Mode::Maximize)
            .population_size(7)
            .seed(11)
            .build(|x: &DVector<f64>| sphere(x.as_slice()))
            .unwrap();
        let mut at = AskTell::new(vec![0.0; 4], 0.7, 7, 11).unwrap();
        for _ in 0..15 {
            let stop = plain.next();
            let points = at.ask().unwrap();
            assert_eq!(points.len(), 7);
            let fitness: Vec<f64> = points.iter().map(|x| sphere(x)).collect();
            let told = at.tell(&fitness).unwrap();
            assert_eq!(told.mean, plain.mean().iter().copied().collect::<Vec<_>>());
            assert_eq!(told.sigma, plain.sigma());
            assert_eq!(told.terminated.is_empty(), stop.is_none());
        }
    }

    #[test]
    fn points_come_sorted_and_tell_checks_its_input() {
        let mut at = AskTell::new(vec![0.0; 3], 1.0, 5, 3).unwrap();
        assert!(matches!(at.tell(&[1.0]), Err(AskTellError::NotAsked)));
        let points = at.ask().unwrap();
        assert!(points.windows(2).all(|w| w[0][0] <= w[1][0]));
        assert!(matches!(
            at.tell(&[1.0; 4]),
            Err(AskTellError::Count { got: 4, want: 5 })
        ));
        // Asking again abandons the first generation cleanly.
        let again = at.ask().unwrap();
        assert_eq!(again.len(), 5);
        drop(at);
    }
}
