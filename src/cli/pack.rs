//! `tune2048 pack`: a network packed to ship, its weights rounded to a
//! grid and its zeros left out ([`crate::network::packed`]).

use std::path::PathBuf;
use std::process::ExitCode;

use super::input_error;
use crate::atomic_file;
use crate::network::packed::pack;
use crate::network::Network;

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
    let source = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let (packed, packing) = pack(&net, args.step, args.drop, source)
        .map_err(|e| input_error(format!("--step, --drop: {e}")))?;
    // What the file will play: read back, and the largest change a weight took.
    let back = Network::from_bytes(&packed).map_err(|e| anyhow::anyhow!("packed: {e}"))?;
    let moved = net
        .tables()
        .iter()
        .flatten()
        .zip(back.tables().iter().flatten())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
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
    let hash = u64::from_le_bytes(packed[packed.len() - 8..].try_into().expect("8 bytes"));
    println!(
        "{} ({} bytes, {:.1}% of {}; hash {hash:016x})",
        args.out.display(),
        packed.len(),
        100.0 * packed.len() as f64 / bytes.len() as f64,
        args.network.display()
    );
    Ok(ExitCode::SUCCESS)
}
