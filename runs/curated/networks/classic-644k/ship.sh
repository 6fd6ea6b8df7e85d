#!/bin/sh
# Stops the learners right after folder $1's next save, packs its network for shipping
# and measures it.
set -e
cd /work/scratch/long2
T=/work/scratch/long2/t5   # tune2048 built at d458e13
F=$1
n=$(grep -c saved $F.log)
while [ "$(grep -c saved $F.log)" = "$n" ]; do sleep 2; done
sleep 8
pkill -9 -f "t3 learn C2" || true
sleep 2
G=$(grep saved $F.log | tail -n 1 | awk '{print $2}')
echo "$F stopped at $G games" > ship/log.txt
cp $F/network.nt ship/C2-$G.nt
cp $F/coherence-$G.tc ship/coherence-$G.tc
cd ship
K=9600000
$T pack C2-$G.nt --step 16 --keep $K --keep-by impact --out impact.ntp >> log.txt 2>&1
size=$(stat -c %s impact.ntp)
K=$(python3 -c "print(int($K * 15990000 / $size) // 10000 * 10000)")
$T pack C2-$G.nt --step 16 --keep $K --keep-by impact --out impact.ntp >> log.txt 2>&1
echo "impact keep $K" >> log.txt
size=$(stat -c %s impact.ntp)
S=$(python3 -c "print(int($K * 1.09) // 10000 * 10000)")
$T pack C2-$G.nt --step 16 --keep $S --out sums.ntp >> log.txt 2>&1
echo "sums keep $S" >> log.txt
for n in C2-$G.nt impact.ntp sums.ntp /work/main/configs/networks/six.ntp; do
  b=$(basename $n)
  $T eval --network $n --depth 0 --games 2000 --seed 12031 --threads 2 --csv $b-d0-12031.csv >> log.txt 2>&1
done
$T eval --network impact.ntp --depth 0 --games 2000 --seed 9001 --threads 2 --csv impact-d0-9001.csv >> log.txt 2>&1
echo "d3 start $(date -u +%H:%M:%S)" >> log.txt
/usr/bin/time -v $T eval --network impact.ntp --depth 3 --first 100 --games 100 --seed 6007 --threads 2 --csv impact-d3-6007-100-199.csv >> log.txt 2>&1
echo "d3 end $(date -u +%H:%M:%S)" >> log.txt
