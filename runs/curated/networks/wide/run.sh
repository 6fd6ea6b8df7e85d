#!/bin/sh
# The shipped classic network widened by five tuples (learn --add-tuples), its late stages learned on
# from the late-cascade bank, 2026-11-30, on the 2-vCPU Intel Xeon VM. Run from a scratch folder with
# the repository's scripts/ beside it; B is the binary of the commit that added --add-tuples.
B=tune2048

# 1. The banks of ../late-cascade/run.sh step 1, made again with C2 (they are not kept): the same
#    positions (bank-learn.csv 3,250, hash 2f4c749fb5abd96f; bank-eval.csv 1,606, hash
#    21e268c76a17755f; the depth-1 games of the shipped file from bank-eval replay its rows in
#    ../late-cascade/G5d-d1-off.csv), then mix.py: bank-mix3.csv, 52,480 positions.
git show b751b9a:configs/networks/six.ntp > c2.ntp
git show b751b9a:configs/networks/six.search.ron > c2.search.ron
$B bank --network c2.ntp --depth 1 --games 4000 --seed 7300 --stage 16384 --out bank-learn.csv --threads 2
$B bank --network c2.ntp --depth 1 --games 2000 --seed 7400 --stage 16384 --out bank-eval.csv --threads 2
$B bank --network c2.ntp --settings c2.search.ron --depth 1 --games 2000 --seed 7700 --stage every:25 \
    --out bank-every25.csv --threads 2
python3 ../late-cascade/mix.py bank-every25.csv bank-learn.csv

# 2. W: six.ntp (G5 packed with stage deltas, 1,942,000 games) with the five tuples of TDL2048+'s
#    8x6patt it lacks (hex 234569 01259a 345678 134567 01489a), nine tuples in all, learned on with
#    G's method from the bank. No sums lie beside a packed file: every rate starts at 1.
cp configs/networks/six.ntp configs/networks/six.search.ron .
$B learn W --from six.ntp \
    --add-tuples "2,3,4,5,6,9 0,1,2,5,9,10 3,4,5,6,7,8 1,3,4,5,6,7 0,1,4,8,9,10" \
    --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 --lambda 0.5 --coherence \
    --restarts --alpha 0.1 --rounds 20 --games 3000000 --block 1000 --save-secs 600 --threads 2

# 3. W's saves at depth 1 from the first-16384 positions of bank-eval.csv, 400 games of seed 7600,
#    without settings, paired with the shipped file's games on them (../late-cascade/G5d-d1-off.csv).
#    W1972000.nt, w2055/network.nt: copies of W/network.nt after those saves (w2055/ with its sums).
$B eval --network W1972000.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv W1972000-d1-off.csv
$B pack w2055/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out W2055.ntp                                   # 16,554,334 bytes, hash 34a3f3d8f5d0dcd5
$B eval --network w2055/network.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv W2055-full-d1-off.csv
$B eval --network W2055.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv W2055-packed-d1-off.csv
for k in full packed; do
  scripts/pair.py ../late-cascade/G5d-d1-off.csv W2055-$k-d1-off.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 ../late-cascade/G5d-d1-off.csv W2055-$k-d1-off.csv
done

# 4. Depth 3, games 0..99 of seed 46007 (d3.sh; output d3-46007.log), paired with the shipped file's
#    and U's games on them and the reference weights'.
/usr/bin/time -f "%e s wall %M KB" $B eval --network W2055.ntp --settings six.search.ron \
    --depth 3 --games 100 --seed 46007 --threads 2 --csv W2055-d3-46007.csv
for base in ../late-cascade/G5d-d3-46007.csv ../until/U-d3-46007.csv ../late-cascade/reference-d3-46007.csv; do
  scripts/pair.py $base W2055-d3-46007.csv | tail -1
done
scripts/pair.py --column max_tile --reach 32768 ../late-cascade/G5d-d3-46007.csv W2055-d3-46007.csv

