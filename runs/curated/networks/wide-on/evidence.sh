#!/bin/sh
# 2026-11-30 19:00 UTC: greedy games of W2350000.ntp for the shipped-file tests and the results page,
# with and without configs/networks/six.search.ron (main at a691d81; a learner beside them on both cores).
B=./tune2048-a691d81
S=/work/main/configs/networks/six.search.ron
N=W2350000.ntp
$B eval --network $N --depth 0 --games 2000 --seed 9001 --threads 2 --csv W2350000-d0-9001.csv
$B eval --network $N --depth 0 --games 2000 --seed 14001 --threads 2 --csv W2350000-d0-14001.csv
$B eval --network $N --settings $S --depth 0 --games 2000 --seed 14001 --threads 2 --csv W2350000-settings-d0-14001.csv
