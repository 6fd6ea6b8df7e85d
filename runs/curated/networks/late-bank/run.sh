#!/bin/sh
# W's late stages learned on from positions of W's own depth-2 games (run L), on the 2-vCPU Intel
# Xeon VM, binary of b497dc6 ($B), run from a scratch folder holding W2055.ntp and W's learning
# folder (../wide: run.sh steps 2, 3 and 5), bank-eval.csv (../late-cascade/run.sh step 1) and
# six.search.ron (configs/networks). Nothing else ran beside the bank and the learner except a
# build and two tests in the bank's first minutes.
B=./tune2048-b497dc6

# 1. The bank: W2055.ntp's depth-2 games with its settings file, a position every 25 moves
#    (812 s on both threads, peak 2.5 GB; 185,652 positions, file hash f607a66bc7973bfe), then
#    the learning bank of its 16384-and-no-32768 positions (mixw.py; 75,052 positions, sha256
#    of the file begins efff25cfadc2f05f). bank.log holds both outputs.
$B bank --network W2055.ntp --settings six.search.ron --depth 2 --games 300 --seed 7900 \
    --stage every:25 --out bank-w-d2.csv --threads 2
python3 mixw.py bank-w-d2.csv > bank-w-late.csv

# 2. L: a copy of W's learning folder at its save of 2,156,000 games, learned on with W's method
#    (kept by --resume) from that bank; killed after its save at 2,248,000 (L.log: 3,017 s wall,
#    peak 14.4 GB). L-progress.csv is the folder's progress.csv: W's rows, then L's.
cp -r W L
$B learn L --resume --games 2400000 --bank bank-w-late.csv --bank-stage every:25 \
    --bank-share 1.0 --block 1000 --save-secs 300 --threads 2

# 3. The gate, written before L's games were played: L's save packed as W2055.ntp was, at depth 1
#    from the first-16384 positions of bank-eval.csv, 400 games of seed 7600, paired with W2156's
#    and W2055's games on them (../wide/W2156-packed-d1-off.csv, ../wide/W2055-packed-d1-off.csv).
#    L goes on to depth 3 on fresh games only if it beats W2156 there with p < 0.05. It did not.
$B pack L/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out L.ntp                                       # 16,525,993 bytes, hash 9aa1c4bb240f55f1
$B eval --network L.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv L-packed-d1-off.csv
for base in ../wide/W2156-packed-d1-off.csv ../wide/W2055-packed-d1-off.csv; do
  scripts/pair.py $base L-packed-d1-off.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 $base L-packed-d1-off.csv | tail -1
done                                                  # measure-pairs.txt

# 4. Saves and resumes streamed (51de356): two more copies of L at 2,248,000 (Lp, Lq), each learned
#    on by one block with its save, by the binary of b497dc6 (Lp) and the streamed one (Lq), then
#    again by one more block each (probe2.sh, probe3.sh; their logs). probe3.sh's last line named
#    the wrong sums file when it ran; it was corrected and run again by hand (the log's last line).
sh probe2.sh
sh probe3.sh

# 5. Six blocks from L's save at 2,248,000 with a save after every block, the streamed binary on L,
#    then the binary of b497dc6 on a copy of it (saves.sh, saves.log).
sh saves.sh