# 5. W learned on (resumed twice from its save at 2,055,000; the resumed blocks repeat the killed
#    run's rows exactly), stopped after its save at 2,156,000 (W-resume.log). That save packed
#    as W2055.ntp was (16,532,421 bytes, hash 35fbb90e92a03ed5; 48 s, peak 7.3 GB with the binary
#    of 45f629f) and screened at depth 1 as in step 3.
$B learn W --resume --games 3000000 --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 \
    --block 1000 --save-secs 600 --threads 2
$B pack W/network.nt --step 16 --keep 9400000 --keep-by impact --keep-unmet --stage-deltas \
    --out W2156.ntp
$B eval --network W2156.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv W2156-packed-d1-off.csv
for base in ../late-cascade/G5d-d1-off.csv W2055-packed-d1-off.csv; do
  scripts/pair.py $base W2156-packed-d1-off.csv | tail -1
done
scripts/pair.py --column max_tile --reach 32768 W2055-packed-d1-off.csv W2156-packed-d1-off.csv

# 6. W2055.ntp again at depth 3, on fresh games 0..99 of seed 56007, then the reference weights on
#    them (d3-56007.sh, d3-56007.log), then the shipped file on them (d3-shipped-56007.sh, its log).
sh d3-56007.sh
sh d3-shipped-56007.sh

# 7. W2055.ntp from the opening, greedily and at depth 1, with and without the settings file, as
#    the shipped file was measured (d0-d1-12031.log, which names the file by the path it had
#    then, ../W2055.ntp), paired with ../late-cascade/G5d*.csv.
for s in 9001 14001 12031; do
  $B eval --network W2055.ntp --depth 0 --games 2000 --seed $s --threads 2 --csv W2055-d0-$s.csv
done
for s in 14001 12031; do
  $B eval --network W2055.ntp --settings six.search.ron --depth 0 --games 2000 --seed $s \
      --threads 2 --csv W2055-settings-d0-$s.csv
done
$B eval --network W2055.ntp --settings six.search.ron --depth 1 --games 400 --seed 12031 \
    --threads 2 --csv W2055-settings-d1-12031.csv
for d in d0 d1; do
  scripts/pair.py ../late-cascade/G5d-settings-$d-12031.csv W2055-settings-$d-12031.csv | tail -1
  scripts/pair.py --column max_tile --reach 32768 ../late-cascade/G5d-settings-$d-12031.csv \
      W2055-settings-$d-12031.csv
done

# 8. Time a move beside the reference weights and the shipped file, and each network's games at
#    the reference's depth-3 time a move (time-eq.sh, output time-eq.txt), paired with
#    reference-d3-56007.csv.
sh time-eq.sh > time-eq.txt 2>&1
for k in W2055 G5d; do scripts/pair.py reference-d3-56007.csv $k-ms0.22-56007.csv | tail -1; done
scripts/pair.py G5d-ms0.22-56007.csv W2055-ms0.22-56007.csv | tail -1

# 9. Depth 3 on fresh games 0..99 of seed 66007: W2055.ntp, the shipped file, the reference
#    weights (d3-66007.sh, with the rule for shipping W written before the games; d3-66007.log).
sh d3-66007.sh > d3-66007.log 2>&1
#    Over the 300 fresh games of seeds 46007, 56007 and 66007, W against the shipped file:
cat ../late-cascade/G5d-d3-46007.csv > /tmp/G300.csv
tail -n +2 G5d-d3-56007.csv >> /tmp/G300.csv; tail -n +2 G5d-d3-66007.csv >> /tmp/G300.csv
cat W2055-d3-46007.csv > /tmp/W300.csv
tail -n +2 W2055-d3-56007.csv >> /tmp/W300.csv; tail -n +2 W2055-d3-66007.csv >> /tmp/W300.csv
scripts/pair.py /tmp/G300.csv /tmp/W300.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 /tmp/G300.csv /tmp/W300.csv
