#!/bin/sh
# Run after shipped-106007.sh, nothing else running. Output in after-106007.log.
# 1. At equal time, the other way round: the reference weights one layer deeper (depth 4) on the
#    same games 0..99 of seed 106007, whose moves take about as long as the shipped file's at
#    depth 3 (the bench rounds below say how the two compare).
# 2. Two more rounds of step 1 of shipped-106007.sh (time a move, one thread): in its round 1 the
#    reference weights' depth-2 and depth-3 moves took 1.4-1.6x their round-2 time (on a machine
#    up for a few minutes), so its range was wide.
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
N=/work/main/configs/networks/six.ntp
R=/work/main/configs/weights/nneonneo.ron
/usr/bin/time -f "%e s wall %M KB" $B eval --weights $R --depth 4 --games 100 --seed 106007 \
    --threads 2 --csv reference-d4-106007.csv
for r in 3 4; do
  echo "round $r reference"; $B bench search --reps 1 2>&1 | grep -E '^depth'
  echo "round $r shipped"; $B bench search --reps 1 --network $N 2>&1 | grep -E '^depth'
done
