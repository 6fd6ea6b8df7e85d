#!/usr/bin/env bash
# interact's game clock counted from the command's start (reading the network included)
# against the clock counted from after the read (964c6e7), under the local judge.
#
# The rule, written before any game of judge seeds 3301 and 3302 was played: the build
# with the clock from the start (B) plays 100 games on each seed, two judges side by side,
# nothing else running; then 964c6e7 (A) plays the same seeds the same way. B is kept as
# interact's default if none of its 200 games exceeds the judge's 15 s and it reaches
# 32768 in at least 50% of them (issue 43's interact goal). A's games are the record of
# how the old clock fares on this machine; the two are not paired move for move (the
# clock makes every game depend on the machine's speed), so the 32768 counts are compared
# with a two-proportion test only.
#
# Usage: run.sh NAME BINARY  (writes judge-NAME-SEED.csv/.txt and rss-NAME-SEED.txt here)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=$1 bin=$2
for seed in 3301 3302; do
    rm -f "$here/rss-$name-$seed.txt"
    "$bin" judge --games 100 --seed "$seed" --csv "$here/judge-$name-$seed.csv" -- \
        /usr/bin/time -a -o "$here/rss-$name-$seed.txt" -f %M "$bin" interact \
        > "$here/judge-$name-$seed.txt" 2>&1 &
done
wait
