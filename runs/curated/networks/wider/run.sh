#!/bin/sh
# Written 2026-11-30 23:59 UTC, before any of its games, banks or learning existed.
# X: the shipped file (configs/networks/six.ntp, W at 2,350,000 games, nine tuples) widened by
# three six-cell tuples that none of its nine is a mirror or rotation of, the edge L
# (0,1,2,3,7,11), the staircase (0,1,2,6,7,11) and the two half rows (2,3,4,5,6,7), then its
# late stages learned on with W's method (../wide/run.sh step 2) from a bank of the shipped
# file's own depth-1 games. On the 2-vCPU Intel Xeon VM; B is the binary of 4d7e8bc (the code
# of main since). Run from this folder; the banks and X's learning folder go to D.
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
R=$(git rev-parse --show-toplevel)
N=$R/configs/networks/six.ntp
S=$R/configs/networks/six.search.ron
D=${D:-/work/scratch/wider}

# 1. The learning bank: positions every 25 moves of 2,000 depth-1 games of the shipped file with
#    its settings (seed 7950, which nothing had played), mixed as ../late-cascade/mix.py mixes
#    (bank-mix3.csv: 40,000 positions holding a 16384 and no 32768, plus those within 2,000
#    moves before a game's first 32768, the nearest 1,000 twice). mix.py's second argument
#    only feeds bank-mix.csv, which is not used.
$B bank --network $N --settings $S --depth 1 --games 2000 --seed 7950 --stage every:25 \
    --out $D/bank-every25.csv --threads 2
(cd $D && python3 $R/runs/curated/networks/late-cascade/mix.py bank-every25.csv bank-every25.csv)

# 2. The evaluation bank of the gates since 2026-11-29 made again (C2's first-16384 positions,
#    seed 7400; ../wide/run.sh step 1), so that the shipped file's 1,200 depth-1 games from it
#    (../wide-on/W2350000-d1-{7600,8600,8700}.csv) pair with X's.
git show b751b9a:configs/networks/six.ntp > $D/c2.ntp
$B bank --network $D/c2.ntp --depth 1 --games 2000 --seed 7400 --stage 16384 --out $D/bank-eval.csv \
    --threads 2

# 3. Learn: W's method and schedule, the three tuples added (no sums lie beside a packed file,
#    so every rate starts at 1, as W's did), saves every 600 s; stopped by the session's clock.
$B learn $D/X --from $N --add-tuples "0,1,2,3,7,11 0,1,2,6,7,11 2,3,4,5,6,7" \
    --bank $D/bank-mix3.csv --bank-stage every:25 --bank-share 1.0 --lambda 0.5 --coherence \
    --restarts --alpha 0.1 --rounds 20 --games 3000000 --block 1000 --save-secs 600 --threads 2

# 4. The gate (as ../wide-on/gate2.sh): X's last save, packed as the shipped file was (to the
#    same 9,400,000 weights, so it fits 16 MiB), plays the same 1,200 depth-1 games from
#    bank-eval.csv. It goes on to depth 3 only if its paired mean is above the shipped file's
#    with p < 0.05.
$B pack $D/X/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out $D/X.ntp
for seed in 7600 8600 8700; do
  $B eval --network $D/X.ntp --depth 1 --games 400 --seed $seed --bank $D/bank-eval.csv \
      --bank-stage 16384 --threads 2 --csv X-d1-$seed.csv
done
W=../wide-on/W2350000-d1
cat $W-7600.csv > pool-W.csv; tail -n +2 $W-8600.csv >> pool-W.csv; tail -n +2 $W-8700.csv >> pool-W.csv
cat X-d1-7600.csv > pool-X.csv; tail -n +2 X-d1-8600.csv >> pool-X.csv; tail -n +2 X-d1-8700.csv >> pool-X.csv
python3 $R/scripts/pair.py pool-W.csv pool-X.csv | tail -1
python3 $R/scripts/pair.py --column max_tile --reach 32768 pool-W.csv pool-X.csv

# 5. If it passes: depth 3 with the settings file on games 0..99 of seed 116007 (fresh), then the
#    shipped file on the same games. X replaces the shipped file only if its paired mean there
#    is above the shipped file's with p < 0.05; issue 43's goal is read on X's 100 games alone
#    (mean >= 450,000 and a 32768 in >= 40 of them).
$B eval --network $D/X.ntp --settings $S --depth 3 --games 100 --seed 116007 --threads 2 \
    --csv X-d3-116007.csv
$B eval --network $N --settings $S --depth 3 --games 100 --seed 116007 --threads 2 \
    --csv shipped-d3-116007.csv
python3 $R/scripts/pair.py shipped-d3-116007.csv X-d3-116007.csv | tail -1
python3 $R/scripts/pair.py --column max_tile --reach 32768 shipped-d3-116007.csv X-d3-116007.csv
