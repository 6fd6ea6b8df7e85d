#!/bin/bash
# The classic-d3 winner against the reference weights at full depths 1-4, on
# fresh paired seeds (compare's game i plays derive(seed, i), which no tuning
# run's seeds use; seed 2611 was not used by any earlier comparison either).
# Usage: validate.sh WEIGHTS DEPTH GAMES. Writes compare's text and per-game CSV.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${TUNE2048:-target/release/tune2048}
out=runs/curated/classic-d3
weights=$1 depth=$2 games=$3
"$bin" compare --weights configs/weights/nneonneo.ron --weights "$weights" \
    --depth "$depth" --games "$games" --seed 2611 --threads 2 \
    --csv "$out/vs-reference-d$depth.csv" | tee "$out/vs-reference-d$depth.txt"
