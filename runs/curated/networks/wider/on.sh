#!/bin/sh
# Written 2026-12-01 05:44 UTC, before X learned on from its save at 2,454,000 and before any of
# the packs or games below. d3.sh's result: X's step-32 pack scored 1.030x the shipped file at
# depth 3 on fresh games (p = 0.56), a 32768 in 38 of 100 each; at depth 1 it had made 404
# 32768s of 1,200 against the shipped file's 359. X's rates started at 1 at 2,350,000 games and
# its blocks were still rising; this is whether more of the same learning moves it.
# On the 2-vCPU Intel Xeon VM with the binary of 4d7e8bc; run from this folder, one step at a
# time (step 1 is stopped by the session's clock: its last save is what steps 2 and 3 read).
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
R=$(git rev-parse --show-toplevel)
S=$R/configs/networks/six.search.ron
D=${D:-/work/scratch/wider}
STEP=${1:-}

case $STEP in
1)
  # X learns on with the coherence sums of its save (same method, bank and binary as run.sh
  # step 3), saves every 600 s, to 2,640,000 games or the session's stop, whichever is first.
  $B learn $D/X --resume --games 2640000 --bank $D/bank-mix3.csv --bank-stage every:25 \
      --bank-share 1.0 --block 1000 --save-secs 600 --threads 2
  ;;
2)
  # The gate. X's last save (G games, read from the name of the coherence sums beside it), packed as X's step-32 pack was: step 32,
  # keeping by impact as many weights as fit 16,700,000 bytes, tried from 11,140,000 down by
  # 100,000. It plays the gates' 1,200 depth-1 games from bank-eval.csv (seeds 7600, 8600,
  # 8700) and is paired with X's step-32 pack at 2,454,000 on them (pool-X-s32-k11140000.csv)
  # and with the shipped file (pool-W.csv). It goes to depth 3 (step 3) only if its paired
  # mean is above the step-32 pack's at 2,454,000 with p < 0.05; the pairing with the shipped
  # file is reported and decides nothing.
  G=$(ls $D/X/coherence-*.tc | sed 's/.*coherence-\([0-9]*\)\.tc/\1/')
  KEEP=11140000
  while :; do
    $B pack $D/X/network.nt --step 32 --keep $KEEP --keep-by impact --keep-unmet \
        --stage-deltas --out $D/X$G.ntp || exit 1
    [ $(stat -c %s $D/X$G.ntp) -le 16700000 ] && break
    KEEP=$((KEEP - 100000))
  done
  ls -l $D/X$G.ntp
  for seed in 7600 8600 8700; do
    $B eval --network $D/X$G.ntp --depth 1 --games 400 --seed $seed --bank $D/bank-eval.csv \
        --bank-stage 16384 --threads 2 --csv X$G-d1-$seed.csv | grep 'mean score'
  done
  P=$D/pool-X$G.csv
  cat X$G-d1-7600.csv > $P
  tail -n +2 X$G-d1-8600.csv >> $P; tail -n +2 X$G-d1-8700.csv >> $P
  echo "== X at $G against X's step-32 pack at 2,454,000 (decides)"
  python3 $R/scripts/pair.py $D/pool-X-s32-k11140000.csv $P | tail -1
  python3 $R/scripts/pair.py --column max_tile --reach 32768 $D/pool-X-s32-k11140000.csv $P
  echo "== against the shipped file (reported only)"
  python3 $R/scripts/pair.py $D/pool-W.csv $P | tail -1
  python3 $R/scripts/pair.py --column max_tile --reach 32768 $D/pool-W.csv $P
  ;;
3)
  # If the gate passed: depth 3 with the settings file on games 0..99 of seed 126007, which
  # nothing has played, then the shipped file on the same games, paired. It replaces the
  # shipped file only if its paired mean is above the shipped file's with p < 0.05; issue
  # 43's goal is read on its 100 games (mean >= 450,000 and a 32768 in >= 40 of them).
  G=${G:?name the save, G=games}
  $B eval --network $D/X$G.ntp --settings $S --depth 3 --games 100 --seed 126007 \
      --threads 2 --csv X$G-d3-126007.csv $RESUME
  $B eval --network $R/configs/networks/six.ntp --settings $S --depth 3 --games 100 \
      --seed 126007 --threads 2 --csv shipped-d3-126007.csv
  python3 $R/scripts/pair.py shipped-d3-126007.csv X$G-d3-126007.csv | tail -1
  python3 $R/scripts/pair.py --column max_tile --reach 32768 shipped-d3-126007.csv \
      X$G-d3-126007.csv
  ;;
*)
  echo "usage: on.sh 1|2|3" >&2; exit 2
  ;;
esac
