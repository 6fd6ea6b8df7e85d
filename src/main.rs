//! The `tune2048` binary: the command line ([`cli`]) over the library.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    tune2048::cpu::explain_illegal_instructions();
    let cli = cli::Cli::parse();
    let code = match cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // The whole chain, once, at the edge.
            eprintln!("error: {err:#}");
            ExitCode::from(cli::exit_code(&err))
        }
    };
    // External players of threads that have not stopped theirs yet.
    tune2048::child::stop_all();
    code
}
