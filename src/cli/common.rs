//! Options shared by the commands that play games.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tune2048::engine::Variant;
use tune2048::heuristic::Weights;
use tune2048::player::lineup::{self, LineupError};
use tune2048::player::{Player, Program};
use tune2048::search::{Budget, Depth, SearchParams, Settings, DEFAULT_PROB_CUTOFF};
use tune2048::selfplay::GameSpec;

/// The weights commands use without `--weights`, relative to the current directory.
pub const DEFAULT_WEIGHTS: &str = "configs/weights/default.ron";
/// A copy built into the binary, used when the file is not found (the
/// binary runs outside a checkout).
const BUILTIN_DEFAULT: &str = include_str!("../../configs/weights/default.ron");

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantName {
    /// Random 2 (or 4 with probability --p4) after every move.
    Classic,
    /// A 2 on a random empty cell before every move (BOJ 28489).
    Twos,
}

#[derive(Debug, Clone, clap::Args)]
pub struct GameOpts {
    /// Game variant.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantName,
    /// Probability that a new tile is a 4 (classic only).
    #[arg(long, default_value_t = 0.1)]
    pub p4: f64,
    /// Search depth in chance layers (0 = greedy), or `auto` for the reference rule.
    #[arg(long, default_value = "1")]
    pub depth: Depth,
    /// Chance nodes less likely than this are scored by the heuristic
    /// (default 0.0001); wins over a --settings file's `prob_cutoff`.
    #[arg(long, allow_negative_numbers = true)]
    pub prob_cutoff: Option<f64>,
    /// Per-move time budget in milliseconds: iterative deepening up to --depth.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "move_nodes")]
    pub move_ms: Option<f64>,
    /// Per-move budget in moves tried: iterative deepening up to --depth that
    /// depends on the position alone, so games replay from their seed.
    #[arg(long)]
    pub move_nodes: Option<u64>,
    /// Stop each game after this many moves.
    #[arg(long)]
    pub move_limit: Option<u32>,
    /// Base seed; game i plays seed derive(seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl GameOpts {
    pub fn variant(&self) -> anyhow::Result<Variant> {
        match self.variant {
            VariantName::Classic => {
                if !(0.0..=1.0).contains(&self.p4) {
                    return Err(super::input_error(format!(
                        "--p4 must be within 0..=1, not {}",
                        self.p4
                    )));
                }
                Ok(Variant::Classic { p4: self.p4 })
            }
            VariantName::Twos => Ok(Variant::Twos),
        }
    }

    /// [`GameOpts::spec`] played with the search settings `file`, where
    /// given; without one, a note on stderr where a settings file lies
    /// beside `network` (`play`, `bank`).
    pub fn spec_with(
        &self,
        file: Option<&Path>,
        network: Option<&Path>,
    ) -> anyhow::Result<GameSpec> {
        let mut spec = self.spec()?;
        match (file, network) {
            (Some(file), _) => {
                Settings::resolve(Some(file), self.prob_cutoff)?.apply(&mut spec.search)
            }
            (None, Some(network)) => note_settings_beside(network),
            (None, None) => {}
        }
        Ok(spec)
    }

    pub fn spec(&self) -> anyhow::Result<GameSpec> {
        let variant = self.variant()?;
        let cutoff = self.prob_cutoff.unwrap_or(DEFAULT_PROB_CUTOFF);
        if let Some(Err(_)) = Settings::check("prob_cutoff", cutoff) {
            return Err(super::input_error(format!(
                "--prob-cutoff must be within 0..1, not {cutoff}"
            )));
        }
        let mut search = SearchParams::new(self.depth, variant);
        search.prob_cutoff = cutoff as f32;
        let move_budget = match self.move_ms {
            Some(ms) if ms.is_finite() && ms > 0.0 => {
                Some(Budget::Time(Duration::from_secs_f64(ms / 1000.0)))
            }
            Some(ms) => {
                return Err(super::input_error(format!(
                    "--move-ms must be positive, not {ms}"
                )))
            }
            None => match self.move_nodes {
                Some(0) => return Err(super::input_error("--move-nodes must be at least 1")),
                nodes => nodes.map(Budget::Nodes),
            },
        };
        Ok(GameSpec {
            variant,
            search,
            move_limit: self.move_limit,
            move_budget,
            clock: None,
        })
    }
}

