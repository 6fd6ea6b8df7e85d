//! Why a run stops: the config's rules checked against where the run stands.

use serde::{Deserialize, Serialize};

use super::config::StopRules;

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Generations,
    TotalGames,
    TargetFitness,
    Stagnation,
    WallTime,
    /// The optimizer converged or gave up and no restart was left.
    Converged,
    /// Ctrl-C: the generation in progress was finished and saved.
    Interrupted,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Generations => "generation limit reached",
            StopReason::TotalGames => "game budget spent",
            StopReason::TargetFitness => "target fitness reached",
            StopReason::Stagnation => "no validated improvement for too long",
            StopReason::WallTime => "wall-time budget spent",
            StopReason::Converged => "optimizer converged",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// Where a run stands after a generation, as the stop rules see it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    /// Generations finished, over all restarts.
    pub generations: u32,
    /// Games played, validation included.
    pub games: u64,
    /// This generation's judged fitness (its validation, else its best candidate).
    pub judged: f64,
    /// Generations since the best judged fitness last improved.
    pub since_improvement: u32,
    pub elapsed_s: f64,
    /// Ctrl-C was pressed.
    pub interrupted: bool,
}

impl StopRules {
    /// The first rule the standing meets, in the order the fields are listed;
    /// an interruption comes after every rule.
    pub fn check(&self, s: &Standing) -> Option<StopReason> {
        let met = [
            (
                self.generations.is_some_and(|g| s.generations >= g),
                StopReason::Generations,
            ),
            (
                self.total_games.is_some_and(|g| s.games >= g),
                StopReason::TotalGames,
            ),
            (
                self.target_fitness.is_some_and(|t| s.judged >= t),
                StopReason::TargetFitness,
            ),
            (
                self.stagnation.is_some_and(|n| s.since_improvement >= n),
                StopReason::Stagnation,
            ),
            (
                self.wall_seconds.is_some_and(|w| s.elapsed_s >= w),
                StopReason::WallTime,
            ),
            (s.interrupted, StopReason::Interrupted),
        ];
        met.into_iter()
            .find_map(|(hit, reason)| hit.then_some(reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rule_met_wins_and_an_interruption_comes_last() {
        let rules = StopRules {
            generations: Some(10),
            total_games: Some(1000),
            target_fitness: Some(5.0),
            stagnation: Some(3),
            wall_seconds: Some(60.0),
        };
        let mut s = Standing::default();
        assert_eq!(rules.check(&s), None);
        s.interrupted = true;
        assert_eq!(rules.check(&s), Some(StopReason::Interrupted));
        s.elapsed_s = 60.0;
        assert_eq!(rules.check(&s), Some(StopReason::WallTime));
        s.since_improvement = 3;
        assert_eq!(rules.check(&s), Some(StopReason::Stagnation));
        s.judged = 5.0;
        assert_eq!(rules.check(&s), Some(StopReason::TargetFitness));
        s.games = 1000;
        assert_eq!(rules.check(&s), Some(StopReason::TotalGames));
        s.generations = 10;
        assert_eq!(rules.check(&s), Some(StopReason::Generations));
        assert_eq!(StopRules::default().check(&Standing::default()), None);
    }
}
