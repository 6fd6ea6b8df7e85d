#!/bin/sh
# Run A's network (the classic recipe, learned to the save named in snap.txt), measured:
# greedy on 2,000 games of seed 6064 (no earlier run played it), and at fixed depth 3 on the
# first 100 games of seed 6007, paired with six.ntp's depth-3 games on the same seeds
# (runs/curated/networks/packed/six-d3-6007.csv, its first 100 rows). No choice about A
# was made on seed 6007. Both cores, nothing else running.
set -e
cd /work/scratch/long/d3   # A.nt: a copy of A/network.nt at its save at 301,000 games
T=/work/main/target/release/tune2048
$T eval --network A.nt --depth 0 --games 2000 --seed 6064 --threads 2 --csv greedy-6064.csv | tail -2
/usr/bin/time -f "%e s wall" $T eval --network A.nt --depth 3 --games 100 --seed 6007 --threads 2 --csv A-d3-6007.csv | tail -3
head -n 101 /work/main/runs/curated/networks/packed/six-d3-6007.csv > six-d3-6007-first100.csv
/work/main/scripts/pair.py six-d3-6007-first100.csv A-d3-6007.csv | tail -4
/work/main/scripts/pair.py --column max_tile --reach 32768 six-d3-6007-first100.csv A-d3-6007.csv | tail -3
/work/main/scripts/pair.py --column max_tile --reach 16384 six-d3-6007-first100.csv A-d3-6007.csv | tail -3
