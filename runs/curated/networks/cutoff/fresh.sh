#!/bin/sh
# Written 2026-12-02 02:00 UTC, before any game of seed 166007 was played by anything.
# After the pilot (pilot.sh: 1.022x at prob_cutoff 0 on seed 106007, p = 0.54, not fresh), the
# test on fresh games: the shipped file (configs/networks/six.ntp) at depth 3 with its settings
# file on games 0..99 of seed 166007, first as it ships (B: the default cutoff, 1e-4), then with
# every chance node within depth 3 searched (A: --prob-cutoff 0), two threads, nothing else of
# ours running beyond the session's own builds.
# The rule: prob_cutoff 0 goes into configs/networks/six.search.ron only if A beats B over the
# 100 paired games with p < 0.05 (scripts/pair.py) and makes a 32768 in no fewer of them; the
# 32768 counts are reported with McNemar's p whatever they show. Were A adopted, its figures on
# these games are chosen on them, so issue 43's goal would be read for it on other fresh games.
# B's games are the shipped file's fourth set of 100 fresh games at depth 3 and join the other
# three (seeds 96007, 106007, 116007) in its standing figure whatever they show.
# A run stopped for the session's end keeps its games in FILE.csv.partial; a later session goes
# on with RESUME_B=--resume or RESUME_A=--resume (whichever file is partial) and a build that replays one of those games as it was (check first).
B=${B:-/tmp/t2048-88f91b9}
S=/work/main/configs/networks/six.search.ron
N=/work/main/configs/networks/six.ntp
date -u +"B start %H:%M:%S"
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N --settings $S --depth 3 --games 100 \
    --seed 166007 --threads 2 --csv fresh-B-166007.csv $RESUME_B
date -u +"A start %H:%M:%S"
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N --settings $S --prob-cutoff 0 --depth 3 \
    --games 100 --seed 166007 --threads 2 --csv fresh-A-166007.csv $RESUME_A
date -u +"done %H:%M:%S"
