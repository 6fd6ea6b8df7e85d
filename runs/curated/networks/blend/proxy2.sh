#!/bin/bash
# A wider depth-1 proxy: 800 more games from the same first-16384 positions, seeds 8600 and 8700.
B=/work/scratch/ens/tune2048; L=/work/scratch/late
for seed in 8600 8700; do
  for net in $L/W2055.ntp WWL.nt WWWL.nt; do
    n=$(basename $net); n=${n%.*}
    $B eval --network $net --depth 1 --games 400 --seed $seed --bank $L/bank-eval.csv \
      --bank-stage 16384 --threads 2 --csv $n-d1-$seed.csv | grep 'mean score'
  done
done
