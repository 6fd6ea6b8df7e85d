#!/bin/sh
# One network on the fresh seeds of the 530,000-game comparison: greedy, 2,000 games of
# seed 12003; depth 2, 400 games of seed 12004, both threads.  eval-one.sh NAME FILE
# (the 440,000-game comparison: seeds 12001 and 12002, the same commands).
set -e
T=${T:-tune2048}
$T eval --network "$2" --depth 0 --games 2000 --seed 12003 --csv "$1-d0-12003.csv" | tail -3
/usr/bin/time -f "%e s" $T eval --network "$2" --depth 2 --games 400 --seed 12004 --csv "$1-d2-12004.csv" | tail -4
