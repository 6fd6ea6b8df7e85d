#!/usr/bin/env bash
# Side by side: ziap/2048-tdl's trainer (README recipe, -t 1) and tune2048 learn,
# started at once, one core each (taskset), for $1 seconds (default 1800).
# cpu.log samples every 10 s each process's CPU seconds (utime+stime); in the
# run kept here the samples were taken with `ps -o times` every 30 s instead.
set -u
SECS=${1:-1800}
# OUT: where the logs go; ZIAP: a build of ziap/2048-tdl (its README's
# `make ENABLE_GUI=false STRUCTURE=nw4x6`); T: the tune2048 binary.
OUT=${OUT:?set OUT to a folder for the logs}
ZIAP=${ZIAP:?set ZIAP to a ziap/2048-tdl build folder}
T=${T:-tune2048}
rm -rf "$OUT/ours" "$ZIAP/nw4x6" && mkdir -p "$ZIAP/nw4x6"
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done; }
date +%s.%N > "$OUT/start"
( cd "$ZIAP" && exec timeout "$SECS" taskset -c 0 stdbuf -oL ./2048 train -e 2000 -a 1.0 -l 0.5 -c -o -r -t 1 ) 2>&1 | stamp > "$OUT/ziap.log" &
( exec timeout "$SECS" taskset -c 1 "$T" learn "$OUT/ours" --tuples six --games 2000000 --block 1000 \
    --lambda 0.5 --coherence --restarts --alpha 1.0 --threads 1 ) 2>&1 | stamp > "$OUT/ours.log" &
sleep 2
# The trainers themselves, not the `timeout` wrappers whose command lines name them too.
ZP=$(pgrep -f "^\./2048 train -e 2000" | head -1); OP=$(pgrep -f "^$T learn $OUT/ours" | head -1)
: > "$OUT/cpu.log"
while kill -0 "$OP" 2>/dev/null || kill -0 "$ZP" 2>/dev/null; do
  tick() { awk '{print ($14+$15)/100}' "/proc/$1/stat" 2>/dev/null || echo NA; }
  echo "$(date +%s.%N) ziap $(tick "$ZP") ours $(tick "$OP")" >> "$OUT/cpu.log"
  sleep 10
done
wait
date +%s.%N > "$OUT/end"
