#!/bin/sh
# Tile-downgrading from the first 16384 on the shipped classic network (configs/networks/six.ntp),
# 2026-11-28, on the 2-vCPU Intel Xeon VM. Every pair plays the same seeds with the setting on and off;
# scripts/pair.py pairs them by game. Seeds 14001, 14002, 14011 and 16007 were played by nothing before.
# Run from the repository root; the CSVs are written there.
B=target/release/tune2048
D=runs/curated/networks
N=configs/networks/six.ntp
printf '(downgrade_at: 0)\n' > off.ron
for at in 16384 8192 4096 32768; do printf "(downgrade_at: $at)\n" > on$at.ron; done

# 1. Greedy, 2,000 games: which threshold (binary of 92c6ae6: one step of downgrading).
for s in off on16384 on8192 on4096 on32768; do
  $B eval --network $N --settings $s.ron --depth 0 --games 2000 --seed 14001 --threads 2 --csv d0-$s.csv
done
# 2. Depth 2, 200 games, at 16384 (binary of 92c6ae6).
for s in off on16384; do
  $B eval --network $N --settings $s.ron --depth 2 --games 200 --seed 14002 --threads 2 --csv d2-$s.csv
done
# 3. Downgrading again while the largest tile is still at the threshold (the binary of this change),
#    the same games: it differs only on boards holding a 32768.
$B eval --network $N --settings on16384.ron --depth 0 --games 2000 --seed 14001 --threads 2 --csv d0-again.csv
$B eval --network $N --settings on16384.ron --depth 2 --games 200 --seed 14002 --threads 2 --csv d2-again.csv
# 4. The twos network at 16384, greedily (it learned its 16384 stage).
for s in off on16384; do
  $B eval --variant twos --network configs/networks/twos.ntp --settings $s.ron --depth 0 --games 2000 \
      --seed 14011 --threads 2 --csv twos-d0-$s.csv
done
# 5. Depth 3, 100 fresh games (seed 16007, games 0..99), on then off (d3.sh; the binary of this change).
for s in on16384 off; do
  /usr/bin/time -f "%e s wall" $B eval --network $N --settings $s.ron --depth 3 --games 100 --seed 16007 \
      --threads 2 --csv d3-$s.csv
done
# 6. Depth 3, games 100..199 of seed 6007 with the setting (d3b.sh), paired with the shipped network's own
#    games on them (../classic-644k/shipped-d3-6007-100-199.csv) and the reference's (../packed/reference-d3-6007.csv).
/usr/bin/time -f "%e s wall" $B eval --network $N --settings on16384.ron --depth 3 --first 100 --games 100 \
    --seed 6007 --threads 2 --csv d3-6007-on16384.csv
for p in "d0-off d0-on16384" "d2-off d2-on16384" "d0-on16384 d0-again" "d2-on16384 d2-again" \
         "d2-off d2-again" "twos-d0-off twos-d0-on16384" "d3-off d3-on16384"; do
  set -- $p; scripts/pair.py $1.csv $2.csv | tail -1
done
scripts/pair.py $D/classic-644k/shipped-d3-6007-100-199.csv d3-6007-on16384.csv | tail -1

# 7. Later the same day (f899eac and patches on it, each switched on by an environment variable;
#    the patches were not kept): depth 1 (eval's default), 2,000 games of seed 17101, played by
#    nothing before, with configs/networks/six.search.ron.
S=configs/networks/six.search.ron
$B eval --network $N --settings $S --games 2000 --seed 17101 --threads 2 --csv gap-d1-high.csv
#    The lowest missing rank instead of the highest (T2048_GAP_LOW), at or above rank F+1
#    (T2048_GAP_FLOOR=F: 0, 1, 2, 4), falling back to the highest where there is none.
for f in 0 1 2 4; do
  T2048_GAP_LOW=1 T2048_GAP_FLOOR=$f $B eval --network $N --settings $S --games 2000 --seed 17101 \
      --threads 2 --csv gap-d1-low$f.csv
done
#    Downgrading a board whose largest tile is 16384 only once its second largest has rank R
#    (T2048_SECOND=R: 11, 12, 13, i.e. 2048, 4096, 8192); a 32768 always.
for r in 11 12 13; do
  T2048_SECOND=$r $B eval --network $N --settings $S --games 2000 --seed 17101 --threads 2 \
      --csv second-d1-$r.csv
done
for o in gap-d1-low0 gap-d1-low1 gap-d1-low2 gap-d1-low4 second-d1-11 second-d1-12 second-d1-13; do
  scripts/pair.py gap-d1-high.csv $o.csv | tail -2 | head -1
  scripts/pair.py --column max_tile --reach 32768 gap-d1-high.csv $o.csv | tail -1
done

# 8. Learning as the search plays (learn-experiment.patch: `learn --downgrade-at`, not kept):
#    two runs from six.ntp at once, one core each, the same seeds, stopped after 13,000 and
#    15,000 games.
for arm in ctl dg; do
  extra=""; [ $arm = dg ] && extra="--downgrade-at 16384"
  $B learn $arm --from $N --lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 \
      --threads 1 --games 734000 --block 1000 --save-secs 600 $extra > $arm.log 2>&1 &
done
wait
cp ctl/progress.csv learn-ctl-progress.csv; cp dg/progress.csv learn-dg-progress.csv

# 9. A stage of its own for downgraded boards (late-tables-experiment.patch on f899eac, not kept:
#    T2048_COPY0 makes stage 1 of the --from network a copy of stage 0; T2048_LATE scores
#    downgraded boards in stage 1, in learning and in search; T2048_REAL_REWARD learns the real
#    move's points; T2048_LEAF downgrades every afterstate on its own, not the board moved on).
#    Each from six.ntp on both cores, the same game seeds as step 8, stopped by hand.
L="--from $N --lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 --threads 2 --games 844000 --block 1000 --save-secs 300"
T2048_COPY0=1 T2048_LATE=1 $B learn halfscale $L --downgrade-at 16384
T2048_COPY0=1 T2048_LATE=1 T2048_REAL_REWARD=1 $B learn realreward $L --downgrade-at 16384
T2048_COPY0=1 T2048_LATE=1 T2048_LEAF=1 $B learn leaf $L --downgrade-at 16384
T2048_COPY0=1 $B learn copy $L        # the copy alone, no downgrading: a control
for r in halfscale realreward leaf copy; do cp $r/progress.csv late-$r-progress.csv; done
