//! Fitness of a batch of games under a config's objective.

use super::config::Objective;
use crate::selfplay::GameResult;
use crate::stats;

/// A fitness with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitness {
    pub value: f64,
    pub ci95: [f64; 2],
    pub mean_score: f64,
}

/// The objective per game, for objectives that are a mean over games
/// (`None` for a quantile).
pub fn per_game(objective: Objective, games: &[GameResult]) -> Option<Vec<f64>> {
    Some(match objective {
        Objective::MeanScore => games.iter().map(|g| g.record.score as f64).collect(),
        Objective::MeanLog2MaxTile => games
            .iter()
            .map(|g| f64::from(g.record.max_tile.max(1)).log2())
            .collect(),
        Objective::Reach { tile } => games
            .iter()
            .map(|g| f64::from(u8::from(g.record.max_tile >= tile)))
            .collect(),
        Objective::ScoreQuantile { .. } => return None,
    })
}

/// The objective's value over `games` (higher is better; never NaN).
pub fn fitness(objective: Objective, games: &[GameResult]) -> Fitness {
    let scores: Vec<f64> = games.iter().map(|g| g.record.score as f64).collect();
    let mean_score = stats::mean(&scores);
    let per_game: Vec<f64> = match (objective, per_game(objective, games)) {
        (_, Some(values)) => values,
        (Objective::ScoreQuantile { q }, None) => {
            let value = stats::quantile(&scores, q);
            // Distribution-free interval from the binomial order statistics.
            let n = scores.len() as f64;
            let half = stats::Z_95 * (q * (1.0 - q) / n).sqrt();
            let ci95 = [
                stats::quantile(&scores, (q - half).max(0.0)),
                stats::quantile(&scores, (q + half).min(1.0)),
            ];
            return Fitness {
                value,
                ci95,
                mean_score,
            };
        }
        (_, None) => unreachable!("only a quantile has no per-game values"),
    };
    let value = stats::mean(&per_game);
    let ci95 = if per_game.len() > 1 {
        stats::mean_ci95(&per_game)
    } else {
        [value, value]
    };
    Fitness {
        value,
        ci95,
        mean_score,
    }
}
