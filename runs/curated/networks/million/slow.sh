#!/bin/bash
# Acont at 1,000,000 games, then 30,000 games at alpha 0.1 (its sums kept), then 200 games at
# depth 2 of seed 13062, to pair with the 1,000,000-game network's and six.ntp's.
cd /work/scratch
T=/work/scratch/tune2048-217e38e
$T learn Acont --resume --alpha 0.1 --games 1030000 --threads 2 >> learn-Acont.log 2>&1
cd m
$T eval --network ../Acont/network.nt --depth 0 --games 2000 --seed 13061 --threads 2 --csv Acont-1030k-d0-13061.csv
$T eval --network ../Acont/network.nt --depth 2 --games 200 --seed 13062 --threads 2 --csv Acont-1030k-d2-13062.csv
