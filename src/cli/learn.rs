//! `tune2048 learn`: an n-tuple network learned by temporal differences,
//! in a folder of its own ([`tune2048::network::folder`]): the flags, the
//! network a new run starts from, and what it prints.

use std::path::PathBuf;

use clap::Parser;

use super::input_error;
use tune2048::engine::Variant;
use tune2048::network::learn::{BlockStats, LearnStarts, Lesson, DEFAULT_ALPHA, REACH_TILES};
use tune2048::network::method::{parse_lambda, parse_round, parse_until};
use tune2048::network::tuples::{
    check_tuples, named_tuples, tuples_named_or_listed, widened_tuples,
};
use tune2048::network::{
    parse_stages, stage_sources, stages_text, sums_beside, Boundary, LearningFolder, Network,
};
use tune2048::network::{Coherence, FileHeader};
use tune2048::network::{Method, Schedule};

#[derive(Debug, Parser)]
pub struct Args {
    /// The learning folder (created if missing).
    pub dir: PathBuf,
    /// Learn until the network has learned from this many games in all.
    #[arg(long)]
    pub games: u64,
    /// The tuples: a name (lines-squares, five, six, eight) or cell lists such as
    /// `0,1,2,3 4,5,6,7` (cells 0..16, row by row from the top left).
    #[arg(long, default_value = "lines-squares", conflicts_with = "resume")]
    pub tuples: String,
    /// The learning rate, each game's step toward its targets: 0.1 for a
    /// new network; with `--resume`, the rate the network last learned at
    /// unless given (a run resumed after a crash goes on as it was).
    #[arg(long, allow_negative_numbers = true)]
    pub alpha: Option<f32>,
    /// The run seed every game's seed derives from.
    #[arg(long, default_value_t = 1, conflicts_with = "resume")]
    pub seed: u64,
    /// Games per block: a progress row is written after each.
    #[arg(long, default_value_t = 1000)]
    pub block: u64,
    /// Seconds between saves of the network (and its coherence sums): after
    /// the first block that ends this long after the last save, and after
    /// the last block. 0 saves after every block. A killed run resumes from
    /// the last save, to the same network.
    #[arg(long, allow_negative_numbers = true, default_value_t = 300.0)]
    pub save_secs: f64,
    /// The game learned: classic (a 4 with probability 0.1) or twos (BOJ
    /// 28489: a 2 before every move).
    #[arg(long, value_enum, default_value = "classic", conflicts_with = "resume")]
    pub variant: super::common::VariantName,
    /// Go on with the folder's network (its tuples, variant and seed).
    #[arg(long)]
    pub resume: bool,
    /// A bank (`tune2048 bank`) some games start from instead of the empty
    /// board, to learn a late stage that whole games reach rarely; with
    /// --bank-stage. A resumed run gets the same games only with the same
    /// bank, stage and share.
    #[arg(long, requires = "bank_stage")]
    pub bank: Option<PathBuf>,
    /// The bank's stage the games start from.
    #[arg(long, requires = "bank")]
    pub bank_stage: Option<String>,
    /// The share of games that start from the bank, in (0, 1].
    #[arg(
        long,
        allow_negative_numbers = true,
        default_value_t = 0.5,
        requires = "bank"
    )]
    pub bank_share: f64,
    /// Start from this network (a full or packed file) instead of an empty
    /// one: its tuples, variant, seed and games so far, its rate unless
    /// --alpha says otherwise; with --coherence, the coherence sums of its
    /// learning folder where they lie beside it (`coherence-G.tc`), else
    /// every weight's rate starts at 1.
    #[arg(long, conflicts_with_all = ["resume", "tuples", "seed", "variant"])]
    pub from: Option<PathBuf>,
    /// With --from: tuples added to that network's (cell lists, or a name of
    /// --tuples less those it has), each with a table of zeros in every
    /// stage, so the wider network starts scoring every board as the
    /// `--from` one does; with --coherence their weights start at rate 1.
    #[arg(long, requires = "from")]
    pub add_tuples: Option<String>,
    /// Split the network into stages by its largest tile, each with tables
    /// of its own: `16384`, or up to 3 ascending tiles; `16384+8192` asks
    /// for a second tile beside the largest (`16384,16384+8192`: the first
    /// 16384, then 16384 with 8192), `16384+8192+4096` for a third too.
    /// With --from, each stage starts as a
    /// copy of the stage of that network that scored its boards; a network
    /// split already splits further when its boundaries are all named again
    /// (`--from` a network of `16384` with `16384,16384+8192`).
    #[arg(long, conflicts_with = "resume")]
    pub stages: Option<String>,
    /// With --stages on a new network: the first stage alone in use at
    /// first; each later stage starts as a copy of the one before when
    /// learning first reaches it (until then its boards are scored by the
    /// last stage in use).
    #[arg(long, requires = "stages", conflicts_with_all = ["resume", "from"])]
    pub promote: bool,
    /// TD(λ): the trace decay in [0, 1), how much of a game's actual points
    /// each target carries back (0: TD(0)). With --resume, any of --lambda,
    /// --coherence, --restarts, --lookahead, --until and --rounds replaces
    /// the folder's method as a whole; without them the run goes on with the
    /// method it had.
    #[arg(long)]
    pub lambda: Option<String>,
    /// Temporal coherence: each weight's rate from its own past errors
    /// (use with --alpha 1.0).
    #[arg(long)]
    pub coherence: bool,
    /// Restarts: go on from the middle of every game until a game is
    /// short, so the late game is learned from more often.
    #[arg(long)]
    pub restarts: bool,
    /// Lookahead: learning games choose each move one chance layer deep
    /// (the best expected move after each spawn), as a depth-1 search on the
    /// network would, a move costing about 11 greedy ones; what is learned
    /// from is still each move's afterstate.
    #[arg(long)]
    pub lookahead: bool,
    /// Stop tile: learning games (and restarts) stop at their first
    /// afterstate holding this tile or a larger one, a power of two from 8
    /// to 32768. That afterstate's value is read as where the game would go
    /// on from, and never learned: with a stage from this tile on
    /// (`--stages 16384` and `--until 16384`), the stages below it learn and
    /// those from it stay as they were.
    #[arg(long)]
    pub until: Option<String>,
    /// Rounds of this many games, played on every thread: the network then
    /// depends on the round but never on the thread count. A block must be
    /// a whole number of rounds. Without it, games are played one after
    /// another on one thread.
    #[arg(long)]
    pub rounds: Option<String>,
    /// Worker threads for rounds (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Optimistic start: every board of a new network is worth this much
    /// at first (e.g. 320000), so unseen boards look good to greedy play.
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["resume", "from"])]
    pub optimistic: Option<f32>,
}

