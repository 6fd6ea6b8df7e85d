#!/bin/sh
# W learned on from its save at 2,156,000 games (runs/curated/networks/wide), on the 2-vCPU Intel
# Xeon VM, 2026-11-30. B: the binary of a78d4cf, the one W learned with. Run from a folder holding
# W's learning folder (W/), bank-mix3.csv and bank-eval.csv (../wide/run.sh steps 1 and 2 make them).
B=./tune2048-a78d4cf
S=configs/networks/six.search.ron

# 1. Learn on with the same method and bank (W-resume2.sh; log W-resume2.log, rows W-progress.csv),
#    killed at 16:33 after its save at 2,350,000 (194,000 games in 4,998 s of blocks).
$B learn W --resume --games 3000000 --bank bank-mix3.csv --bank-stage every:25 \
    --bank-share 1.0 --block 1000 --save-secs 1200 --threads 2

# 2. The gate, written in gate.sh before the save existed (log gate.log): the save packed as
#    W2055.ntp was (16,525,502 bytes, hash f126ee9cc692add2), then 1,200 games at depth 1 from the
#    first-16384 positions of bank-eval.csv (seeds 7600, 8600, 8700), W2156.ntp on them too.
$B pack W/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out W2350000.ntp
for seed in 7600 8600 8700; do
  $B eval --network W2350000.ntp --depth 1 --games 400 --seed $seed --bank bank-eval.csv \
      --bank-stage 16384 --threads 2 --csv W2350000-d1-$seed.csv
done
# W2055's games on them: ../wide/W2055-packed-d1-off.csv (seed 7600), ../blend/W2055-d1-8600.csv,
# ../blend/W2055-d1-8700.csv; W2156's: ../wide/W2156-packed-d1-off.csv and W2156-d1-86/8700.csv.
for net in W2055 W2156 W2350000; do
  case $net in
    W2055) a=../wide/W2055-packed-d1-off.csv; b=../blend/W2055-d1-8600.csv; c=../blend/W2055-d1-8700.csv;;
    W2156) a=../wide/W2156-packed-d1-off.csv; b=W2156-d1-8600.csv; c=W2156-d1-8700.csv;;
    *) a=$net-d1-7600.csv; b=$net-d1-8600.csv; c=$net-d1-8700.csv;;
  esac
  cat $a > pool-$net.csv; tail -n +2 $b >> pool-$net.csv; tail -n +2 $c >> pool-$net.csv
done
for net in W2156 W2350000; do
  scripts/pair.py pool-W2055.csv pool-$net.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 pool-W2055.csv pool-$net.csv
done

# 3. Depth 3 on games 0..99 of seed 96007, a seed nothing had played (d3.sh, log d3-96007.log).
/usr/bin/time -f "%e s wall %M KB" $B eval --network W2350000.ntp --settings $S --depth 3 \
    --games 100 --seed 96007 --threads 2 --csv W2350000-d3-96007.csv

# 4. The shipped file of the time (G5, configs/networks/six.ntp at 61bb1a8) on the same games, in
#    the next session (shipped-d3.sh, written before its games; log shipped-d3-96007.log), then
#    the pairing the rule of d3.sh reads: p < 0.05 ships W2350000.
git show 61bb1a8:configs/networks/six.ntp > G5.ntp
/usr/bin/time -f "%e s wall %M KB" $B eval --network G5.ntp --settings $S --depth 3 \
    --games 100 --seed 96007 --threads 2 --csv shipped-d3-96007.csv
scripts/pair.py shipped-d3-96007.csv W2350000-d3-96007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 shipped-d3-96007.csv W2350000-d3-96007.csv

# 5. Shipped: W2350000.ntp became configs/networks/six.ntp. Its greedy games for the tests and the
#    results page (evidence.sh, with main at a691d81 as B; log evidence.log; W-resume3 learning on
#    beside them), the reference weights' depth-3 games of seed 96007 (reference.sh, log
#    reference.log), and the pairings quoted.
cp W2350000.ntp configs/networks/six.ntp
$B eval --network W2350000.ntp --depth 0 --games 2000 --seed 9001 --threads 2 --csv W2350000-d0-9001.csv
$B eval --network W2350000.ntp --depth 0 --games 2000 --seed 14001 --threads 2 --csv W2350000-d0-14001.csv
$B eval --network W2350000.ntp --settings $S --depth 0 --games 2000 --seed 14001 --threads 2 \
    --csv W2350000-settings-d0-14001.csv
$B eval --weights configs/weights/nneonneo.ron --depth 3 --games 100 --seed 96007 --threads 2 \
    --csv reference-d3-96007.csv
scripts/pair.py reference-d3-96007.csv W2350000-d3-96007.csv | tail -1
scripts/pair.py reference-d3-96007.csv shipped-d3-96007.csv | tail -1
scripts/pair.py ../late-cascade/G5d-d0-9001.csv W2350000-d0-9001.csv | tail -1
scripts/pair.py ../late-cascade/G5d-settings-d0-14001.csv W2350000-settings-d0-14001.csv | tail -1
scripts/pair.py W2350000-d0-14001.csv W2350000-settings-d0-14001.csv | tail -1

# 6. W learned on from its save at 2,350,000 (W-resume3.sh; log W-resume3.log, rows W-progress3.csv),
#    killed at 20:14 after its save at 2,540,000 (190,000 games in 5,013 s of blocks), then the
#    gate written in gate2.sh before the save existed (log gate2.log): packed as W2350000 was, it
#    goes to depth 3 only if it beats W2350000 at depth 1 with p < 0.05 on W2350000's 1,200 games.
$B learn W --resume --games 3000000 --bank bank-mix3.csv --bank-stage every:25 \
    --bank-share 1.0 --block 1000 --save-secs 1200 --threads 2
$B pack W/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out W2540000.ntp
for seed in 7600 8600 8700; do
  $B eval --network W2540000.ntp --depth 1 --games 400 --seed $seed --bank bank-eval.csv \
      --bank-stage 16384 --threads 2 --csv W2540000-d1-$seed.csv
done
cat W2540000-d1-7600.csv > pool-W2540000.csv
tail -n +2 W2540000-d1-8600.csv >> pool-W2540000.csv; tail -n +2 W2540000-d1-8700.csv >> pool-W2540000.csv
scripts/pair.py pool-W2350000.csv pool-W2540000.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 pool-W2350000.csv pool-W2540000.csv

# 7. The shipped file measured again, the next session, on a new machine (binary of 4d7e8bc):
#    shipped-106007.sh (written and committed before any game of seed 106007, with the rule that
#    reads issue 43's goal over seeds 96007 and 106007 pooled; log shipped-106007.log), then
#    after-106007.sh (log after-106007.log), then the pairings quoted.
./shipped-106007.sh > shipped-106007.log 2>&1
./after-106007.sh > after-106007.log 2>&1
scripts/pair.py reference-d3-106007.csv shipped-d3-106007.csv | tail -1
scripts/pair.py reference-d3-106007.csv shipped-ms-106007.csv | tail -1
scripts/pair.py shipped-ms-106007.csv shipped-d3-106007.csv | tail -1
scripts/pair.py reference-d4-106007.csv shipped-d3-106007.csv | tail -1
scripts/pair.py --column max_tile --reach 16384 reference-d4-106007.csv shipped-d3-106007.csv
