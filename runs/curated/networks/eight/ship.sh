#!/bin/sh
# Stops E8 right after its next save, packs its network to 16 MB by impact and measures
# it greedily against the full network and the shipped six.ntp on fresh seeds (12051).
set -e
cd /work/scratch/long3
T=/work/scratch/long3/t6   # tune2048 built at d16bf06
n=$(grep -c saved E8.log)
while [ "$(grep -c saved E8.log)" = "$n" ]; do sleep 2; done
sleep 8
pkill -9 -f "t6 learn E8" || true
sleep 2
G=$(grep saved E8.log | tail -n 1 | awk '{print $3}')
echo "E8 stopped at $G games $(date -u +%H:%M:%S)" > ship/log.txt
cp E8/network.nt ship/E8-$G.nt
cp E8/coherence-$G.tc ship/coherence-$G.tc
cd ship
K=9500000
$T pack E8-$G.nt --step 16 --keep $K --keep-by impact --out impact.ntp >> log.txt 2>&1
size=$(stat -c %s impact.ntp)
K=$(python3 -c "print(int($K * 15990000 / $size) // 10000 * 10000)")
$T pack E8-$G.nt --step 16 --keep $K --keep-by impact --out impact.ntp >> log.txt 2>&1
echo "impact keep $K size $(stat -c %s impact.ntp)" >> log.txt
for n in E8-$G.nt impact.ntp /work/main/configs/networks/six.ntp; do
  b=$(basename $n)
  $T eval --network $n --depth 0 --games 2000 --seed 12051 --threads 2 --csv $b-d0-12051.csv >> log.txt 2>&1
done
echo "done $(date -u +%H:%M:%S)" >> log.txt
