#!/bin/sh
# The line protocol's cost: the same games played by the built-in player and
# by the example C player (which plays them move for move the same), one
# thread each, interleaved, at depths 0, 1 and 3. CPU and wall seconds per
# run; per move = seconds / moves played (the CSV's moves column).
# Usage (from the repository root, after building the C player):
#   runs/curated/c-player/overhead.sh [ROUNDS]
set -eu
BIN=target/release/tune2048
C=examples/players/ref_player
OUT=$(mktemp -d)
ROUNDS=${1:-3}
for round in $(seq "$ROUNDS"); do
  for case in "0 400" "1 200" "3 6"; do
    set -- $case
    depth=$1 games=$2
    for side in builtin external; do
      if [ "$side" = builtin ]; then
        set -- --weights configs/weights/nneonneo.ron
      else
        set -- --player "$C --depth $depth"
      fi
      /usr/bin/time -f "%e %U %S" -o "$OUT/time" $BIN eval "$@" --depth "$depth" --games "$games" \
        --threads 1 --seed 31 --csv "$OUT/games.csv" >/dev/null 2>&1
      moves=$(awk -F, 'NR > 1 { m += $5 } END { print m }' "$OUT/games.csv")
      read -r wall user sys < "$OUT/time"
      awk -v r="$round" -v d="$depth" -v s="$side" -v g="$games" -v m="$moves" -v w="$wall" -v u="$user" -v k="$sys" \
        'BEGIN { printf "round %s depth %s %-8s %4d games %8d moves  %6.2f s wall  %7.2f us/move wall  %7.2f games/s\n", r, d, s, g, m, w, 1e6 * w / m, g / w }'
    done
  done
done
rm -rf "$OUT"
