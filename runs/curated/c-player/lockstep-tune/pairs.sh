#!/bin/sh
# Time to each generation of configs/external/c-player.ron over version 1
# (`lockstep: 1`) and version 2 (K = 64), interleaved pair by pair. The
# configs are the shipped one stopped after 6 generations, with 100 final
# games and no reselection: their generations are the shipped run's, only
# the end differs. Run from the repository root after building the player:
#   cc -O2 -o examples/players/ref_player examples/players/ref_player.c -lm
#   runs/curated/c-player/lockstep-tune/pairs.sh [PAIRS]
set -eu
BIN=${BIN:-target/release/tune2048}
T=$(mktemp -d)
sed -e 's/stop: (generations: 200, wall_seconds: 900.0)/stop: (generations: 6, wall_seconds: 900.0)/' \
    -e 's/final_games: 2000/final_games: 100/' \
    -e 's/reselect: Some((top: 3, games: 800))/reselect: None/' \
    configs/external/c-player.ron > "$T/v2.ron"
sed -e 's/        decision_secs: 2.0,/        decision_secs: 2.0,\n        lockstep: 1,/' "$T/v2.ron" > "$T/v1.ron"
for pair in $(seq "${1:-4}"); do
  for v in v1 v2; do
    /usr/bin/time -f "%e s wall, %U s user, %S s system" -o "$T/time" \
      "$BIN" tune --out "$T/$v-$pair" "$T/$v.ron" > /dev/null 2>&1
    g=$(ls -d "$T/$v-$pair"/*/)generations.csv
    echo "pair $pair $v: $(cat "$T/time"); generation 0 at $(awk -F, '$1 == 0 { print $12 }' "$g") s," \
      "generation 4 (validated $(awk -F, '$1 == 4 { printf "%.0f", $11 }' "$g")) at $(awk -F, '$1 == 4 { print $12 }' "$g") s"
  done
done
rm -rf "$T"
