#!/bin/sh
# The shipped six.ntp (G5 packed, unchanged since 2026-11-29) at depth 3 on games 0..99 of seed
# 56007, to pair with W2055's games on them.
B=tune2048
/usr/bin/time -f "%e s wall %M KB" $B eval --network six.ntp \
    --settings six.search.ron --depth 3 --games 100 --seed 56007 \
    --threads 2 --csv G5d-d3-56007.csv
scripts/pair.py G5d-d3-56007.csv W2055-d3-56007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G5d-d3-56007.csv W2055-d3-56007.csv
