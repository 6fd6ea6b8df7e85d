//! `tune2048 pack`: a network packed to ship, its weights rounded to a
//! grid and its zeros left out ([`tune2048::network::packed`]).

use std::path::PathBuf;
use std::process::ExitCode;

use super::input_error;
use tune2048::atomic_file;
use tune2048::network::deltas::Deltas;
use tune2048::network::header::stored_hash;
use tune2048::network::packed::{largest_change, pack};
use tune2048::network::{ErrorSizes, KeepBy, MostLearned, Network, Plan};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The network file to pack (`learn`'s network.nt).
    pub network: PathBuf,
    /// The grid: each weight becomes the nearest multiple of it, and the
    /// weights nearer 0 than half of it are left out.
    #[arg(long, allow_negative_numbers = true)]
    pub step: f32,
    /// Leave out as well every weight nearer 0 than this.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0)]
    pub drop: f32,
    /// Keep at most this many weights: those learning moved most, by the
    /// sums of their errors' sizes in the network's coherence file (a
    /// network learned with --coherence).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub keep: Option<u64>,
    /// How --keep ranks the weights: `sums`, the largest sums of error
    /// sizes (the weights learning moved most), or `impact`, the largest
    /// sum × weight² (what leaving each out costs, over the games that met
    /// it).
    #[arg(long, value_enum, default_value_t = Ranking::Sums, requires = "keep")]
    pub keep_by: Ranking,
    /// With --keep, keep every weight of a table the coherence sums never
    /// met (its sums all 0) as it is, and rank the rest of the count: the
    /// tables a `learn --from` a packed file never reached hold what that
    /// packing chose. Without it, such sums are refused.
    #[arg(long, requires = "keep")]
    pub keep_unmet: bool,
    /// The coherence file for --keep (default: the `coherence-G.tc` beside
    /// the network, G its games).
    #[arg(long, requires = "keep")]
    pub coherence: Option<PathBuf>,
    /// Code each stage after the first as its differences from the stage
    /// before, where that writes fewer weights: a stage split from another
    /// and learned on is written as what learning moved, and a weight --keep
    /// leaves out takes the stage before's value instead of 0. The file is
    /// then in the format `packed 2`.
    #[arg(long)]
    pub stage_deltas: bool,
    /// The packed file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// `--keep-by`: the library's [`KeepBy`], by name.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Ranking {
    /// The largest sums: the weights learning moved most.
    Sums,
    /// The largest sum × weight² (on the grid): what leaving each out
    /// would cost, summed over the games that met it.
    Impact,
}

impl From<Ranking> for KeepBy {
    fn from(r: Ranking) -> KeepBy {
        match r {
            Ranking::Sums => KeepBy::Sums,
            Ranking::Impact => KeepBy::Impact,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Streamed: a network of nine 6-cell tuples in four stages is 2.4 GB.
    let net = Network::load(&args.network).map_err(input_error)?;
    let cannot_read =
        |e: std::io::Error| input_error(format!("{}: cannot read: {e}", args.network.display()));
    let source = Network::file_hash(&args.network).map_err(cannot_read)?;
    let source_len = std::fs::metadata(&args.network).map_err(cannot_read)?.len();
    let sums = match args.keep {
        Some(count) => Some((count, read_sums(&args, &net)?)),
        None => None,
    };
    let plan = Plan {
        step: args.step,
        drop: args.drop,
        most_learned: sums.as_ref().map(|(count, (hash, sums))| {
            let count = usize::try_from(*count).unwrap_or(usize::MAX);
            let most = MostLearned {
                count,
                sums: *hash,
                by: args.keep_by.into(),
                unmet: args.keep_unmet,
            };
            (most, sums)
        }),
        stage_deltas: args.stage_deltas,
    };
    let (packed, packing) = pack(&net, plan, source)
        .map_err(|e| input_error(format!("--step, --drop, --keep, --stage-deltas: {e}")))?;
    // What the file will play: read back, and the largest change a weight took.
    let back = Network::from_bytes(&packed).map_err(|e| anyhow::anyhow!("packed: {e}"))?;
    let moved = largest_change(&net, &back);
    atomic_file::write(&args.out, &packed)
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", args.out.display()))?;
    let nonzero = net.tables().iter().flatten().filter(|w| **w != 0.0).count();
    eprintln!(
        "kept {} of {} weights ({} were not 0); the largest change to a weight is {moved} \
         (at most {} for a step of {}, more where --drop or --keep left a weight out)",
        packing.kept,
        net.weight_count(),
        nonzero,
        args.step / 2.0,
        args.step
    );
    if args.stage_deltas {
        eprintln!("{}", deltas_line(packing.deltas));
    }
    println!(
        "{} ({} bytes, {:.1}% of {}; hash {:016x})",
        args.out.display(),
        packed.len(),
        100.0 * packed.len() as f64 / source_len as f64,
        args.network.display(),
        stored_hash(&packed)
    );
    Ok(ExitCode::SUCCESS)
}

/// What `--stage-deltas` chose.
fn deltas_line(deltas: Deltas) -> String {
    match deltas.is_empty() {
        true => "no stage differs from the stage before in fewer weights than it has: each \
                 is written alone"
            .into(),
        false => format!(
            "stages {} written as their differences from the stage before",
            deltas.text()
        ),
    }
}

/// The sums of error sizes `--keep` ranks the weights by, with their
/// coherence file's hash: `--coherence`, or the file a learning folder
/// keeps beside `net`.
fn read_sums(args: &Args, net: &Network) -> anyhow::Result<(u64, ErrorSizes)> {
    let games = net.trained.games;
    let path = args.coherence.clone().unwrap_or_else(|| {
        let dir = args.network.parent().unwrap_or(std::path::Path::new(""));
        dir.join(format!("coherence-{games}.tc"))
    });
    if !net.trained.method.coherence && args.coherence.is_none() {
        return Err(input_error(format!(
            "--keep: {} did not learn with temporal coherence, so it has no coherence \
             sums to rank its weights by (use --drop, or name a sums file with --coherence)",
            args.network.display()
        )));
    }
    let file = std::fs::File::open(&path)
        .map_err(|e| input_error(format!("--keep: {}: cannot read: {e}", path.display())))?;
    let (covered, hash, sizes) = ErrorSizes::read(std::io::BufReader::new(file), net)
        .map_err(|e| input_error(format!("{}: {e}", path.display())))?;
    if covered != games {
        return Err(input_error(format!(
            "{}: the sums of {covered} games, but {} learned {games}: pack a network \
             with the sums saved beside it",
            path.display(),
            args.network.display()
        )));
    }
    Ok((hash, sizes))
}
