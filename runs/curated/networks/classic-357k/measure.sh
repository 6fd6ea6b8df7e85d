#!/bin/sh
# The network to ship (run A's save at 357,000 games, packed: --step 16 --keep 11600000),
# measured on seeds no choice played: greedy on 2,000 games of seed 6065, and at fixed
# depth 3 on games 100..199 of seed 6007, paired with six.ntp's and the reference's
# depth-3 games on the same seeds (runs/curated/networks/packed/*-d3-6007.csv, rows 100..199).
# Both threads; run A and two branches of it learned beside it (niced, but in sessions of
# their own, so the eval had about 60% of the machine for its first 16 minutes).
set -e
cd runs/curated/networks/classic-357k   # six.ntp: a copy of configs/networks/six.ntp
T=tune2048
$T eval --network six.ntp --depth 0 --games 2000 --seed 6065 --threads 2 --csv shipped-d0-6065.csv | tail -2
/usr/bin/time -f "%e s wall" $T eval --network six.ntp --depth 3 --first 100 --games 100 --seed 6007 --threads 2 --csv shipped-d3-6007-100-199.csv | tail -3
# Pairs, against the rows 100..199 of the earlier six.ntp's and the reference's games
# (head -1 FILE; sed -n 102,201p FILE):
# scripts/pair.py six-d3-6007-100.csv shipped-d3-6007-100-199.csv   (and --column max_tile --reach 16384)
# The reference one layer deeper, on the first 48 of those games (with CI running beside it):
$T eval --weights ../../../../configs/weights/nneonneo.ron --depth 4 --first 100 --games 48 --seed 6007 --threads 2 --csv reference-d4-6007-100-147.csv
# then scripts/pair.py reference-d4-6007-100-147.csv <the shipped file's rows of those 48 seeds>  (vs-reference-d4.txt)
