use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    tune2048::cpu::explain_illegal_instructions();
    let cli = tune2048::cli::Cli::parse();
    let code = match tune2048::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // The whole chain, once, at the edge.
            eprintln!("error: {err:#}");
            ExitCode::from(tune2048::cli::exit_code(&err))
        }
    };
    // External players of threads that have not stopped theirs yet.
    tune2048::child::stop_all();
    code
}
