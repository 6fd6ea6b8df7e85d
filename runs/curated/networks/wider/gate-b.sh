#!/bin/sh
# Written 2026-12-01 01:18 UTC, after gate.log and before any of the packs or games below.
# gate.log: X's save at 2,454,000 packed as the shipped file was (step 16, 9,400,000 weights)
# scored 1.011x the shipped file at depth 1 (p = 0.37), its full file 1.045x (p = 0.00082), and
# packed against full 0.968x (p = 0.014): X keeps 9.4 million of its 85 million weights not 0,
# and the pack's loss takes most of what it learned. A coarser grid codes each weight in fewer
# bits, so more of them fit the 16 MiB a shipped file may take. Tried here: steps 32 and 64,
# each keeping as many weights (by impact, as before) as fit under 16,700,000 bytes (found by
# packing, sizes in the log), each on the same 1,200 depth-1 games. The better of the two by
# paired mean against the shipped file goes to depth 3 (run.sh step 5) only if its p < 0.025
# (0.05 over the two tries).
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
R=$(git rev-parse --show-toplevel)
D=${D:-/work/scratch/wider}
STEP=$1 KEEP=$2
$B pack $D/X/network.nt --step $STEP --keep $KEEP --keep-by impact --keep-unmet --stage-deltas \
    --out $D/X-s$STEP-k$KEEP.ntp
ls -l $D/X-s$STEP-k$KEEP.ntp
[ $(stat -c %s $D/X-s$STEP-k$KEEP.ntp) -le 16700000 ] || exit 0
for seed in 7600 8600 8700; do
  $B eval --network $D/X-s$STEP-k$KEEP.ntp --depth 1 --games 400 --seed $seed \
      --bank $D/bank-eval.csv --bank-stage 16384 --threads 2 --csv X-s$STEP-k$KEEP-d1-$seed.csv \
      | grep 'mean score'
done
P=$D/pool-X-s$STEP-k$KEEP.csv
cat X-s$STEP-k$KEEP-d1-7600.csv > $P
tail -n +2 X-s$STEP-k$KEEP-d1-8600.csv >> $P; tail -n +2 X-s$STEP-k$KEEP-d1-8700.csv >> $P
echo "== X step $STEP keep $KEEP against the shipped file"
python3 $R/scripts/pair.py $D/pool-W.csv $P | tail -1
python3 $R/scripts/pair.py --column max_tile --reach 32768 $D/pool-W.csv $P
echo "== against X's full file"
python3 $R/scripts/pair.py $D/pool-Xf.csv $P | tail -1