impl Args {
    /// Whether a method flag was given.
    fn names_method(&self) -> bool {
        self.lambda.is_some()
            || self.coherence
            || self.restarts
            || self.lookahead
            || self.until.is_some()
            || self.rounds.is_some()
    }

    /// The game `--variant` names.
    fn variant(&self) -> Variant {
        match self.variant {
            super::common::VariantName::Classic => Variant::CLASSIC,
            super::common::VariantName::Twos => Variant::Twos,
        }
    }

    /// The method the flags name.
    fn method(&self) -> anyhow::Result<Method> {
        let lambda = match &self.lambda {
            Some(text) => parse_lambda(text).map_err(|e| input_error(format!("--lambda: {e}")))?,
            None => 0.0,
        };
        let schedule = match &self.rounds {
            Some(text) => Schedule::Rounds(
                parse_round(text).map_err(|e| input_error(format!("--rounds: {e}")))?,
            ),
            None => Schedule::Sequential,
        };
        let until = match &self.until {
            Some(text) => {
                Some(parse_until(text).map_err(|e| input_error(format!("--until: {e}")))?)
            }
            None => None,
        };
        Ok(Method {
            lambda,
            coherence: self.coherence,
            restarts: self.restarts,
            lookahead: self.lookahead,
            until,
            schedule,
        })
    }
}

