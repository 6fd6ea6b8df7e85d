//! The integration tests, built as one test binary (`autotests = false` and
//! one `[[test]]` in Cargo.toml): the modules link once and share `util`.
//!
//! Run one module or test by name, e.g. `cargo test --test integration cli_tune::`.
//! The ignored test rewrites a golden file; run it only on purpose (see it).

mod util;

mod cli_interact;
mod cli_maxtile;
mod cli_play;
mod cli_tune;
mod engine_reference;
mod plot_export;
