#!/bin/sh
# Time a move of X's step-32 pack beside the shipped file's, after both had played their depth-3
# games of seed 116007 (2026-12-01, nothing else running): `bench search --reps 1` on one thread
# (the bench seeds' games, no settings file), in two interleaved rounds. Output in bench.log.
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
R=$(git rev-parse --show-toplevel)
D=${D:-/work/scratch/wider}
for r in 1 2; do
  for k in X:$D/X-s32-k11140000.ntp shipped:$R/configs/networks/six.ntp; do
    echo "round $r ${k%%:*} $(date -u +%T)"
    $B bench search --reps 1 --network ${k#*:} 2>&1 | grep -E '^depth'
  done
done
date -u +"end %T"
