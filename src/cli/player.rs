//! `tune2048 player -- CMD…`: starts a player program, does the protocol's
//! handshake and lists the parameters it declares, as a config's `params`
//! would name them.

use std::process::ExitCode;

use tune2048::player::external::describe;
use tune2048::player::Program;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program and its arguments (after `--`).
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let program = Program::new(args.command);
    let declared = describe(&program)?;
    println!(
        "{} declares {} parameter{}:",
        program.name(),
        declared.len(),
        if declared.len() == 1 { "" } else { "s" }
    );
    for d in &declared {
        println!("param {} {}", d.name, d.default);
    }
    Ok(ExitCode::SUCCESS)
}
