#!/bin/sh
# run.sh step 5 as it ran (2026-12-01 01:28 UTC, log d3-116007.log): X's step-32 pack at depth 3
# on games 0..99 of seed 116007, then the shipped file on the same games and the rule's pairing.
# Stopped for the session's tests; `RESUME=--resume ./d3.sh` goes on from the games in
# X-d3-116007.csv.partial (and from shipped-d3-116007.csv.partial once that exists).
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
R=$(git rev-parse --show-toplevel)
D=${D:-/work/scratch/wider}
S=$R/configs/networks/six.search.ron
date -u +"start %H:%M:%S"
[ -f X-d3-116007.csv ] || $B eval --network $D/X-s32-k11140000.ntp --settings $S --depth 3 \
    --games 100 --seed 116007 --threads 2 --csv X-d3-116007.csv $RESUME
[ -f shipped-d3-116007.csv ] || $B eval --network $R/configs/networks/six.ntp --settings $S \
    --depth 3 --games 100 --seed 116007 --threads 2 --csv shipped-d3-116007.csv $RESUME
python3 $R/scripts/pair.py shipped-d3-116007.csv X-d3-116007.csv | tail -1
python3 $R/scripts/pair.py --column max_tile --reach 32768 shipped-d3-116007.csv X-d3-116007.csv
