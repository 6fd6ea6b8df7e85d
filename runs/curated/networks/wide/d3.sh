#!/bin/sh
# W packed (save at 2,055,000, 9,400,000 weights kept) at depth 3 on games 0..99 of seed 46007,
# paired with ../late-cascade/G5d-d3-46007.csv (the shipped six.ntp on them).
/usr/bin/time -f "%e s wall %M KB" ./tune2048-a78d4cf eval --network W2055.ntp --settings six.search.ron \
    --depth 3 --games 100 --seed 46007 --threads 2 --csv W2055-d3-46007.csv
