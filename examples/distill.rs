//! An experiment: tune weights so that a depth-3 search plays the moves a
//! deeper search (the teacher) would, on a bank's positions, instead of
//! tuning on games. The fitness is the teacher's regret of the student's
//! moves, each relative to the teacher's best value at that position: no game
//! is played while tuning, so a candidate's fitness has no game-to-game noise.
//! Whether the tuned weights then play better is for `tune2048 compare`.
//! docs/src/results/ordered.md gives what it found.
//!
//! ```sh
//! cargo run --release --example distill -- BANK.csv TEACHER.ron TEACHER_DEPTH \
//!     STUDENT.ron POSITIONS GENERATIONS OUT.ron [ordered]
//! ```
//!
//! The positions are those of the bank holding a 2048 or more, taken evenly
//! until there are POSITIONS of them. CMA-ES (λ = 12, σ0 = 0.15, seed 7) tunes
//! the eight reference multipliers and three powers of STUDENT as multiples
//! of their start values; with `ordered`, the five ordered-line coefficients
//! and the dead-end cost too, in units of 0.3 and 1. Each generation's mean
//! is written to OUT.ron (whole, through a temporary name).

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context};
use cmaes::{CMAESOptions, DVector, Mode};
use rayon::prelude::*;
use tune2048::bank::Bank;
use tune2048::engine::{Board, Direction, Variant};
use tune2048::heuristic::{Heuristic, Weights};
use tune2048::search::{Depth, SearchParams, Searcher};

/// The depth the student is tuned for.
const STUDENT_DEPTH: u32 = 3;

/// The reference terms, tuned as multiples of their start values.
const MULTIPLIED: [&str; 11] = [
    "lost_penalty",
    "empty",
    "merges",
    "monotonicity",
    "monotonicity_power",
    "sum",
    "sum_power",
    "smoothness",
    "edge",
    "corner",
    "edge_power",
];

/// The widened family's terms, tuned as values in units of the scale.
const SCALED: [(&str, f64); 6] = [
    ("ordered_head", 0.3),
    ("ordered_right", 0.3),
    ("ordered_equal", 0.3),
    ("ordered_wrong", 0.3),
    ("ordered_gap", 0.3),
    ("dead_end", 1.0),
];

/// A position with the teacher's regret of each move, relative to its best
/// value (+∞ for a move that does not change the board).
struct Labelled {
    board: Board,
    regret: [f64; 4],
}

/// What CMA-ES tunes, and how a point maps to weights.
struct Family {
    start: Weights,
    scaled: &'static [(&'static str, f64)],
}

impl Family {
    fn start_point(&self) -> Vec<f64> {
        let scaled = self
            .scaled
            .iter()
            .map(|&(name, scale)| self.start.get(name).expect("a weight's name") / scale);
        std::iter::repeat_n(1.0, MULTIPLIED.len())
            .chain(scaled)
            .collect()
    }

    fn weights(&self, x: &[f64]) -> Weights {
        let mut w = self.start.clone();
        for (name, m) in MULTIPLIED.iter().zip(x) {
            w.set(name, self.start.get(name).expect("a weight's name") * m)
                .expect("a weight's name");
        }
        for (&(name, scale), v) in self.scaled.iter().zip(&x[MULTIPLIED.len()..]) {
            // The dead-end cost is a cost: it may not go below 0.
            let v = if name == "dead_end" {
                (scale * v).max(0.0)
            } else {
                scale * v
            };
            w.set(name, v).expect("a weight's name");
        }
        w
    }
}

/// The student's mean relative regret and the share of positions where it
/// plays the teacher's move.
fn regret_of(h: &Heuristic, positions: &[Labelled]) -> (f64, f64) {
    let params = SearchParams::new(Depth::Fixed(STUDENT_DEPTH), Variant::CLASSIC);
    let (sum, agree) = positions
        .par_iter()
        .map_init(
            || Searcher::new(18),
            |s, p| {
                let d = s
                    .decide_to(h, p.board, &params, STUDENT_DEPTH)
                    .expect("the bank's positions have a legal move");
                let k = Direction::ALL.iter().position(|&x| x == d.dir).unwrap();
                (p.regret[k], f64::from(u8::from(p.regret[k] == 0.0)))
            },
        )
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let n = positions.len() as f64;
    (sum / n, agree / n)
}

