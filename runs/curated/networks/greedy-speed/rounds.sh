#!/usr/bin/env bash
# Greedy moves per second on one core (taskset -c 0), rounds interleaved:
# ziap/2048-tdl's `2048 agent -d 0 -e 3000 -t 1` on its own nw4x6 network of
# 5,000 games (ZIAP: its built folder, trained by `./2048 train -e 5 -a 1.0
# -l 0.5 -c -o -r -t 1`), then each tune2048 binary given, playing 3000 games
# with NET, a six network of 5,000 games (`learn DIR --tuples six --games 5000
# --lambda 0.5 --coherence --restarts --alpha 1.0`). One line per round.
NET=${NET:?a six network of 5000 games}
ZIAP=${ZIAP:?the folder of a built ziap/2048-tdl}
R=${R:-6}
for r in $(seq 1 "$R"); do
  line="round $r ziap $(cd "$ZIAP" && taskset -c 0 ./2048 agent -d 0 -e 3000 -t 1 2>&1 |
    grep -o 'm/s: *[0-9]*' | tail -1 | grep -o '[0-9]*$')"
  for b in "$@"; do
    line="$line $(basename "$b") $(taskset -c 0 "$b" eval --network "$NET" --depth 0 \
      --games 3000 --threads 1 --seed 5 2>&1 | tail -1 | grep -o '[0-9]* moves/s' | grep -o '[0-9]*')"
  done
  echo "$line"
done
