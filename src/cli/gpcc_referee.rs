//! `tune2048 gpcc-referee`: matches of adversarial 2048 between two player
//! programs over the line protocol of [`tune2048::adversarial::protocol`].
//! Each game runs fresh copies of both programs; the openings are those of
//! `tune2048 match` with the same seed, and so is the report. A program that
//! answers late, malformed or illegal, or dies, loses its game (and so the
//! match) with a message naming the game, the player and the line.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::input_error;
use super::matchplay::{match_line, summary_lines, MatchArgs};
use tune2048::adversarial::matchplay::MatchSummary;
use tune2048::adversarial::referee::{referee_match, ProtocolFault, RefereedMatch, Seat, Who};
use tune2048::adversarial::search::Limits;
use tune2048::child::{time_limit, Child, ChildError, Deadline, Stderr};

/// `gpcc-referee`'s players: two programs, and the time each has to answer.
#[derive(Debug, clap::Args)]
pub struct Programs {
    /// Player A's command: a program and its arguments, split on whitespace
    /// (for anything else, write a script).
    #[arg(long)]
    pub a: String,
    /// Player B's command, as for --a.
    #[arg(long)]
    pub b: String,
    /// Time limit per answer in seconds.
    #[arg(long, allow_negative_numbers = true, default_value_t = 10.0)]
    pub time_limit: f64,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub series: MatchArgs<Programs>,
    /// Write every line sent and received to FILE: `A< line` for a line to
    /// A, `A> line` for one from A (the same for B).
    #[arg(long)]
    pub transcript: Option<PathBuf>,
    /// Print JSON (every match with its faults, and the summary) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The transcript file, shared by every seat.
type Transcript = Option<Rc<RefCell<BufWriter<File>>>>;

/// A player program in a game, with its time limit per answer.
struct Program {
    child: Child,
    limit: Duration,
    who: Who,
    transcript: Transcript,
}

impl Program {
    /// Adds a line to the transcript, if there is one (a failed write only
    /// loses the transcript's line, never the game).
    fn log(&self, arrow: char, line: &str) {
        if let Some(t) = &self.transcript {
            let _ = writeln!(t.borrow_mut(), "{:?}{arrow} {line}", self.who);
        }
    }
}

impl Seat for Program {
    type Error = String;

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.log('<', line);
        let deadline = Deadline::after(self.limit);
        self.child
            .send(&format!("{line}\n"), deadline)
            .map_err(|e| e.to_string())
    }

    fn receive(&mut self) -> Result<String, String> {
        let answer = self.child.receive(Deadline::after(self.limit));
        if let Ok(line) = &answer {
            self.log('>', line);
        }
        answer.map_err(|e| match e {
            ChildError::TimedOut(limit) => {
                format!("no answer within {} s", limit.as_secs_f64())
            }
            e => e.unanswered(),
        })
    }
}

/// A program and its arguments from a flag's text.
fn command(flag: &str, text: &str) -> anyhow::Result<Vec<String>> {
    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
    if words.is_empty() {
        return Err(input_error(format!("{flag}: give a command")));
    }
    Ok(words)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let series = &args.series;
    let Programs {
        a,
        b,
        time_limit: seconds,
    } = &series.players;
    let limit = time_limit(*seconds)
        .ok_or_else(|| input_error("--time-limit must be between 0 and 1e9 seconds"))?;
    let programs = [command("--a", a)?, command("--b", b)?];
    let spec = series.spec(Limits::plies(1));
    let transcript = open_transcript(args.transcript.as_deref())?;
    let start = Instant::now();
    let mut seat = |who: Who| {
        let command = &programs[usize::from(who == Who::B)];
        let child = Child::spawn(command, Stderr::Inherit)
            .map_err(|e| input_error(format!("cannot start `{}`: {e}", command[0])))?;
        Ok::<_, anyhow::Error>(Program {
            child,
            limit,
            who,
            transcript: transcript.clone(),
        })
    };
    if !args.json {
        println!(
            "{}: A = {a} vs B = {b}, {} s per answer, {} matches, {} opening turns, seed {}",
            spec.rules.name(),
            limit.as_secs_f64(),
            spec.matches,
            spec.opening_turns,
            spec.seed
        );
    }
    let mut played = Vec::new();
    for index in 0..spec.matches {
        let m = referee_match(&spec, index, &mut seat)?;
        if !args.json {
            print_match(&m);
        }
        played.push(m);
    }
    if let Some(t) = &transcript {
        t.borrow_mut().flush()?;
    }
    report(&args, limit, &played, start.elapsed().as_secs_f64())?;
    Ok(ExitCode::SUCCESS)
}

/// The transcript file, created (or emptied) now.
fn open_transcript(path: Option<&Path>) -> anyhow::Result<Transcript> {
    let Some(path) = path else {
        return Ok(None);
    };
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    Ok(Some(Rc::new(RefCell::new(BufWriter::new(file)))))
}

/// The summary as text (after the match lines), or everything as JSON.
fn report(
    args: &Args,
    limit: Duration,
    played: &[RefereedMatch],
    elapsed: f64,
) -> anyhow::Result<()> {
    let results: Vec<_> = played.iter().map(|m| m.result.clone()).collect();
    let summary = MatchSummary::of(&results);
    if args.json {
        let series = &args.series;
        let out = serde_json::json!({
            "rules": series.rules.rules().name(),
            "a": series.players.a,
            "b": series.players.b,
            "time_limit_s": limit.as_secs_f64(),
            "opening_turns": series.openings,
            "seed": series.seed,
            "summary": summary,
            "matches": played,
            "elapsed_s": elapsed,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for line in summary_lines(&summary) {
            println!("{line}");
        }
        eprintln!("{elapsed:.1} s");
    }
    Ok(())
}

/// The match's report line, and a line for each lost game.
fn print_match(m: &RefereedMatch) {
    println!("{}", match_line(&m.result));
    for ProtocolFault {
        game,
        player,
        role,
        message,
    } in &m.faults
    {
        let defender = if *game == 1 { "A" } else { "B" };
        println!("  game {game} ({defender} defends): {player:?} ({role}) loses: {message}");
    }
}
