//! The one look of a progress bar over games, shared by `tune` (a bar per
//! phase of a generation), `eval`/`compare` and `bank`: the phase or
//! player, the bar, games done of all, games per second and the time left.

use indicatif::ProgressStyle;

/// The style of every bar over games: `prefix [=====>    ] 12/40 games
/// 3.1/s  ETA 9s`, the prefix right-aligned in 14 columns.
pub fn games_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>14} [{bar:30}] {pos}/{len} games  {per_sec}  ETA {eta}")
        .expect("valid template")
        .progress_chars("=> ")
}