/// The starts `--bank`, `--bank-stage` and `--bank-share` name, checked
/// against the network's variant.
fn learn_starts(args: &Args, variant: Variant) -> anyhow::Result<Option<LearnStarts>> {
    let (Some(path), Some(stage)) = (&args.bank, &args.bank_stage) else {
        return Ok(None);
    };
    if !(args.bank_share > 0.0 && args.bank_share <= 1.0) {
        return Err(input_error(format!(
            "--bank-share must be in (0, 1], not {}",
            args.bank_share
        )));
    }
    let positions = super::common::bank_stage(path, stage, Some(variant), |e| e)?;
    Ok(Some(LearnStarts {
        positions,
        share: args.bank_share,
    }))
}

/// A new run's network and, with --coherence, the sums it starts with.
struct Start {
    net: Network,
    /// `None`: the folder's rule ([`LearningFolder::coherence`]).
    sums: Option<Coherence>,
}

/// The network a new run starts from: `--from`'s (with its folder's
/// coherence sums), or a new one of `--tuples`, `--variant` and `--seed`;
/// split at `--stages` where given.
fn new_network(args: &Args, stages: Vec<Boundary>) -> anyhow::Result<Start> {
    if let Some(from) = &args.from {
        let net = Network::load(from).map_err(input_error)?;
        let sums = if args.coherence {
            Some(carried_sums(from, &net)?)
        } else {
            None
        };
        let (mut net, mut sums) = (net, sums);
        if !stages.is_empty() {
            let sources = stage_sources(net.stages(), &stages)
                .map_err(|e| input_error(format!("{}: {e}", from.display())))?;
            sums = sums.map(|s| s.split(&sources));
            net = net
                .split(stages)
                .map_err(|e| input_error(format!("{}: {e}", from.display())))?;
        }
        if let Some(extra) = added_tuples(args, net.tuples())? {
            sums = sums.map(|s| s.widen(net.tuples().len(), &extra));
            net = net.widen(&extra).map_err(add_tuples_error)?;
        }
        return Ok(Start { net, sums });
    }
    let tuples =
        tuples_named_or_listed(&args.tuples).map_err(|e| input_error(format!("--tuples: {e}")))?;
    let alpha = args.alpha.unwrap_or(DEFAULT_ALPHA);
    let mut net = Network::new(tuples, args.variant(), args.seed, alpha)
        .map_err(|e| input_error(format!("--tuples: {e}")))?;
    net.set_stages(stages);
    if args.promote {
        net.close_later_stages();
    }
    if let Some(value) = args.optimistic {
        net.fill(value / net.lookups() as f32);
    }
    Ok(Start { net, sums: None })
}

/// The tuples `--add-tuples` adds to a network of `own` tuples, checked
/// against them (`None` without the flag). A name of `--tuples` adds those
/// of its tuples the network lacks.
fn added_tuples(args: &Args, own: &[Vec<u8>]) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
    let Some(text) = &args.add_tuples else {
        return Ok(None);
    };
    let named = named_tuples(text).map(|t| t.into_iter().filter(|t| !own.contains(t)).collect());
    let extra = match named {
        Some(extra) => extra,
        None => tuples_named_or_listed(text).map_err(add_tuples_error)?,
    };
    widened_tuples(own, &extra).map_err(add_tuples_error)?;
    Ok(Some(extra))
}

/// An `--add-tuples` problem as the input error it is.
fn add_tuples_error(e: impl std::fmt::Display) -> anyhow::Error {
    input_error(format!("--add-tuples: {e}"))
}

/// What a new run asks, checked whole before its folder is made, so that a
/// refused run leaves nothing behind.
struct NewRun {
    /// `--stages`, parsed.
    stages: Vec<Boundary>,
    /// The bank's positions it starts from, read.
    starts: Option<LearnStarts>,
}

