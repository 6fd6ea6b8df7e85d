#!/bin/sh
# Written 2026-11-30 21:20 UTC, before any game of seed 106007 was played by anything.
# The shipped file (configs/networks/six.ntp since 9f0f318, W2350000) measured a second time,
# and timed beside the reference weights. Issue 43's strength goal is read, once these games are
# played, over the 200 games of seeds 96007 and 106007 pooled (both fresh when played): it counts
# as met only if the pooled mean is >= 450,000 and a 32768 is made in >= 40% of the 200. Seed
# 106007 alone is reported too, whatever it shows. Nothing is chosen on these games.
# 1. Time a move: `bench search --reps 1` on one thread, nothing else running, interleaved in
#    two rounds, reference weights then the shipped file (the bench seeds' games, no settings).
# 2. The reference weights at depth 3 on games 0..99 of seed 106007 (two threads): their moves a
#    second give the time a move a thread the shipped file is given in 3.
# 3. At equal time: the shipped file, `--move-ms` = 2 threads / the reference's moves a second,
#    rounded to 0.01 ms, on the same games, with the settings file, nothing else running.
# 4. Depth 3 on the same games, with the settings file.
# Run from this folder; output in shipped-106007.log.
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
S=/work/main/configs/networks/six.search.ron
N=/work/main/configs/networks/six.ntp
R=/work/main/configs/weights/nneonneo.ron
for r in 1 2; do
  echo "round $r reference"; $B bench search --reps 1 2>&1 | grep -E '^depth'
  echo "round $r shipped"; $B bench search --reps 1 --network $N 2>&1 | grep -E '^depth'
done
/usr/bin/time -f "%e s wall %M KB" $B eval --weights $R --depth 3 --games 100 --seed 106007 \
    --threads 2 --csv reference-d3-106007.csv 2>&1 | tee reference-d3-106007.out
rate=$(grep -oE '[0-9]+ moves/s' reference-d3-106007.out | grep -oE '[0-9]+')
ms=$(python3 -c "print(f'{2000/$rate:.2f}')")
echo "reference: $rate moves/s on two threads; the shipped file is given $ms ms a move"
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N --settings $S --depth 3 --move-ms $ms \
    --games 100 --seed 106007 --threads 2 --csv shipped-ms-106007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --network $N --settings $S --depth 3 \
    --games 100 --seed 106007 --threads 2 --csv shipped-d3-106007.csv
