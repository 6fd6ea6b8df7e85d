//! `tune2048 match`: two players of adversarial 2048 play matches (two games
//! from the same opening, roles swapped); prints wins, draws and losses of
//! the first player and the mean difference of defender totals.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tune2048::adversarial::matchplay::{play_matches, MatchResult, MatchSpec, MatchSummary};
use tune2048::adversarial::player::Player;
use tune2048::adversarial::search::{Limits, MAX_PLIES};
use tune2048::adversarial::Rules;

/// The rules of adversarial 2048, as `--rules` names them (`perft` adds
/// the classic game to these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesName {
    /// The attacker places a 2.
    Gpcc2015,
    /// The attacker places a 2 or a 4.
    Gpcc2016,
}

impl RulesName {
    /// The rules this name stands for.
    pub fn rules(self) -> Rules {
        match self {
            RulesName::Gpcc2015 => Rules::Gpcc2015,
            RulesName::Gpcc2016 => Rules::Gpcc2016,
        }
    }
}

/// The flags `match` and `gpcc-referee` share: the rules, the two players
/// (`P`: each command names them its own way) and the matches to play.
#[derive(Debug, clap::Args)]
pub struct MatchArgs<P: clap::Args> {
    #[arg(long, value_enum)]
    pub rules: RulesName,
    #[command(flatten)]
    pub players: P,
    /// Random turns (a placement and a move each) opening every match.
    #[arg(long, default_value_t = 2)]
    pub openings: u32,
    /// Number of matches (two games each).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub matches: u64,
    /// Base seed of the openings; match i opens from derive(seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl<P: clap::Args> MatchArgs<P> {
    /// The matches the flags ask for, each decision searched within `limits`.
    pub fn spec(&self, limits: Limits) -> MatchSpec {
        MatchSpec {
            rules: self.rules.rules(),
            limits,
            opening_turns: self.openings,
            matches: self.matches,
            seed: self.seed,
        }
    }
}

/// `match`'s players: built-in players or files, and their search limits.
#[derive(Debug, clap::Args)]
pub struct Players {
    /// Player A: `score`, `eval1`, `eval2`, a weights file, or a player file
    /// (`Player(defender: "D.ron", attacker: "A.ron")`, paths beside it).
    #[arg(long)]
    pub a: String,
    /// Player B, as for --a.
    #[arg(long)]
    pub b: String,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub series: MatchArgs<Players>,
    /// Print JSON (every match and the summary) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// How far each decision searches: plies, nodes, time, or several.
#[derive(Debug, clap::Args)]
pub struct LimitArgs {
    /// Search depth in plies (each side's move is one ply). With --nodes
    /// or --move-ms: the deepest iteration.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    pub plies: Option<u32>,
    /// Node budget per decision: iterative deepening stops past it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Time budget per decision in milliseconds (not reproducible).
    #[arg(long)]
    pub move_ms: Option<u64>,
}

/// Depth when no limit is given (for a player that has to have one).
pub const DEFAULT_PLIES: u32 = 7;

impl LimitArgs {
    /// The limits, or `None` when no flag gives one. With a node or time
    /// budget and no --plies, deepening goes on to [`MAX_PLIES`].
    pub fn limits(&self) -> Option<Limits> {
        let budget = self.nodes.is_some() || self.move_ms.is_some();
        if !budget && self.plies.is_none() {
            return None;
        }
        Some(Limits {
            plies: self.plies.unwrap_or(MAX_PLIES),
            nodes: self.nodes,
            time: self.move_ms.map(Duration::from_millis),
        })
    }

    /// The limits in words: `7 plies`, or `5000 nodes and 20 ms per decision`.
    pub fn describe(&self) -> String {
        match (self.plies, self.nodes, self.move_ms) {
            (p, None, None) => format!("{} plies", p.unwrap_or(DEFAULT_PLIES)),
            (_, n, t) => {
                let mut parts = Vec::new();
                if let Some(n) = n {
                    parts.push(format!("{n} nodes"));
                }
                if let Some(t) = t {
                    parts.push(format!("{t} ms"));
                }
                format!("{} per decision", parts.join(" and "))
            }
        }
    }
}

/// A report line for one match.
pub fn match_line(r: &MatchResult) -> String {
    format!(
        "match {:>3}: A defends {:>6}, B defends {:>6}: A {:?}",
        r.index, r.a_defends.score, r.b_defends.score, r.verdict
    )
}

/// The two report lines that sum the matches up.
pub fn summary_lines(summary: &MatchSummary) -> [String; 2] {
    let [lo, hi] = summary.win_rate_ci95;
    let [dlo, dhi] = summary.mean_diff_ci95;
    [
        format!(
            "A: {} wins, {} draws, {} losses; score {:.3} (95% CI {lo:.3}..{hi:.3}, draws count half)",
            summary.wins, summary.draws, summary.losses, summary.win_rate
        ),
        format!(
            "mean defender total: A {:.1}, B {:.1}; A − B {:+.1} (95% CI {dlo:+.1}..{dhi:+.1})",
            summary.mean_a_defends, summary.mean_b_defends, summary.mean_diff
        ),
    ]
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let series = &args.series;
    let Players { a, b, limits } = &series.players;
    let load = |flag: &str, spec: &str| {
        Player::load(spec).map_err(|e| {
            super::input_error(format!(
                "{flag} {spec}: not a built-in player (score, eval1, eval2) nor a weights or player file: {e}"
            ))
        })
    };
    let player_a = load("--a", a)?;
    let player_b = load("--b", b)?;
    let Some(search) = limits.limits() else {
        return Err(super::input_error(
            "give a search limit: --plies, --nodes or --move-ms",
        ));
    };
    let spec = series.spec(search);
    let rules = spec.rules;
    let start = Instant::now();
    let results = play_matches(&spec, &player_a, &player_b);
    let summary = MatchSummary::of(&results);
    let elapsed = start.elapsed().as_secs_f64();
    if args.json {
        let out = serde_json::json!({
            "rules": rules.name(),
            "a": a,
            "b": b,
            "plies": limits.plies,
            "nodes": limits.nodes,
            "move_ms": limits.move_ms,
            "opening_turns": series.openings,
            "seed": series.seed,
            "summary": summary,
            "matches": results,
            "elapsed_s": elapsed,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: A = {a} vs B = {b}, {}, {} matches, {} opening turns, seed {}",
        rules.name(),
        limits.describe(),
        summary.matches,
        series.openings,
        series.seed
    );
    for r in &results {
        println!("{}", match_line(r));
    }
    for line in summary_lines(&summary) {
        println!("{line}");
    }
    eprintln!("{elapsed:.1} s");
    Ok(ExitCode::SUCCESS)
}