/// Loads `--weights`, or the default file, or its built-in copy.
pub fn load_weights(path: Option<&Path>, default: &str) -> anyhow::Result<(Weights, String)> {
    if let Some(path) = path {
        return Ok((Weights::load(path)?, path.display().to_string()));
    }
    let default_path = PathBuf::from(default);
    if default_path.exists() {
        return Ok((Weights::load(&default_path)?, default.to_string()));
    }
    Ok((
        Weights::from_ron(BUILTIN_DEFAULT, default)?,
        format!("{default} (built in)"),
    ))
}

/// The positions of `stage` in the bank at `path`, refused unless some are
/// there; the bank's variant must be `variant` where one is given (`None`
/// takes any, where the caller accepts another variant's positions), and
/// `on_variant` words the refusal.
pub fn bank_stage(
    path: &Path,
    stage: &str,
    variant: Option<Variant>,
    on_variant: impl FnOnce(String) -> String,
) -> anyhow::Result<Vec<tune2048::engine::Start>> {
    let (bank, _) = tune2048::bank::Bank::load(path)?;
    if let Some(variant) = variant {
        bank.check_variant(path, variant)
            .map_err(|e| super::input_error(on_variant(e.to_string())))?;
    }
    let starts = bank.stage(stage);
    if starts.is_empty() {
        return Err(super::input_error(format!(
            "{} has no position of stage `{stage}`",
            path.display()
        )));
    }
    Ok(starts)
}

/// Who plays a command's games: built-in players from weights files (with
/// search settings), or external programs with values for their parameters.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlayerOpts {
    /// Search settings of the built-in player (RON: prob_cutoff,
    /// downgrade_at, …; see the players guide), e.g. a run's
    /// best-settings.ron. Given once it applies to every built-in side.
    #[arg(long)]
    pub settings: Vec<PathBuf>,
    /// A learned network (`learn`'s network.nt) scoring the built-in
    /// search's leaves in place of the heuristic; it plays after the
    /// `--weights` players and before the programs, with `--settings` if
    /// given once.
    #[arg(long)]
    pub network: Vec<PathBuf>,
    /// An external player program and its arguments, split on spaces (write
    /// a script for anything that needs quoting), spoken to over the line
    /// protocol; one program per worker thread.
    #[arg(long)]
    pub player: Vec<String>,
    /// Parameter values for a player: a run's best-params.json or best.set.
    /// The i-th `--values` goes with the i-th player, built-in players
    /// (`--weights`) first: `--weights W --values V` plays W with V's values
    /// set on top (terms and settings by name).
    #[arg(long)]
    pub values: Vec<PathBuf>,
    /// The most one decision of an external player may take, in seconds.
    #[arg(long, allow_negative_numbers = true, default_value_t = tune2048::player::external::DEFAULT_DECISION_SECS)]
    pub decision_secs: f64,
    /// The most an external player's start and handshake may take, in seconds.
    #[arg(long, allow_negative_numbers = true, default_value_t = tune2048::player::external::DEFAULT_HANDSHAKE_SECS)]
    pub handshake_secs: f64,
    /// Boards in a line to an external player (protocol version 2, 1 to
    /// 1024): each worker keeps two such lines of games in flight with its
    /// program; 1 speaks version 1, a board a line. The games are the same
    /// either way.
    #[arg(long, default_value_t = tune2048::player::external::DEFAULT_LOCKSTEP)]
    pub lockstep: usize,
}

