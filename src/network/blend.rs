//! Blending: the (weighted) mean of networks, weight by weight.
//!
//! A value is a sum of weights, so a blend of the weights scores every
//! board at the blend of the networks' values. The networks need not share
//! every tuple: when each tuple of the others is one of the first's, a
//! table the others lack simply takes nothing from them, and the blend is
//! as fast as the first network.

use super::value::Network;

impl Network {
    /// The mean of `nets` weighted by `shares` (one positive share each;
    /// empty for equal shares), weight by weight: since a value is a sum
    /// of weights, the blend scores every board at the weighted mean of the
    /// networks' values. They must share stages and variant, and each tuple
    /// of the others must be one of the first's; the blend has the first
    /// one's tuples and keeps its training record.
    pub fn blend(nets: &[&Network], shares: &[f64]) -> Result<Network, String> {
        let (first, rest) = nets.split_first().ok_or("nothing to blend")?;
        let shares = if shares.is_empty() {
            vec![1.0; nets.len()]
        } else if shares.len() != nets.len() {
            return Err(format!(
                "{} shares for {} networks: give one share a network",
                shares.len(),
                nets.len()
            ));
        } else if let Some(bad) = shares.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
            return Err(format!("share {bad} is not a positive number"));
        } else {
            shares.to_vec()
        };
        // Where each network's tuples sit among the first's.
        let mut places = vec![(0..first.tuples().len()).collect::<Vec<_>>()];
        for (i, net) in rest.iter().enumerate() {
            let differs = if net.stages() != first.stages() || net.opened() != first.opened() {
                "stages"
            } else if net.trained.variant != first.trained.variant {
                "variant"
            } else {
                let mut place = Vec::with_capacity(net.tuples().len());
                for tuple in net.tuples() {
                    let Some(k) = first.tuples().iter().position(|t| t == tuple) else {
                        let cells: Vec<String> = tuple.iter().map(u8::to_string).collect();
                        return Err(format!(
                            "network {} has tuple {} that network 1 lacks \
                             (network 1's tuples must include every other's)",
                            i + 2,
                            cells.join(",")
                        ));
                    };
                    place.push(k);
                }
                places.push(place);
                continue;
            };
            return Err(format!(
                "network {} has other {differs} than network 1",
                i + 2
            ));
        }
        let width = first.tuples().len();
        let scale = 1.0 / shares.iter().sum::<f64>();
        let mut out = (*first).clone();
        for (t, table) in out.tables_mut().iter_mut().enumerate() {
            let (stage, k) = (t / width, t % width);
            // The tables that add to this one: each network's for tuple k.
            let parts: Vec<(f64, &[f32])> = nets
                .iter()
                .zip(&places)
                .zip(&shares)
                .flat_map(|((net, place), &share)| {
                    let own = place.len();
                    place
                        .iter()
                        .enumerate()
                        .filter(move |&(_, &p)| p == k)
                        .map(move |(j, _)| (share, net.tables()[stage * own + j].as_slice()))
                })
                .collect();
            for (i, w) in table.iter_mut().enumerate() {
                let sum: f64 = parts.iter().map(|(s, part)| s * f64::from(part[i])).sum();
                *w = (sum * scale) as f32;
            }
        }
        Ok(out)
    }
}
