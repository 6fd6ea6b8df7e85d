use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = tune2048::cli::Cli::parse();
    match tune2048::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // The whole chain, once, at the edge.
            eprintln!("error: {err:#}");
            ExitCode::from(tune2048::cli::exit_code(&err))
        }
    }
}
