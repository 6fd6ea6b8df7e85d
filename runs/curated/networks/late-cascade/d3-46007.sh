#!/bin/sh
# The shipped file and the reference weights on the fresh depth-3 games of seed 46007; run from
# the repository root with B the binary of ac11a66. Output: d3-46007.log.
N=configs/networks
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N/six.ntp --settings $N/six.search.ron \
    --depth 3 --games 100 --seed 46007 --threads 2 --csv G5d-d3-46007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --weights configs/weights/nneonneo.ron --depth 3 \
    --games 100 --seed 46007 --threads 2 --csv reference-d3-46007.csv
