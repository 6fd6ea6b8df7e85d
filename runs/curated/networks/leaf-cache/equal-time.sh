#!/bin/sh
# Written 2026-12-01 11:40 UTC, before any game of seeds 146007 or 156007 was played by anything.
# The search's leaf cache (a search reads back the score of a leaf it has scored before) leaves
# every fixed-depth game as it was (a unit test pins the values bit for bit; the bench rounds in
# bench-rounds.txt play the same games with both builds). It changes what a clock buys. Here the
# shipped file plays at the reference weights' time a move at depth 3, with the build before
# the cache (B0, 3c2a953) and the build with it (B1), on the same games, nothing else running.
# The rule: a gain at equal time is claimed only if B1 beats B0 over the 200 games pooled with a
# paired p < 0.05 (scripts/pair.py); the 32768 counts are reported with McNemar's p, whatever
# they show. Nothing is chosen on these games.
# For each seed: the reference weights at depth 3 on games 0..99 (two threads); their moves a
# second give the time a move a thread, ms = 2000 / moves a second, rounded to 0.01 ms; then
# the shipped file at --move-ms ms with its settings file, B0 then B1 for seed 146007 and B1
# then B0 for seed 156007.
# Run from this folder; output in equal-time.log.
B0=${B0:-/tmp/tune2048-base}
B1=${B1:-/tmp/tune2048-new}
S=../../../../configs/networks/six.search.ron
N=../../../../configs/networks/six.ntp
R=../../../../configs/weights/nneonneo.ron
for seed in 146007 156007; do
  /usr/bin/time -f "%e s wall %M KB" $B1 eval --weights $R --depth 3 --games 100 --seed $seed \
      --threads 2 --csv reference-d3-$seed.csv 2>&1 | tee reference-d3-$seed.out
  rate=$(grep -oE '[0-9]+ moves/s' reference-d3-$seed.out | grep -oE '[0-9]+')
  ms=$(python3 -c "print(f'{2000/$rate:.2f}')")
  echo "seed $seed reference: $rate moves/s on two threads; the shipped file is given $ms ms a move"
  if [ $seed = 146007 ]; then order="0 1"; else order="1 0"; fi
  for b in $order; do
    eval bin=\$B$b
    echo "seed $seed B$b ($bin)"
    /usr/bin/time -f "%e s wall %M KB" $bin eval --network $N --settings $S --depth 3 \
        --move-ms $ms --games 100 --seed $seed --threads 2 --csv ms-B$b-$seed.csv
  done
done
