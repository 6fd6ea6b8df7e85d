#!/bin/sh
# W2055.ntp and the shipped six.ntp (G5 packed) at depth 3 on fresh games 0..99 of seed 66007,
# then the reference weights on them. The rule, written before these games were played:
# W2055.ntp ships beside six.ntp (as configs/networks/nine.ntp) if, over the 300 fresh games of
# seeds 46007, 56007 and 66007, its paired mean is above the shipped file's with p < 0.05;
# otherwise it does not ship. (The first 200 were looked at before: two looks in all.)
B=tune2048
/usr/bin/time -f "%e s wall %M KB" $B eval --network W2055.ntp --settings six.search.ron \
    --depth 3 --games 100 --seed 66007 --threads 2 --csv W2055-d3-66007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --network six.ntp --settings six.search.ron \
    --depth 3 --games 100 --seed 66007 --threads 2 --csv G5d-d3-66007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --weights configs/weights/nneonneo.ron --depth 3 \
    --games 100 --seed 66007 --threads 2 --csv reference-d3-66007.csv
scripts/pair.py G5d-d3-66007.csv W2055-d3-66007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G5d-d3-66007.csv W2055-d3-66007.csv
scripts/pair.py reference-d3-66007.csv W2055-d3-66007.csv | tail -1