/// Checks a new run's `--stages`, tuples or `--from` header, method and
/// bank.
fn check_new_run(args: &Args) -> anyhow::Result<NewRun> {
    let stages = match &args.stages {
        Some(text) => parse_stages(text).map_err(|e| input_error(format!("--stages: {e}")))?,
        None => Vec::new(),
    };
    let variant = match &args.from {
        Some(from) => {
            let head = check_source(args, from, &stages)?;
            added_tuples(args, &head.tuples)?;
            head.trained.variant
        }
        None => {
            tuples_named_or_listed(&args.tuples)
                .and_then(|tuples| check_tuples(&tuples))
                .map_err(|e| input_error(format!("--tuples: {e}")))?;
            args.variant()
        }
    };
    let method = check_method(args, args.method()?)?;
    let starts = learn_starts(args, variant)?;
    check_stop(args, method, starts.as_ref())?;
    Ok(NewRun { stages, starts })
}

/// Refuses a stop tile that a bank's positions hold already: their games
/// would stop at their first move and learn nothing.
fn check_stop(args: &Args, method: Method, starts: Option<&LearnStarts>) -> anyhow::Result<()> {
    let (Some(tile), Some(starts), Some(path)) = (method.until, starts, &args.bank) else {
        return Ok(());
    };
    let holding = starts
        .positions
        .iter()
        .filter(|p| tune2048::engine::value_of(p.board.max_rank()) >= tile)
        .count();
    if holding > 0 {
        return Err(input_error(format!(
            "--until {tile}: {holding} of the {} positions of {} hold a {tile} or more already, \
             so their games would stop at their first move",
            starts.positions.len(),
            path.display()
        )));
    }
    Ok(())
}

/// Refuses a `--from` file that cannot serve, from its header alone (a
/// network file may be a gigabyte): one that has learned `--games` already,
/// or one split at boundaries `--stages` does not all name again.
fn check_source(
    args: &Args,
    from: &std::path::Path,
    stages: &[Boundary],
) -> anyhow::Result<FileHeader> {
    let head = Network::load_header(from).map_err(input_error)?;
    if head.trained.games >= args.games {
        return Err(input_error(format!(
            "{}: the network has learned from {} games already, so --games {} leaves nothing to \
             learn",
            from.display(),
            head.trained.games,
            args.games
        )));
    }
    if !stages.is_empty() {
        stage_sources(&head.stages, stages)
            .map_err(|e| input_error(format!("{}: {e}", from.display())))?;
    }
    Ok(head)
}

/// The coherence sums a run from `from` starts with: those its learning
/// folder left beside it where it learned with coherence, else new ones
/// (said on stderr, as every weight's rate starts at 1 then).
fn carried_sums(from: &std::path::Path, net: &Network) -> anyhow::Result<Coherence> {
    if net.trained.method.coherence && net.trained.games > 0 {
        if let Some(sums) = sums_beside(from, net).map_err(input_error)? {
            eprintln!(
                "coherence sums of its {} games from beside {}",
                net.trained.games,
                from.display()
            );
            return Ok(sums);
        }
        eprintln!(
            "no coherence sums beside {} (coherence-{}.tc): every weight's rate starts at 1",
            from.display(),
            net.trained.games
        );
    }
    Ok(Coherence::new(net))
}

/// The method a run learns with: the folder's on a plain `--resume`, else
/// the flags'; checked against `--block` and `--threads`.
fn run_method(args: &Args, net: &Network) -> anyhow::Result<Method> {
    let method = if args.resume && !args.names_method() {
        net.trained.method
    } else {
        args.method()?
    };
    check_method(args, method)
}

/// Refuses `method` where `--block` is not a whole number of its rounds, and
/// `--threads 0`.
fn check_method(args: &Args, method: Method) -> anyhow::Result<Method> {
    let round = method.schedule.round();
    if !args.block.is_multiple_of(round) {
        return Err(input_error(format!(
            "--block {} is not a whole number of rounds of {round} games",
            args.block
        )));
    }
    if args.threads == Some(0) {
        return Err(input_error("--threads must be at least 1"));
    }
    Ok(method)
}

/// The line that says what a run is about to learn.
fn announce(net: &Network, to: u64, alpha: f32, method: Method) {
    let stages = match net.stages() {
        [] => String::new(),
        s if net.all_opened() => format!(", stages at {}", stages_text(s)),
        s => format!(
            ", stages at {}, {} in use and the rest promoted as reached",
            stages_text(s),
            net.opened()
        ),
    };
    eprintln!(
        "learning {} weights ({} tuples{stages}) in the {} game from game {} to {to}, alpha \
         {alpha}, seed {}, method: {}",
        net.weight_count(),
        net.tuples().len(),
        net.trained.variant.name(),
        net.trained.games,
        net.trained.seed,
        method.text()
    );
}

