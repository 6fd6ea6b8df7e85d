#!/bin/sh
# Written 2026-11-30 15:45 UTC, before any game of the candidate X was played (gate.sh decides
# whether this runs). X: W's last save of this session, packed as W2055.ntp was (WSAVE.ntp).
# Depth 3 with configs/networks/six.search.ron on games 0..99 of seed 96007, a seed nothing has
# played. Issue 43's goal: a mean >= 450,000 and a 32768 in >= 40% of >= 100 games.
# X replaces six.ntp only if on fresh games both played its paired mean is above the shipped
# file's with p < 0.05 (the rule W2055 was held to); the shipped file's games of seed 96007
# come after X's, this session or the next.
B=/work/scratch/wide/tune2048-a78d4cf
S=/work/main/configs/networks/six.search.ron
X=$1
/usr/bin/time -f "%e s wall %M KB" $B eval --network $X.ntp --settings $S --depth 3 \
    --games 100 --seed 96007 --threads 2 --csv $X-d3-96007.csv
