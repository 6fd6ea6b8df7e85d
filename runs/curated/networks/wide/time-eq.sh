#!/bin/bash
# 1. Time a move on one thread, nothing else running, interleaved in two rounds: `bench search`
#    (whole games of the bench seeds at depths 0-3, no settings file) for the reference weights,
#    the shipped six.ntp (G5 packed, copied here as G5d.ntp) and W2055.ntp.
# 2. At equal time: each network given the reference weights' time a move at depth 3 in their
#    eval on games 0..99 of seed 56007 (9,078 moves/s on two threads: 0.22 ms a move a thread),
#    searching up to depth 3 by iterative deepening, with the settings file.
# Output in time-eq.txt.
B=${B:-tune2048}
for r in 1 2; do
  echo "round $r reference"; $B bench search --reps 1 2>&1 | grep -E '^depth'
  echo "round $r G5d"; $B bench search --reps 1 --network G5d.ntp 2>&1 | grep -E '^depth'
  echo "round $r W2055"; $B bench search --reps 1 --network W2055.ntp 2>&1 | grep -E '^depth'
done
for k in W2055 G5d; do
  /usr/bin/time -f "%e s wall %M KB" $B eval --network $k.ntp --settings six.search.ron --depth 3 \
    --move-ms 0.22 --games 100 --seed 56007 --threads 2 --csv $k-ms0.22-56007.csv
done
