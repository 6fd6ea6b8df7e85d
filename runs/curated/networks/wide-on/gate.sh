#!/bin/sh
# Written 2026-11-30 15:14 UTC, before W's save past 2,156,000 exists or any game of it was played.
# W learned on from its save at 2,156,000 (../wide/W-resume2.sh, same method and bank). Its last save
# of this session, packed as W2055.ntp was, is the candidate X.
# The gate: X plays depth 3 on fresh games (seed 96007) only if at depth 1 from the first-16384
# positions of bank-eval.csv, over 1,200 games (seeds 7600, 8600, 8700, 400 each), its paired mean is
# above W2055.ntp's with p < 0.05. W2156.ntp plays the same 1,200 games, for the trajectory only.
B=/work/scratch/wide/tune2048-a78d4cf
E=/work/scratch/late/bank-eval.csv
SAVE=$1   # games of the save, e.g. 2300000
$B pack ../wide/W/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out W$SAVE.ntp
for net in W$SAVE W2156; do
  for seed in 7600 8600 8700; do
    [ -f $net-d1-$seed.csv ] && continue
    f=../wide/$net.ntp; [ -f $f ] || f=$net.ntp
    $B eval --network $f --depth 1 --games 400 --seed $seed --bank $E --bank-stage 16384 \
        --threads 2 --csv $net-d1-$seed.csv | grep 'mean score'
  done
  cat $net-d1-7600.csv > pool-$net.csv; tail -n +2 $net-d1-8600.csv >> pool-$net.csv
  tail -n +2 $net-d1-8700.csv >> pool-$net.csv
done
cp ../ens/pool-W2055.csv .
for net in W2156 W$SAVE; do
  echo "== $net against W2055"
  python3 /work/main/scripts/pair.py pool-W2055.csv pool-$net.csv | tail -1
  python3 /work/main/scripts/pair.py --column max_tile --reach 32768 pool-W2055.csv pool-$net.csv
done
