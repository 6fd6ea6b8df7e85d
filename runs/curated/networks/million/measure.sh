#!/bin/bash
# After Acont's save at 1,000,000 games: greedy and depth-2 games of it, of its start (A357.ntp)
# and of the shipped configs/networks/six.ntp, on fresh seeds, paired by seed.
# (Its files named network.nt-* were renamed Acont-1M-* in the repository.)
cd /work/scratch
T=/work/scratch/tune2048-217e38e
mkdir -p m && cd m
for n in ../Acont/network.nt ../A357.ntp /work/main/configs/networks/six.ntp; do
  b=$(basename $n)
  $T eval --network $n --depth 0 --games 2000 --seed 13061 --threads 2 --csv $b-d0-13061.csv
done
for n in ../Acont/network.nt /work/main/configs/networks/six.ntp; do
  b=$(basename $n)
  echo "d2 $b start $(date -u +%H:%M:%S)"
  $T eval --network $n --depth 2 --games 200 --seed 13062 --threads 2 --csv $b-d2-13062.csv
  echo "d2 $b end $(date -u +%H:%M:%S)"
done
