#!/bin/bash
# Leaves read downgraded (2026-11-29): the shipped classic network with its settings
# (configs/networks/six.search.ron, downgrade_at 32768 at the root) and with leaf_downgrade_at
# 32768 on top (leaf.search.ron here), paired by game, from the first-16384 positions of the
# bank `bank-eval.csv` (seed 7400; `../late-cascade/run.sh`, step 9). Run from a folder holding
# that bank, with B the binary of the change that added the setting. Seeds 7700, 7710 and 7720
# had been played by nothing. The depth-2 pairs ran on an earlier form of the change (an
# environment variable instead of the setting, the same search: its on-d2-7700.csv came out
# byte for byte again from B). The rule for shipping (a depth-3 gain with p < 0.05) was set
# before the depth-3 games began.
N=configs/networks
for s in 7700:400 7710:800; do
  seed=${s%%:*}; games=${s##*:}
  $B eval --network $N/six.ntp --settings leaf.search.ron --depth 2 --games $games --seed $seed \
      --bank bank-eval.csv --bank-stage 16384 --threads 2 --csv on-d2-$seed.csv
  $B eval --network $N/six.ntp --settings $N/six.search.ron --depth 2 --games $games --seed $seed \
      --bank bank-eval.csv --bank-stage 16384 --threads 2 --csv off-d2-$seed.csv
  scripts/pair.py off-d2-$seed.csv on-d2-$seed.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 off-d2-$seed.csv on-d2-$seed.csv
done
# Depth 3 (d3b.log: the on arm beside a build and the test suite, the off arm alone).
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N/six.ntp --settings leaf.search.ron \
    --depth 3 --games 100 --seed 7720 --bank bank-eval.csv --bank-stage 16384 --threads 2 \
    --csv on-d3-7720.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N/six.ntp --settings $N/six.search.ron \
    --depth 3 --games 100 --seed 7720 --bank bank-eval.csv --bank-stage 16384 --threads 2 \
    --csv off-d3-7720.csv
scripts/pair.py off-d3-7720.csv on-d3-7720.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 off-d3-7720.csv on-d3-7720.csv
# Time a move with the setting absent, interleaved (bench.txt): OLD, a binary from before the
# change (its search code the same as at 05ace18), against B; reference weights and the network.
for r in 1 2; do
  for b in $OLD $B; do
    $b bench search --reps 1 2>&1 | grep -E '^depth'
    $b bench search --reps 1 --network $N/six.ntp 2>&1 | grep -E '^depth'
  done
done
