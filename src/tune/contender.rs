//! Contenders for the final choice: reselection against the winner's curse.
//!
//! The best of many noisy validations is biased upwards, so the `top`
//! generations by validation, and the average of the last `top` distribution
//! means, play more games on fresh seeds they all share; the best of those wins.

use std::fmt;

use super::objective::Fitness;

/// A weight vector the final choice may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// One generation's distribution mean.
    Generation(u32),
    /// The average of the distribution means of generations `first..=last`.
    MeanOf { first: u32, last: u32 },
}

impl Contender {
    /// The generation whose weights these are (for an average, the last).
    pub fn generation(self) -> u32 {
        match self {
            Contender::Generation(g) => g,
            Contender::MeanOf { last, .. } => last,
        }
    }
}

impl fmt::Display for Contender {
    /// The journal's label: "generation 12", "mean of generations 20..=22".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Generation(g) => write!(f, "generation {g}"),
            Contender::MeanOf { first, last } => write!(f, "mean of generations {first}..={last}"),
        }
    }
}

/// A generation's validated distribution mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Validated {
    pub generation: u32,
    pub restart: u32,
    pub x: Vec<f64>,
    pub fitness: Fitness,
}

/// A contender with its point and, for one generation, its validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub contender: Contender,
    pub x: Vec<f64>,
    pub validation: Option<Fitness>,
}

/// The `top` generations by validation, then the average of the last `top`
/// distribution means of the last restart (when that spans two or more).
pub fn contenders(history: &[Validated], top: usize) -> Vec<Entry> {
    let mut ranked: Vec<&Validated> = history.iter().collect();
    ranked.sort_by(|a, b| b.fitness.value.total_cmp(&a.fitness.value));
    let mut out: Vec<Entry> = ranked
        .iter()
        .take(top)
        .map(|v| Entry {
            contender: Contender::Generation(v.generation),
            x: v.x.clone(),
            validation: Some(v.fitness),
        })
        .collect();
    let Some(last) = history.last() else {
        return out;
    };
    let tail: Vec<&Validated> = history
        .iter()
        .rev()
        .take_while(|v| v.restart == last.restart)
        .take(top)
        .collect();
    if tail.len() >= 2 {
        let mut x = vec![0.0; last.x.len()];
        for v in &tail {
            for (sum, xi) in x.iter_mut().zip(&v.x) {
                *sum += xi / tail.len() as f64;
            }
        }
        out.push(Entry {
            contender: Contender::MeanOf {
                first: tail.last().expect("two or more").generation,
                last: last.generation,
            },
            x,
            validation: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validated(generation: u32, restart: u32, value: f64) -> Validated {
        Validated {
            generation,
            restart,
            x: vec![f64::from(generation), -f64::from(generation)],
            fitness: Fitness {
                value,
                ci95: [value, value],
                mean_score: value,
            },
        }
    }

    #[test]
    fn contenders_are_the_top_validations_and_the_recent_mean() {
        let history = [
            validated(0, 0, 10.0),
            validated(1, 0, 30.0),
            validated(2, 1, 20.0),
            validated(3, 1, 25.0),
            validated(4, 1, 5.0),
        ];
        let pool = contenders(&history, 2);
        let labels: Vec<String> = pool.iter().map(|c| c.contender.to_string()).collect();
        assert_eq!(
            labels,
            ["generation 1", "generation 3", "mean of generations 3..=4"]
        );
        // The mean averages generations 3 and 4 of the last restart only.
        assert_eq!(pool[2].contender.generation(), 4);
        assert_eq!(pool[2].x, vec![3.5, -3.5]);
        assert!(pool[2].validation.is_none());
        assert_eq!(pool[0].validation.unwrap().value, 30.0);
        // A mean over a single generation would repeat it: left out.
        let pool = contenders(&history[..3], 3);
        assert_eq!(pool.len(), 3);
        assert!(pool
            .iter()
            .all(|c| matches!(c.contender, Contender::Generation(_))));
        assert!(contenders(&[], 3).is_empty());
    }
}
