#!/bin/sh
# Written 2026-11-30 18:10 UTC, before any game of the shipped file on seed 96007.
# The shipped file (configs/networks/six.ntp at 61bb1a8) on games 0..99 of seed 96007 at depth 3,
# the games W2350000 played in d3.sh. Rule (written in d3.sh before W2350000's games): W2350000
# replaces six.ntp only if its paired mean is above the shipped file's with p < 0.05.
B=/work/scratch/wide/tune2048-a78d4cf
S=/work/main/configs/networks/six.search.ron
N=/work/main/configs/networks/six.ntp
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N --settings $S --depth 3 \
    --games 100 --seed 96007 --threads 2 --csv shipped-d3-96007.csv
