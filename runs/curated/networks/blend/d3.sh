#!/bin/sh
# Written before any of these games were played (2026-11-30 12:17 UTC).
# The candidate: WWL-s16.ntp, the mean of the packed saves of W at 2,055,000 and 2,156,000 and of
# L at 2,248,000 (`blend`), packed with --step 8 (hash 1254b2aa499dcb4a, 18,712,508 bytes).
# Chosen on the depth-1 proxy from the first-16384 positions of bank-eval.csv (seeds 7600, 8600,
# 8700); no depth-3 game of it was played before this script. (Edited at 12:33, before any game:
# the proxy showed the blend packed on a step of 16 lost about 3% of the unpacked blend's mean,
# so the candidate became the step-8 pack.)
# Depth 3 with six.search.ron on games 0..99 of seed 76007, then the shipped six.ntp on them, then
# the same two on games 0..99 of seed 86007: seeds nothing has played. The script is stopped
# when the session's time runs out; every set that finished counts.
# The goal (issue 43): over every fresh game the candidate played (>= 100), a mean >= 450,000 and
# a 32768 in >= 40%.
# The rule to ship: the candidate replaces six.ntp if over the fresh games both played its paired
# mean is above the shipped file's with p < 0.05 (the rule W2055 was held to).
B=/work/scratch/ens/tune2048
S=/work/main/configs/networks/six.search.ron
SHIP=/work/scratch/ens/G5.ntp   # a copy of configs/networks/six.ntp at c2822b5
for seed in 76007 86007; do
  /usr/bin/time -f "%e s wall %M KB" $B eval --network WWL-s8.ntp --settings $S --depth 3 \
      --games 100 --seed $seed --threads 2 --csv WWL-d3-$seed.csv
  /usr/bin/time -f "%e s wall %M KB" $B eval --network $SHIP --settings $S --depth 3 \
      --games 100 --seed $seed --threads 2 --csv G5-d3-$seed.csv
  python3 /work/main/scripts/pair.py G5-d3-$seed.csv WWL-d3-$seed.csv | tail -1
  python3 /work/main/scripts/pair.py --column max_tile --reach 32768 G5-d3-$seed.csv WWL-d3-$seed.csv
done
