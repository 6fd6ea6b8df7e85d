//! The problem CMA-ES sees: normalized points, decoded into players, with a
//! penalty for leaving the bounds.
//!
//! CMA-ES searches `x`, one coordinate per tuned parameter, decoded by the
//! parameter's kind ([`super::config::Param::decode`]: `init + scale·x`,
//! `init·scale^x`, or rounded). A value outside `[min, max]` is clamped
//! before any game is played, and the optimizer is charged
//! `penalty_scale · Σ (distance outside, in normalized units)²`, so the mean
//! does not drift past a bound on noise alone.

use std::collections::BTreeMap;

use super::config::TuneConfig;
use crate::player::Player;

/// A point decoded: the clamped values of the tuned parameters, the player
/// they make, and the penalty.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// One value per tuned parameter, in config order, within bounds.
    pub values: Vec<f64>,
    /// The base player with the tuned parameters at `values`.
    pub player: Player,
    /// The tuned terms by name, for the journal.
    pub params: BTreeMap<String, f64>,
    /// The bound penalty, already scaled.
    pub penalty: f64,
}

/// Decoding of points for one config.
pub struct Problem<'a> {
    config: &'a TuneConfig,
    /// Fitness charged per squared normalized unit outside the bounds.
    penalty_scale: f64,
}

impl<'a> Problem<'a> {
    /// `baseline` is the base weights' fitness: leaving the bounds by one
    /// `scale` unit costs as much as it.
    pub fn new(config: &'a TuneConfig, baseline: f64) -> Problem<'a> {
        Problem {
            config,
            penalty_scale: baseline.abs().max(1e-9),
        }
    }

    pub fn config(&self) -> &'a TuneConfig {
        self.config
    }

    pub fn dim(&self) -> usize {
        self.config.params.len()
    }

    pub fn decode(&self, x: &[f64]) -> Decoded {
        let mut penalty = 0.0;
        let values: Vec<f64> = self
            .config
            .params
            .iter()
            .zip(x)
            .map(|(p, &xi)| {
                let (value, outside) = p.decode(xi);
                penalty += outside.powi(2);
                value
            })
            .collect();
        let params = self
            .config
            .params
            .iter()
            .zip(&values)
            .map(|(p, &v)| (p.name.to_string(), v))
            .collect();
        Decoded {
            player: self.config.player_with(&values),
            params,
            values,
            penalty: penalty * self.penalty_scale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn points_inside_the_bounds_cost_nothing_and_outside_cost_quadratically() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/smoke.ron");
        let config = super::super::config::load(&path).unwrap();
        let p = Problem::new(&config, -50.0);
        let empty = config.params[0].clone();
        let inside = p.decode(&[0.0, 0.0]);
        assert_eq!(inside.penalty, 0.0);
        assert_eq!(inside.values[0], empty.init);
        // Two scale units past the upper bound: 2² units × |baseline|.
        let x0 = (empty.max - empty.init) / empty.scale + 2.0;
        let outside = p.decode(&[x0, 0.0]);
        assert_eq!(outside.values[0], empty.max);
        assert!((outside.penalty - 4.0 * 50.0).abs() < 1e-9);
        assert_eq!(outside.player.get("empty"), Some(empty.max));
        assert_eq!(outside.params["empty"], empty.max);
    }
}
