#!/bin/sh
# Written 2026-11-30 19:15 UTC, before W's next save past 2,350,000 exists or any game of it was played.
# W learned on from its save at 2,350,000 (../wide/W-resume3.sh, same method, bank and binary). Its
# last save of this session, packed as W2350000.ntp was, is the candidate X.
# The gate: X plays depth 3 on fresh games (seed 106007, games 0..99, next session, beside the
# shipped file W2350000 on the same games) only if at depth 1 from the first-16384 positions of
# bank-eval.csv, over the 1,200 games W2350000 played in gate.sh (seeds 7600, 8600, 8700, 400 each),
# its paired mean is above W2350000's with p < 0.05.
B=/work/scratch/wide/tune2048-a78d4cf
E=/work/scratch/late/bank-eval.csv
SAVE=$1   # games of the save, e.g. 2450000
$B pack ../wide/W/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out W$SAVE.ntp
for seed in 7600 8600 8700; do
  [ -f W$SAVE-d1-$seed.csv ] && continue
  $B eval --network W$SAVE.ntp --depth 1 --games 400 --seed $seed --bank $E --bank-stage 16384 \
      --threads 2 --csv W$SAVE-d1-$seed.csv | grep 'mean score'
done
cat W$SAVE-d1-7600.csv > pool-W$SAVE.csv; tail -n +2 W$SAVE-d1-8600.csv >> pool-W$SAVE.csv
tail -n +2 W$SAVE-d1-8700.csv >> pool-W$SAVE.csv
echo "== W$SAVE against W2350000"
python3 /work/main/scripts/pair.py pool-W2350000.csv pool-W$SAVE.csv | tail -1
python3 /work/main/scripts/pair.py --column max_tile --reach 32768 pool-W2350000.csv pool-W$SAVE.csv
