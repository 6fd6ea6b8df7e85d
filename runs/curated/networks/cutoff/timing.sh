#!/bin/sh
# The cost of a move with the cutoff off, on positions both settings play alike: games 7 and 3 of
# seed 106007 (identical moves and score with and without the cutoff), one thread, interleaved in
# two rounds, nothing else running. Output in timing.log.
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
S=/work/main/configs/networks/six.search.ron
N=/work/main/configs/networks/six.ntp
for r in 1 2; do
  for g in 7 3; do
    for c in 0.0001 0; do
      echo "round $r game $g cutoff $c"
      $B eval --network $N --settings $S --prob-cutoff $c --depth 3 --games 1 --first $g \
          --seed 106007 --threads 1 2>&1 | grep -E 'mean score|moves/s'
    done
  done
done
