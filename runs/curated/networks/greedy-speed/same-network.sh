#!/usr/bin/env bash
# Greedy moves per second on one core (taskset -c 0), both programs playing
# the same network: NET exported by the first tune2048 binary given
# (`export --format ziap`) into a scratch copy of ziap/2048-tdl's built folder
# (ZIAP, built with `make ENABLE_GUI=false STRUCTURE=nw4x6`), then rounds
# interleaved: `2048 agent -d 0 -e G -t 1` there, then each tune2048 binary
# given with `eval --network NET --depth 0 --games G --threads 1`. One line
# per round; the last line gives each program's mean score, to show that
# both played the same value function.
set -euo pipefail
NET=${NET:?a four-6-tuple network of one stage, classic}
ZIAP=${ZIAP:?the folder of a built ziap/2048-tdl}
R=${R:-6}
G=${G:-1000}
HERE=$(mktemp -d)
trap 'rm -rf "$HERE"' EXIT
cp "$ZIAP/2048" "$HERE/"
"$1" export --format ziap "$NET" --out "$HERE/nw4x6/weights.bin" 2>/dev/null
for r in $(seq 1 "$R"); do
  z=$(cd "$HERE" && taskset -c 0 ./2048 agent -d 0 -e "$G" -t 1 2>&1 | grep -v '^[|+]')
  line="round $r ziap $(echo "$z" | grep -o 'm/s: *[0-9]*' | tail -1 | grep -o '[0-9]*$')"
  for b in "$@"; do
    e=$(taskset -c 0 "$b" eval --network "$NET" --depth 0 --games "$G" --threads 1 --seed 5 2>&1)
    line="$line $(basename "$b") $(echo "$e" | tail -1 | grep -o '[0-9]* moves/s' | grep -o '[0-9]*')"
  done
  echo "$line"
done
echo "mean score: ziap $(echo "$z" | grep -o 'avg: *[0-9]*' | tail -1 | grep -o '[0-9]*$')," \
  "tune2048 $(echo "$e" | grep -o 'mean score [0-9]*' | grep -o '[0-9]*$')"
