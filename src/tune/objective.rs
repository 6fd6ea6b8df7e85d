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
        Objective::MeanGain => games.iter().map(|g| g.gained() as f64).collect(),
        Objective::ScoreAllowed => games.iter().map(|g| -(g.record.score as f64)).collect(),
        Objective::ReachNext => games
            .iter()
            .map(|g| f64::from(u8::from(g.record.max_tile >= next_tile(g))))
            .collect(),
        Objective::ScoreQuantile { .. } => return None,
    })
}

/// Twice the largest tile of the game's start (4 for a whole game: the
/// empty board's "largest tile" counts as a 2).
fn next_tile(game: &GameResult) -> u32 {
    let rank = game.start.map_or(1, |s| s.board.max_rank().max(1));
    2 * crate::engine::value_of(rank)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Board, GameRecord, Outcome, Start};
    use crate::search::SearchStats;

    fn game(start: Option<Start>, score: u64, max_tile: u32) -> GameResult {
        GameResult {
            seed: 0,
            start,
            record: GameRecord {
                moves: 10,
                score,
                max_tile,
                fours: 0,
                outcome: Outcome::GameOver,
                board: Board::EMPTY,
            },
            stats: SearchStats::default(),
        }
    }

    #[test]
    fn gains_and_next_tiles_count_from_the_start() {
        // The start holds a 512 (rank 9) and had earned 5000.
        let start = Some(Start {
            board: Board::from_ranks([9, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            score: 5000,
            moves: 300,
        });
        let games = [game(start, 8000, 512), game(start, 12000, 1024)];
        assert_eq!(
            per_game(Objective::MeanGain, &games),
            Some(vec![3000.0, 7000.0])
        );
        assert_eq!(per_game(Objective::ReachNext, &games), Some(vec![0.0, 1.0]));
        let f = fitness(Objective::MeanGain, &games);
        assert_eq!((f.value, f.mean_score), (5000.0, 10000.0));
        let whole = [game(None, 8000, 512)];
        assert_eq!(per_game(Objective::MeanGain, &whole), Some(vec![8000.0]));
    }
}