/// Says on stderr where a search settings file lies beside the network
/// `path` (`six.search.ron` for `six.ntp`), for a command given no
/// `--settings`: it plays without them, as the command says.
pub fn note_settings_beside(path: &Path) {
    let beside = path.with_extension("search.ron");
    if beside.is_file() {
        eprintln!(
            "note: {} holds search settings for this network; play it with them: --settings {}",
            beside.display(),
            beside.display()
        );
    }
}

impl PlayerOpts {
    /// The players: one built-in player per weights file (`weights`, which
    /// come first), then one network player per `--network`, then one
    /// external player per `--player` (built by [`tune2048::player::lineup`]).
    /// Each comes with a label for messages. `cutoff` is `--prob-cutoff`
    /// where given: it wins over the settings files
    /// ([`Settings::resolve`]).
    pub fn players(
        &self,
        weights: &[(Weights, String)],
        cutoff: Option<f64>,
    ) -> anyhow::Result<Vec<(Player, String)>> {
        self.check(weights.len())?;
        let mut players = Vec::new();
        for (i, (w, label)) in weights.iter().enumerate() {
            let file = self.settings.get(i).or(self.settings.first());
            let settings = Settings::resolve(file.map(PathBuf::as_path), cutoff)?;
            let values = self.values.get(i);
            let player =
                lineup::builtin(w, settings, values.map(PathBuf::as_path)).map_err(lineup_error)?;
            let label = match values {
                Some(path) => format!("{label} with {}", path.display()),
                None => label.clone(),
            };
            players.push((player, label));
        }
        for path in &self.network {
            let file = self.settings.first().filter(|_| self.settings.len() == 1);
            if file.is_none() {
                note_settings_beside(path);
            }
            let settings = Settings::resolve(file.map(PathBuf::as_path), cutoff)?;
            let player = lineup::network(path, settings).map_err(lineup_error)?;
            players.push((player, path.display().to_string()));
        }
        for (i, line) in self.player.iter().enumerate() {
            let command: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            if command.is_empty() {
                return Err(super::input_error("--player names no program"));
            }
            let program = Program {
                command,
                decision_secs: self.decision_secs,
                handshake_secs: self.handshake_secs,
                lockstep: self.lockstep,
            };
            let values_file = self.values.get(weights.len() + i);
            let label = match values_file {
                Some(v) => format!("{} with {}", program.name(), v.display()),
                None => program.name(),
            };
            let player = lineup::external(program, values_file.map(PathBuf::as_path))
                .map_err(lineup_error)?;
            players.push((player, label));
        }
        Ok(players)
    }

    /// The flags' counts and ranges, with `weights` built-in players.
    fn check(&self, weights: usize) -> anyhow::Result<()> {
        if !(self.settings.len() <= 1 || self.settings.len() == weights) {
            return Err(super::input_error(format!(
                "give --settings once, or once per --weights ({weights} of them), not {} times",
                self.settings.len()
            )));
        }
        if self.values.len() > weights + self.player.len() {
            return Err(super::input_error(
                "more --values than players: the i-th --values goes with the i-th player",
            ));
        }
        for (secs, flag) in [
            (self.decision_secs, "--decision-secs"),
            (self.handshake_secs, "--handshake-secs"),
        ] {
            if !(secs > 0.0 && secs <= 1e6) {
                return Err(super::input_error(format!(
                    "{flag} must be a positive number of seconds, not {secs}"
                )));
            }
        }
        let max = tune2048::player::external::MAX_BATCH;
        if !(1..=max).contains(&self.lockstep) {
            return Err(super::input_error(format!(
                "--lockstep must be 1 to {max}, not {}",
                self.lockstep
            )));
        }
        Ok(())
    }
}

/// A [`LineupError`] as the command line reports it: bad input exits with
/// code 2, a file that cannot be read with 1.
fn lineup_error(e: LineupError) -> anyhow::Error {
    match e {
        LineupError::Invalid(message) => super::input_error(message),
        LineupError::Read { .. } => anyhow::anyhow!("{e}"),
        LineupError::Values(e) => anyhow::Error::new(e),
        LineupError::Player(e) => anyhow::Error::new(e),
    }
}
