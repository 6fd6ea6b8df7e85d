#!/usr/bin/env bash
# The settings `configs/classic-network.ron` tuned, against the defaults, at the
# same budget (depth 3 within 10,000 moves tried a move), on positions and seeds
# the tuning run never played: the 16384 positions of 4,000 other greedy games
# of the shipped network (seed 7400; the run's bank is seed 7300), games of seed
# 9100, paired by seed; then whole games of seed 9200. Run from the repository
# root: RUN=runs/classic-network-… bash runs/curated/networks/search-tuned/compare.sh
set -euo pipefail
T=${T:-target/release/tune2048}
RUN=${RUN:?the tuning run folder}
OUT=${OUT:-runs/curated/networks/search-tuned}
LATE=${LATE:-400}
WHOLE=${WHOLE:-48}
NET=configs/networks/six.ntp
$T bank --network $NET --depth 0 --games 4000 --seed 7400 --stage 16384 --out "$OUT/fresh-16384.csv"
cp "$RUN/best-settings.ron" "$OUT/best-settings.ron"
for side in base tuned; do
  s=()
  [ $side = tuned ] && s=(--settings "$OUT/best-settings.ron")
  $T eval --network $NET "${s[@]}" --depth 3 --move-nodes 10000 --bank "$OUT/fresh-16384.csv" \
    --bank-stage 16384 --games "$LATE" --seed 9100 --csv "$OUT/$side-late-9100.csv"
done
python3 scripts/pair.py "$OUT/base-late-9100.csv" "$OUT/tuned-late-9100.csv"
for side in base tuned; do
  s=()
  [ $side = tuned ] && s=(--settings "$OUT/best-settings.ron")
  $T eval --network $NET "${s[@]}" --depth 3 --move-nodes 10000 --games "$WHOLE" --seed 9200 \
    --csv "$OUT/$side-whole-9200.csv"
done
python3 scripts/pair.py "$OUT/base-whole-9200.csv" "$OUT/tuned-whole-9200.csv"
