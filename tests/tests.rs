//! The integration tests, built as one test binary (`autotests = false` and
//! one `[[test]]` in Cargo.toml): the modules link once and share `util`.
//!
//! Run one module or test by name, e.g. `cargo test --test integration cli_tune::`.
//! The ignored tests rewrite golden files, and only with `TUNE2048_BLESS=1`
//! (see each): `--include-ignored` alone leaves every golden as it is.

mod util;

mod adversarial_perft;
mod adversarial_search;
mod browser_report;
mod cli_bank;
mod cli_cpu;
mod cli_gpcc_protocol;
mod cli_gpcc_tune;
mod cli_interact;
mod cli_learn;
mod cli_maxtile;
mod cli_mpi;
mod cli_place;
mod cli_play;
mod cli_players;
mod cli_report;
mod cli_tune;
mod cli_tune_network;
mod curated_runs;
mod docs_links;
mod engine_reference;
mod fuzz;
mod golden_games;
mod golden_tune;
mod plot_export;
mod scripts_pair;
mod scripts_trace;