fn label(teacher: &Heuristic, depth: u32, boards: &[Board]) -> Vec<Labelled> {
    let params = SearchParams::new(Depth::Fixed(depth), Variant::CLASSIC);
    boards
        .par_iter()
        .map_init(
            || Searcher::new(22),
            |s, &board| {
                let values = s.move_values(teacher, board, &params, depth);
                let best = values
                    .iter()
                    .flatten()
                    .fold(f32::NEG_INFINITY, |a, &b| a.max(b));
                let regret = values.map(|v| match v {
                    Some(v) => f64::from(best - v) / f64::from(best.abs().max(1.0)),
                    None => f64::INFINITY,
                });
                Labelled { board, regret }
            },
        )
        .collect()
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("distill: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(args.len() == 7 || args.len() == 8 && args[7] == "ordered") {
        bail!(
            "usage: distill BANK.csv TEACHER.ron TEACHER_DEPTH STUDENT.ron POSITIONS \
             GENERATIONS OUT.ron [ordered]"
        );
    }
    let number = |k: usize, what: &str| -> anyhow::Result<usize> {
        args[k]
            .parse()
            .with_context(|| format!("{what} must be a whole number, not `{}`", args[k]))
    };
    let (bank, _) = Bank::load(Path::new(&args[0]))?;
    let teacher = Weights::load(Path::new(&args[1]))?;
    let teacher_depth = number(2, "TEACHER_DEPTH")? as u32;
    let student = Weights::load(Path::new(&args[3]))?;
    let wanted = number(4, "POSITIONS")?.max(1);
    let generations = number(5, "GENERATIONS")?;
    let out = Path::new(&args[6]);
    let family = Family {
        start: student,
        scaled: if args.len() == 8 { &SCALED } else { &[] },
    };

    let all: Vec<Board> = bank
        .positions
        .iter()
        .map(|p| p.start.board)
        .filter(|b| b.max_rank() >= 11 && b.has_move())
        .collect();
    let boards: Vec<Board> = all
        .iter()
        .step_by((all.len() / wanted).max(1))
        .take(wanted)
        .copied()
        .collect();
    eprintln!(
        "{} positions of the {} holding 2048 or more",
        boards.len(),
        all.len()
    );

    let clock = Instant::now();
    let teacher = Heuristic::new(&teacher);
    let labelled = label(&teacher, teacher_depth, &boards);
    eprintln!(
        "teacher's values at depth {teacher_depth} in {:.1} s",
        clock.elapsed().as_secs_f64()
    );
    let (regret, agreement) = regret_of(&Heuristic::new(&family.start), &labelled);
    eprintln!("start: regret {regret:.5}, agreement {agreement:.4}");

    let objective = |x: &DVector<f64>| {
        let x: Vec<f64> = x.iter().copied().collect();
        regret_of(&Heuristic::new(&family.weights(&x)), &labelled).0
    };
    let mut cma = CMAESOptions::new(family.start_point(), 0.15)
        .mode(Mode::Minimize)
        .population_size(12)
        .seed(7)
        .build(objective)
        .map_err(|e| anyhow::anyhow!("CMA-ES options rejected: {e:?}"))?;
    for generation in 0..generations {
        let clock = Instant::now();
        let _ = cma.next();
        let mean: Vec<f64> = cma.mean().iter().copied().collect();
        let weights = family.weights(&mean);
        let (regret, agreement) = regret_of(&Heuristic::new(&weights), &labelled);
        eprintln!(
            "generation {generation}: mean's regret {regret:.5}, agreement {agreement:.4}, \
             sigma {:.3}, {:.1} s",
            cma.sigma(),
            clock.elapsed().as_secs_f64()
        );
        tune2048::atomic_file::write(out, weights.to_ron().as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}
