#!/usr/bin/env bash
# Learning on 1 and 2 threads, rounds of 16, interleaved pairs: ab.sh with the
# one binary B. Reports the whole run's wall time and the steady rate: the
# games of blocks 2 to n over the sum of their seconds in progress.csv, which
# leaves out the first block, the network's allocation and its save at the
# end. Run from the repository root after `cargo build --release`.
BINS=${B:-target/release/tune2048} G=${G:-9984} exec "$(dirname "$0")/ab.sh"
