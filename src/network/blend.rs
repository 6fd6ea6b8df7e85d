//! Blending: the mean of networks, weight by weight.
//!
//! A value is a sum of weights, so the mean of the weights scores every
//! board at the mean of the networks' values, as fast as one of them.

use super::value::Network;

impl Network {
    /// The mean of `nets`, weight by weight: since a value is a sum of
    /// weights, the blend scores every board at the mean of the networks'
    /// values. They must share tuples, stages and variant; the blend keeps
    /// the first one's training record.
    pub fn blend(nets: &[&Network]) -> Result<Network, String> {
        let (first, rest) = nets.split_first().ok_or("nothing to blend")?;
        for (i, net) in rest.iter().enumerate() {
            let differs = if net.tuples() != first.tuples() {
                "tuples"
            } else if net.stages() != first.stages() || net.opened() != first.opened() {
                "stages"
            } else if net.trained.variant != first.trained.variant {
                "variant"
            } else {
                continue;
            };
            return Err(format!(
                "network {} has other {differs} than network 1",
                i + 2
            ));
        }
        let mut out = (*first).clone();
        let share = 1.0 / nets.len() as f64;
        for (t, table) in out.tables_mut().iter_mut().enumerate() {
            for (i, w) in table.iter_mut().enumerate() {
                let sum: f64 = nets.iter().map(|n| f64::from(n.tables()[t][i])).sum();
                *w = (sum * share) as f32;
            }
        }
        Ok(out)
    }
}
