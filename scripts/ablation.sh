#!/usr/bin/env bash
# Knock-out ablation: each term group of a tuned weight set is set back to
# "off" (or to the reference value for powers), and the result plays the same
# fresh seeds as the full set. Usage: scripts/ablation.sh WEIGHTS DEPTH GAMES
set -euo pipefail
weights=${1:?weights file}; depth=${2:-1}; games=${3:-1000}
bin=${BIN:-target/release/tune2048}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
knock() { # name, then sed expressions
    local name=$1; shift
    sed "$@" "$weights" > "$tmp/$name.ron"
    printf '%-28s ' "$name"
    "$bin" compare --weights "$weights" --weights "$tmp/$name.ron" --depth "$depth" --games "$games" --seed 31337 2>/dev/null | tail -1
}
knock "smoothness=0"            -e 's/^\(\s*smoothness:\).*/\1 0.0,/'
knock "edge=corner=0"           -e 's/^\(\s*edge:\).*/\1 0.0,/' -e 's/^\(\s*corner:\).*/\1 0.0,/'
knock "snake=0"                 -e 's/^\(\s*snake:\).*/\1 (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),/'
knock "monotonicity_power=4"    -e 's/^\(\s*monotonicity_power:\).*/\1 4.0,/'
knock "sum_power=3.5"           -e 's/^\(\s*sum_power:\).*/\1 3.5,/'
knock "merges=0"                -e 's/^\(\s*merges:\).*/\1 0.0,/'
knock "empty=0"                 -e 's/^\(\s*empty:\).*/\1 0.0,/'
