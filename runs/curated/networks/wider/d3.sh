#!/bin/sh
# run.sh step 5 as it ran (2026-12-01 01:28 UTC, log d3-116007.log): X's step-32 pack at depth 3
# on games 0..99 of seed 116007, then the shipped file on the same games and the rule's pairing.
# Stopped for the session's tests and run again (2026-12-01 02:49): each `eval` goes on with
# --resume from its games kept in NAME.csv.partial where that file exists. (The run of 02:49 was
# given --resume for both by hand; the shipped file's `eval` refused it, having no partial file,
# and was started again at 03:29 without it.)
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
R=$(git rev-parse --show-toplevel)
D=${D:-/work/scratch/wider}
S=$R/configs/networks/six.search.ron
resume() { [ -f "$1.partial" ] && echo --resume; }
date -u +"start %H:%M:%S"
[ -f X-d3-116007.csv ] || $B eval --network $D/X-s32-k11140000.ntp --settings $S --depth 3 \
    --games 100 --seed 116007 --threads 2 --csv X-d3-116007.csv $(resume X-d3-116007.csv)
[ -f shipped-d3-116007.csv ] || $B eval --network $R/configs/networks/six.ntp --settings $S \
    --depth 3 --games 100 --seed 116007 --threads 2 --csv shipped-d3-116007.csv \
    $(resume shipped-d3-116007.csv)
python3 $R/scripts/pair.py shipped-d3-116007.csv X-d3-116007.csv | tail -1
python3 $R/scripts/pair.py --column max_tile --reach 32768 shipped-d3-116007.csv X-d3-116007.csv
