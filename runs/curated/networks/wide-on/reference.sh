#!/bin/sh
# 2026-11-30 19:05 UTC: the reference weights on the depth-3 games of seed 96007 (after evidence.sh).
while pgrep -f evidence.sh >/dev/null; do sleep 10; done
/usr/bin/time -f "%e s wall %M KB" ./tune2048-a691d81 eval --weights /work/main/configs/weights/nneonneo.ron \
    --depth 3 --games 100 --seed 96007 --threads 2 --csv reference-d3-96007.csv