/// A block's line on stderr.
fn report_block(stats: &BlockStats, seconds: f64, saved: bool) {
    let reach = REACH_TILES
        .iter()
        .zip(stats.reached)
        .map(|(t, n)| format!("{t}: {:.1}%", 100.0 * n as f64 / stats.block as f64))
        .collect::<Vec<_>>()
        .join(", ");
    eprintln!(
        "games {:>8}  mean {:>9.0}  max {:>7}  {reach}  ({:.1} games/s, {:.0} moves/s){}",
        stats.games,
        stats.mean_score,
        stats.max_score,
        stats.block as f64 / seconds,
        stats.moves as f64 / seconds,
        if saved { "  saved" } else { "" }
    );
}

/// Refuses `--alpha`, `--block`, `--save-secs` and `--optimistic` out of
/// their ranges.
fn check_flags(args: &Args) -> anyhow::Result<()> {
    if let Some(alpha) = args.alpha.filter(|a| !(*a > 0.0 && a.is_finite())) {
        return Err(input_error(format!(
            "--alpha must be a positive number, not {alpha}"
        )));
    }
    if args.block == 0 {
        return Err(input_error("--block must be at least 1"));
    }
    if !(args.save_secs >= 0.0 && args.save_secs <= 1e9) {
        return Err(input_error(format!(
            "--save-secs must be a number of seconds from 0 to 1e9, not {}",
            args.save_secs
        )));
    }
    if let Some(value) = args.optimistic.filter(|v| !(v.is_finite() && *v >= 0.0)) {
        return Err(input_error(format!(
            "--optimistic must be 0 or a positive number, not {value}"
        )));
    }
    Ok(())
}

/// `tune2048 learn`: what a run asks is checked, then it learns in its folder
/// to `--games`, saving as it goes.
pub fn run(args: Args) -> anyhow::Result<std::process::ExitCode> {
    check_flags(&args)?;
    let new_run = if args.resume {
        None
    } else {
        Some(check_new_run(&args)?)
    };
    let mut folder = LearningFolder::open(&args.dir)?;
    let (Start { mut net, sums }, starts) = match new_run {
        None => {
            let net = folder.resume()?;
            let starts = learn_starts(&args, net.trained.variant)?;
            (Start { net, sums: None }, starts)
        }
        Some(NewRun { stages, starts }) => {
            folder.check_empty()?;
            (new_network(&args, stages)?, starts)
        }
    };
    let alpha = args.alpha.unwrap_or(net.trained.alpha);
    let method = run_method(&args, &net)?;
    check_stop(&args, method, starts.as_ref())?;
    if net.trained.games >= args.games {
        eprintln!(
            "{}: the network has learned from {} games already (--games {})",
            args.dir.display(),
            net.trained.games,
            args.games
        );
        return Ok(std::process::ExitCode::SUCCESS);
    }
    announce(&net, args.games, alpha, method);
    if let (Some(starts), Some(path), Some(stage)) = (&starts, &args.bank, &args.bank_stage) {
        eprintln!(
            "{:.0}% of the games start from the {} positions of stage {stage} in {}",
            100.0 * starts.share,
            starts.positions.len(),
            path.display()
        );
    }
    let lesson = Lesson {
        method,
        alpha,
        block: args.block,
        starts: starts.as_ref(),
    };
    let coherence = match sums {
        Some(sums) => Some(sums),
        None => folder.coherence(&net, &lesson)?,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let save_every = std::time::Duration::from_secs_f64(args.save_secs);
    pool.install(|| {
        folder.learn(
            &mut net,
            coherence,
            &lesson,
            args.games,
            save_every,
            report_block,
        )
    })?;
    println!(
        "{} ({} games, hash {:016x})",
        folder.network_path().display(),
        net.trained.games,
        folder.network_hash()?
    );
    Ok(std::process::ExitCode::SUCCESS)
}
