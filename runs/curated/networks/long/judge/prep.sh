#!/bin/sh
# Snapshot T's last save, pack it as the shipped twos networks are packed, and measure:
# greedy full vs packed (2000 games, seed 6061), depth-1 proxy T.ntp vs the shipped twos.ntp
# (1000 games, seed 7331, as docs/src/results/networks.md's earlier proxy).
set -e
cd /work/scratch/judgeT
B=/work/main/target/release/tune2048
cp /work/main/target/release/tune2048 ./tune2048
cp /work/main/configs/networks/twos.ntp ./blend.ntp
cp /work/scratch/long/T/network.nt T.nt
$B pack T.nt --step 16 --drop 64 --out T.ntp
ls -la T.nt T.ntp blend.ntp
for n in T.nt T.ntp; do
  $B eval --variant twos --network $n --depth 0 --games 2000 --seed 6061 --threads 2 --csv greedy-$n.csv | tail -3
done
/work/main/scripts/pair.py greedy-T.nt.csv greedy-T.ntp.csv | tail -3
for n in blend.ntp T.ntp; do
  /usr/bin/time -f "%e s" $B eval --variant twos --network $n --depth 1 --games 1000 --seed 7331 --threads 2 --csv d1-$n.csv | tail -3
done
/work/main/scripts/pair.py --reach 32768 d1-blend.ntp.csv d1-T.ntp.csv | tail -4
