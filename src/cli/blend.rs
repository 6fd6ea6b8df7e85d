//! `tune2048 blend`: the (weighted) mean of learned networks, weight by
//! weight ([`Network::blend`]): a network that scores every board at the
//! mean of their values, as fast as the first of them.

use std::path::PathBuf;
use std::process::ExitCode;

use super::input_error;
use tune2048::network::Network;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The networks (full or packed files) to blend: two or more, with the
    /// same stages and variant; each tuple of the others must be one of the
    /// first's (the blend has the first's tuples).
    #[arg(num_args = 2.., required = true)]
    pub networks: Vec<PathBuf>,
    /// Each network's share of the mean, in the order given, comma
    /// separated (e.g. `3,1`); positive numbers, scaled to sum to 1.
    /// Default: equal shares.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub shares: Vec<f64>,
    /// The network file to write (full; `pack` it to ship).
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let nets = args
        .networks
        .iter()
        .map(|path| Network::load(path).map_err(input_error))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let refs: Vec<&Network> = nets.iter().collect();
    let blend = Network::blend(&refs, &args.shares).map_err(|e| {
        let names: Vec<String> = args
            .networks
            .iter()
            .enumerate()
            .map(|(i, p)| format!("network {} is {}", i + 1, p.display()))
            .collect();
        input_error(format!("{e} ({})", names.join(", ")))
    })?;
    let cannot_write = |e| anyhow::anyhow!("{}: cannot write: {e}", args.out.display());
    blend.save(&args.out).map_err(cannot_write)?;
    let shares = if args.shares.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = args.shares.iter().map(f64::to_string).collect();
        format!(" in shares {}", list.join(","))
    };
    println!(
        "{}: the mean of {} networks{shares} (hash {:016x})",
        args.out.display(),
        nets.len(),
        Network::file_hash(&args.out).map_err(cannot_write)?
    );
    Ok(ExitCode::SUCCESS)
}
