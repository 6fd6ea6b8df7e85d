#!/bin/sh
# The twos network learned by TD(0.5) + coherence + restarts, packed, under the judge:
# two judges side by side (one a core, nothing else running), 100 games each on judge
# seeds 1127 and 1128 (no earlier run played them); each interact's peak RSS appended.
cd /work/scratch/judgeT
T=./tune2048
for s in 1127 1128; do
  $T judge --games 100 --seed $s --csv judge-T-$s.csv -- /usr/bin/time -a -o rss-$s.txt -f %M $T interact --network T.ntp > judge-T-$s.txt 2>&1 &
done
wait
