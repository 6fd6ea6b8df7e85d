#!/bin/sh
# The shipped classic network's first stage learned on alone (2026-11-29): `learn --until 16384`
# stops every learning game, and every restart, at its first afterstate holding a 16384, so the
# three stages from the first 16384 on (G3-G5's) keep every weight, and only the stage below
# (C2's, 644,000 games, not learned since 2026-11-28) learns. 2-vCPU Intel Xeon VM, both cores;
# B is the binary of a468822 (the change that added --until).
# The rules, set before any game was measured: a depth-3 run on games 0..99 of seed 46007
# (played by the shipped file with nothing chosen on them, G5d-d3-46007.csv in ../late-cascade)
# only if U's depth-2 mean on the whole games of step 3 is at least the shipped file's.
B=tune2048
N=configs/networks
cp $N/six.ntp $N/six.search.ron .

# 1. U: from the packed file (no coherence sums: every rate starts at 1), C2's method, games
#    stopped at the first 16384. Stopped (SIGTERM) after a save; U.log has every block.
$B learn U --from six.ntp --until 16384 --lambda 0.5 --coherence --restarts --alpha 0.1 \
    --rounds 20 --games 4000000 --block 1000 --save-secs 300 --threads 2

# 2. Greedily, 2,000 whole games of seed 12061; 3. depth 2, 400 whole games of seed 12063; both
#    with the settings file, paired by seed (scripts/pair.py).
for k in base:six.ntp U:U/network.nt; do
  $B eval --network ${k#*:} --settings six.search.ron --depth 0 --games 2000 --seed 12061 \
      --threads 2 --csv d0-${k%%:*}.csv
  $B eval --network ${k#*:} --settings six.search.ron --depth 2 --games 400 --seed 12063 \
      --threads 2 --csv d2-${k%%:*}.csv
done
for d in d0 d2; do
  scripts/pair.py $d-base.csv $d-U.csv | tail -1
  scripts/pair.py --column max_tile --reach 16384 $d-base.csv $d-U.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 $d-base.csv $d-U.csv | tail -1
done

# 4. U's depth-2 mean (412,145) was at least the shipped file's (408,501), so: depth 3 on games
#    0..99 of seed 46007, paired with ../late-cascade/G5d-d3-46007.csv (the shipped file's games).
/usr/bin/time -f "%e s wall %M KB" $B eval --network U/network.nt --settings six.search.ron \
    --depth 3 --games 100 --seed 46007 --threads 2 --csv U-d3-46007.csv > d3-46007.log 2>&1
for c in "" "--column max_tile --reach 16384" "--column max_tile --reach 32768"; do
  scripts/pair.py $c ../late-cascade/G5d-d3-46007.csv U-d3-46007.csv | tail -1
done
