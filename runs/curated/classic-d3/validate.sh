#!/bin/bash
# One weight set at the full depth D on the 2611 seeds (eval's game i plays
# derive(2611, i), which no tuning run's seeds use, and no earlier comparison
# used 2611): the summary to WEIGHTS-dD.txt, one row per game to
# WEIGHTS-dD.csv, here. Any two files of one depth pair game by game with
# scripts/pair.py (the paired t-test of `compare`).
# Usage: validate.sh WEIGHTS DEPTH GAMES   (games: 2000 / 500 / 400 / 40 at depths 1-4)
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${TUNE2048:-target/release/tune2048}
out=runs/curated/classic-d3
weights=$1 depth=$2 games=$3
name=$(basename "$weights" .ron)-d$depth
"$bin" eval --weights "$weights" --depth "$depth" --games "$games" --seed 2611 --threads 2 \
    --csv "$out/$name.csv" | tee "$out/$name.txt"
