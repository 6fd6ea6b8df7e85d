#!/bin/sh
# Learning games played one chance layer deep (2026-11-29): the shipped classic network
# (configs/networks/six.ntp, G5 packed) learned on from the first-16384 positions of a bank, with
# `learn --lookahead` (L) and without it (C, the control), the same games and method otherwise;
# then both, and the shipped file, played from the first-16384 positions of another bank, paired
# by game (scripts/pair.py). 2-vCPU Intel Xeon VM, both cores; B is the binary of cb549d4 (the
# change that added --lookahead). L's first 15 minutes ran beside a build and tests.
# The rule set before any game was played: a depth-3 run only if L beats both the shipped file
# and C at depth 2 with p < 0.05.
B=tune2048
N=configs/networks
cp $N/six.ntp $N/six.search.ron .

# 1. Banks: the first board holding a 16384 of depth-1 games of the shipped file, seed 7300 to
#    learn from (810 positions), seed 7800 to measure on (1,599 positions; no game had used it).
$B bank --network six.ntp --depth 1 --games 1000 --seed 7300 --stage 16384 --out bank-learn.csv --threads 2
$B bank --network six.ntp --depth 1 --games 2000 --seed 7800 --stage 16384 --out bank-eval.csv --threads 2

# 2. L: from the packed file (no coherence sums: every rate starts at 1), with lookahead. Stopped
#    (SIGTERM) after its save at 1,959,400 games (17,400 learned, 2,500 s of learning; L.log).
$B learn L --from six.ntp --bank bank-learn.csv --bank-stage 16384 --bank-share 1.0 --lambda 0.5 \
    --coherence --restarts --lookahead --alpha 0.1 --rounds 20 --games 3000000 --block 200 \
    --save-secs 600 --threads 2
cp L/network.nt L1959400.nt
#    C: the same without --lookahead, to the same game (215 s of learning; C.log).
$B learn C --from six.ntp --bank bank-learn.csv --bank-stage 16384 --bank-share 1.0 --lambda 0.5 \
    --coherence --restarts --alpha 0.1 --rounds 20 --games 1959400 --block 200 --save-secs 600 \
    --threads 2

# 3. Depth 1, 800 games of seed 7810, and depth 2, 400 games of seed 7820, from bank-eval.csv.
for k in base:six.ntp L:L1959400.nt C:C/network.nt; do
  $B eval --network ${k#*:} --settings six.search.ron --depth 1 --games 800 --seed 7810 \
      --bank bank-eval.csv --bank-stage 16384 --threads 2 --csv d1-${k%%:*}.csv
done
for k in base:six.ntp L:L1959400.nt; do
  $B eval --network ${k#*:} --settings six.search.ron --depth 2 --games 400 --seed 7820 \
      --bank bank-eval.csv --bank-stage 16384 --threads 2 --csv d2-${k%%:*}.csv
done
for p in "base L" "base C" "C L"; do
  set -- $p
  scripts/pair.py d1-$1.csv d1-$2.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 d1-$1.csv d1-$2.csv | tail -1
done
scripts/pair.py d2-base.csv d2-L.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 d2-base.csv d2-L.csv | tail -1
# L lost at depth 1 and 2 (results page), so C did not play depth 2 and no depth-3 run was made.

# 4. Where L's own play started: the shipped file from bank-learn.csv (the positions learned from)
#    at depth 1 (800 games) and greedily (2,000), seed 7810, and two blocks of learning games with
#    lookahead at a rate too small to move a weight's value (T-progress.csv).
$B eval --network six.ntp --settings six.search.ron --depth 1 --games 800 --seed 7810 \
    --bank bank-learn.csv --bank-stage 16384 --threads 2 --csv d1-base-on-learnbank.csv
$B eval --network six.ntp --depth 0 --games 2000 --seed 7810 --bank bank-learn.csv \
    --bank-stage 16384 --threads 2 --csv d0-base-on-learnbank.csv
$B learn T --from six.ntp --bank bank-learn.csv --bank-stage 16384 --bank-share 1.0 --lambda 0.5 \
    --restarts --lookahead --alpha 0.0000001 --rounds 20 --games 1942400 --block 200 --threads 2

# 5. The same pair at a fifth of the rate, each to 9,000 games (L2: 1,272 s of learning; C2: 125 s),
#    at depth 1 on the games of step 3.
$B learn L2 --from six.ntp --bank bank-learn.csv --bank-stage 16384 --bank-share 1.0 --lambda 0.5 \
    --coherence --restarts --lookahead --alpha 0.02 --rounds 20 --games 1951000 --block 200 \
    --save-secs 600 --threads 2
$B learn C2 --from six.ntp --bank bank-learn.csv --bank-stage 16384 --bank-share 1.0 --lambda 0.5 \
    --coherence --restarts --alpha 0.02 --rounds 20 --games 1951000 --block 200 --save-secs 600 \
    --threads 2
for k in L2 C2; do
  $B eval --network $k/network.nt --settings six.search.ron --depth 1 --games 800 --seed 7810 \
      --bank bank-eval.csv --bank-stage 16384 --threads 2 --csv d1-$k.csv
done
for p in "base L2" "base C2" "C2 L2"; do
  set -- $p
  scripts/pair.py d1-$1.csv d1-$2.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 d1-$1.csv d1-$2.csv | tail -1
done
