#!/bin/sh
# W2055.ntp (hash 34a3f3d8f5d0dcd5) at depth 3 on fresh games 0..99 of seed 56007, then the
# reference weights on them.
B=tune2048
/usr/bin/time -f "%e s wall %M KB" $B eval --network W2055.ntp --settings six.search.ron \
    --depth 3 --games 100 --seed 56007 --threads 2 --csv W2055-d3-56007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --weights configs/weights/nneonneo.ron --depth 3 \
    --games 100 --seed 56007 --threads 2 --csv reference-d3-56007.csv
scripts/pair.py reference-d3-56007.csv W2055-d3-56007.csv | tail -1
