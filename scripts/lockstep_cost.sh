#!/bin/sh
# What the external-player protocol costs, version 1 against version 2: the
# same games played by the example C player over version 1 (--lockstep 1),
# over version 2 (--lockstep K, default 64) and by the built-in player (which
# plays them move for move the same), one thread each, interleaved round by
# round, at depths 0 and 1. Per run: wall seconds, wall time per move played
# (the CSV's moves column) and games per second.
# Usage (from the repository root, after `cargo build --release` and
# `cc -O2 -o examples/players/ref_player examples/players/ref_player.c -lm`):
#   scripts/lockstep_cost.sh [ROUNDS] [K]
set -eu
BIN=${BIN:-target/release/tune2048}
C=${C:-examples/players/ref_player}
OUT=$(mktemp -d)
ROUNDS=${1:-3}
K=${2:-64}
for round in $(seq "$ROUNDS"); do
  for case in "0 400" "1 1000"; do
    set -- $case
    depth=$1 games=$2
    for side in v1 v2 builtin; do
      case $side in
        builtin) set -- --weights configs/weights/nneonneo.ron ;;
        v1) set -- --player "$C --depth $depth" --lockstep 1 ;;
        v2) set -- --player "$C --depth $depth" --lockstep "$K" ;;
      esac
      /usr/bin/time -f "%e %U %S" -o "$OUT/time" $BIN eval "$@" --depth "$depth" --games "$games" \
        --threads 1 --seed 31 --csv "$OUT/games.csv" >/dev/null 2>&1
      moves=$(awk -F, 'NR > 1 { m += $5 } END { print m }' "$OUT/games.csv")
      read -r wall user sys < "$OUT/time"
      awk -v r="$round" -v d="$depth" -v s="$side" -v g="$games" -v m="$moves" -v w="$wall" \
        'BEGIN { printf "round %s depth %s %-8s %4d games %8d moves  %6.2f s wall  %7.2f us/move wall  %7.2f games/s\n", r, d, s, g, m, w, 1e6 * w / m, g / w }'
    done
  done
done
rm -rf "$OUT"
