//! `tune2048 pack`: a network packed to ship, its weights rounded to a
//! grid and its zeros left out ([`tune2048::network::packed`]).

use std::path::PathBuf;
use std::process::ExitCode;

use super::input_error;
use tune2048::atomic_file;
use tune2048::network::header::stored_hash;
use tune2048::network::packed::{largest_change, pack};
use tune2048::network::Network;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The network file to pack (`learn`'s network.nt).
    pub network: PathBuf,
    /// The grid: each weight becomes the nearest multiple of it, and the
    /// weights nearer 0 than half of it are left out.
    #[arg(long)]
    pub step: f32,
    /// Leave out as well every weight nearer 0 than this.
    #[arg(long, default_value_t = 0.0)]
    pub drop: f32,
    /// The packed file to write.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.network)
        .map_err(|e| input_error(format!("{}: cannot read: {e}", args.network.display())))?;
    let net = Network::from_bytes(&bytes)
        .map_err(|e| input_error(format!("{}: {e}", args.network.display())))?;
    let (packed, packing) = pack(&net, args.step, args.drop, stored_hash(&bytes))
        .map_err(|e| input_error(format!("--step, --drop: {e}")))?;
    // What the file will play: read back, and the largest change a weight took.
    let back = Network::from_bytes(&packed).map_err(|e| anyhow::anyhow!("packed: {e}"))?;
    let moved = largest_change(&net, &back);
    atomic_file::write(&args.out, &packed)
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", args.out.display()))?;
    let nonzero = net.tables().iter().flatten().filter(|w| **w != 0.0).count();
    eprintln!(
        "kept {} of {} weights ({} were not 0); the largest change to a weight is {moved} \
         (at most {} for a step of {}, more where --drop left a weight out)",
        packing.kept,
        net.weight_count(),
        nonzero,
        args.step / 2.0,
        args.step
    );
    println!(
        "{} ({} bytes, {:.1}% of {}; hash {:016x})",
        args.out.display(),
        packed.len(),
        100.0 * packed.len() as f64 / bytes.len() as f64,
        args.network.display(),
        stored_hash(&packed)
    );
    Ok(ExitCode::SUCCESS)
}
