#!/bin/sh
# The blend of W's packed saves (2026-11-30), on the 2-vCPU Intel Xeon VM. Every command, in the
# order run. Inputs: W2055.ntp and W2156.ntp (../wide/run.sh steps 3 and 5), L.ntp
# (../late-bank/run.sh step 3), W's full save at 1,972,000 (../wide/run.sh step 2), bank-eval.csv
# (../late-cascade/run.sh step 1), and G5.ntp, a copy of configs/networks/six.ntp at c2822b5.
# B is tune2048 built at d0392ee (blend with --shares and tuples among the first's).
set -e
B=tune2048
P=../../../../scripts/pair.py

# 1. Blends of snapshots of one trajectory, and with the shipped file (whose four tuples are the
#    first four of W's nine), screened at depth 1 from the 1,606 first-16384 positions of
#    bank-eval.csv, 400 games of seed 7600, paired with ../wide/W2055-packed-d1-off.csv
#    (proxy-pairs.txt). WWL took 38 s wall and peak 9.5 GB to blend (wwl.log).
$B blend W2055.ntp W2156.ntp L.ntp --out WWL.nt        # hash 04b67b711628c236
$B eval --network WWL.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv WWL-d1-off.csv
$B eval --network G5.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G5-d1-off.csv
./cand.sh                                             # WWLG, WG, WWWL; cand.log

# 2. A wider proxy, seeds 8600 and 8700 (proxy2.sh, proxy2.log): W2055, WWL, WWWL.
./proxy2.sh

# 3. Packs of WWL, each screened on the three proxy seeds (proxy-pairs.txt, pooled at its end).
$B pack WWL.nt --step 16 --stage-deltas --out WWL-s16.ntp   # 17,596,149 bytes, 04db178cedec2f9f
$B pack WWL.nt --step 8 --out WWL-s8.ntp                    # 18,712,508 bytes, 1254b2aa499dcb4a
for n in WWL-s16 WWL-s8; do
  for seed in 7600 8600 8700; do
    $B eval --network $n.ntp --depth 1 --games 400 --seed $seed --bank bank-eval.csv \
        --bank-stage 16384 --threads 2 --csv $n-d1-$seed.csv
  done
done
# (WWL-s16's seed-7600 file is WWL-s16-d1-off.csv.)

# 4. Depth 3 on fresh games (d3.sh, written before them; d3-note.txt; d3.log).
./d3.sh
