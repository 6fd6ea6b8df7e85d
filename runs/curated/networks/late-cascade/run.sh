#!/bin/sh
# Learning the late game from the cascades a search makes: the shipped classic network's stage for
# boards holding a 16384 learned on, its stage below untouched, 2026-11-28, on the 2-vCPU Intel Xeon VM
# (both cores; the evaluations below ran beside the learner). Run from a scratch folder; B is the
# binary of the commit that added `bank --settings`.
B=tune2048
git show b751b9a:configs/networks/six.ntp > c2.ntp              # C2 at 644,000 games, packed:
git show b751b9a:configs/networks/six.search.ron > c2.search.ron # six.ntp and its settings until
N=c2.ntp                                                         # G3 replaced them (step 7)
S=c2.search.ron                   # downgrade_at 16384

# 1. Positions: the first board holding a 16384 of d1 games (seed 7300 to learn from, seed 7400 to
#    measure on), and every 25th board of 2,000 whole d1 games played with the shipped settings.
$B bank --network $N --depth 1 --games 4000 --seed 7300 --stage 16384 --out bank-learn.csv --threads 2
$B bank --network $N --depth 1 --games 2000 --seed 7400 --stage 16384 --out bank-eval.csv --threads 2
$B bank --network $N --settings $S --depth 1 --games 2000 --seed 7700 --stage every:25 \
    --out bank-every25.csv --threads 2
python3 mix.py bank-every25.csv bank-learn.csv        # bank-mix.csv and bank-mix3.csv

# 2. G: from the first-16384 positions only (no 32768 in any game). Stopped after its save at 864,000.
$B learn G --from $N --bank bank-learn.csv --bank-stage 16384 --bank-share 1.0 --lambda 0.5 \
    --coherence --restarts --alpha 0.1 --rounds 20 --games 3000000 --block 1000 --save-secs 600 --threads 2
mkdir g864 && cp G/network.nt G/coherence-864000.tc g864/
# 3. G2: from G's save, on bank-mix.csv (79% of its positions within 2,000 moves of a 32768).
#    Stopped after its save at 995,000.
$B learn G2 --from g864/network.nt --bank bank-mix.csv --bank-stage every:25 --bank-share 1.0 \
    --lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 --games 3000000 --block 1000 \
    --save-secs 600 --threads 2
mkdir g2s && cp G2/network.nt G2/coherence-995000.tc g2s/
# 4. G3: from G2's save, on bank-mix3.csv (24% near a 32768, the rest from the whole late game).
$B learn G3 --from g2s/network.nt --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 \
    --lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 --games 3000000 --block 1000 \
    --save-secs 600 --threads 2

# 5. Each save against the shipped network, from the 1,606 first-16384 positions of seed 7400
#    (fresh: no learning game started there), games paired by seed (scripts/pair.py):
#    greedy, 2,000 games of seed 7500; depth 1, 400 games of seed 7600.
printf '(downgrade_at: 32768)\n' > dg32768.search.ron
$B eval --network $N --depth 0 --games 2000 --seed 7500 --bank bank-eval.csv --bank-stage 16384 \
    --threads 2 --csv base-d0.csv
$B eval --network $N --depth 1 --games 400 --seed 7600 --bank bank-eval.csv --bank-stage 16384 \
    --threads 2 --csv base-d1-off.csv
$B eval --network $N --settings $S --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv base-d1-on.csv
for k in G760 G864 G2-995000 G3-1116000 G3-1211000; do   # copies of network.nt after each save
  $B eval --network $k.nt --depth 0 --games 2000 --seed 7500 --bank bank-eval.csv --bank-stage 16384 \
      --threads 2 --csv $k-d0.csv
  $B eval --network $k.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv --bank-stage 16384 \
      --threads 2 --csv $k-d1-off.csv
done

# 6. Depth 3, 100 whole games of seed 16007 (games 0..99), which no choice here played, paired with
#    the shipped network's own games on them with and without its settings
#    (../downgrade-16384/d3-on16384.csv, d3-off.csv). G3's full file, at its save of 1,406,000 games
#    (the last before it was stopped; not the best of the depth-1 rows), with downgrade_at 32768.
/usr/bin/time -f "%e s wall %M KB" $B eval --network p1406000/network.nt --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 16007 --threads 2 --csv G3-1406000-full-d3-16007.csv
# The same games with G3 packed as six.ntp was (pack --step 16 --keep 9530000 --keep-by impact): its
# sums began at the --from start, so its stage below 16384 had none and all of that stage was left
# out: 30,533 a game. `pack --keep` refuses such sums since this change.
$B pack p1406000/network.nt --step 16 --keep 9530000 --keep-by impact --out G3-1406000.ntp
$B eval --network G3-1406000.ntp --settings dg32768.search.ron --depth 3 --games 100 --seed 16007 \
    --threads 2 --csv G3-1406000-packed-d3-16007.csv
for s in d3-on16384 d3-off; do
  scripts/pair.py ../downgrade-16384/$s.csv G3-1406000-full-d3-16007.csv | tail -1
done
scripts/pair.py --column max_tile --reach 32768 ../downgrade-16384/d3-on16384.csv G3-1406000-full-d3-16007.csv

# 7. Shipped on 2026-11-29 (the binary of the commit that added `pack --keep-unmet`): G3 packed with
#    its stage below 16384 kept whole as C2 has it, the rest of the 9,530,000 weights by impact.
$B pack p1406000/network.nt --step 16 --keep 9530000 --keep-by impact --keep-unmet \
    --out G3-1406000-unmet.ntp                                   # = configs/networks/six.ntp
$B eval --network G3-1406000-unmet.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G3-1406000-unmet-d1-off.csv
scripts/pair.py G3-1406000-d1-off.csv G3-1406000-unmet-d1-off.csv | tail -1
#    Depth 3 on the same 100 games of seed 16007, and on games 100..199 of seed 6007, which no G3
#    file had played (C2's games on them: ../downgrade-16384/d3-6007-on16384.csv with its settings,
#    ../classic-644k/shipped-d3-6007-100-199.csv without; the reference's: rows 100..199 of
#    ../packed/reference-d3-6007.csv).
printf '(downgrade_at: 32768)\n' > dg32768.search.ron               # = configs/networks/six.search.ron
for s in 16007 6007; do
  first=0; [ $s = 6007 ] && first=100
  /usr/bin/time -f "%e s wall %M KB" $B eval --network G3-1406000-unmet.ntp \
      --settings dg32768.search.ron --depth 3 --first $first --games 100 --seed $s --threads 2 \
      --csv shipped-d3-$s.csv > shipped-d3-$s.log 2>&1
done
mv shipped-d3-6007.csv shipped-d3-6007-100-199.csv
scripts/pair.py ../downgrade-16384/d3-on16384.csv shipped-d3-16007.csv | tail -1
scripts/pair.py ../downgrade-16384/d3-6007-on16384.csv shipped-d3-6007-100-199.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 ../downgrade-16384/d3-on16384.csv shipped-d3-16007.csv
#    Greedy (seeds 12031, 9001, 14001) and depth 1 (seed 12031), with and without the settings, the
#    file it replaced beside it (before-*.csv: C2 with its settings; ../classic-644k/shipped-d0-12031.csv
#    is C2 without them). shipped-d0-9001.csv and the 14001 pair pin the tests.
for s in 12031 9001 14001; do
  $B eval --network G3-1406000-unmet.ntp --depth 0 --games 2000 --seed $s --threads 1 \
      --csv shipped-d0-$s.csv
done
for s in 12031 14001; do
  $B eval --network G3-1406000-unmet.ntp --settings dg32768.search.ron --depth 0 --games 2000 \
      --seed $s --threads 1 --csv shipped-settings-d0-$s.csv
done
$B eval --network $N --settings $S --depth 0 --games 2000 --seed 12031 --threads 1 \
    --csv before-settings-d0-12031.csv
$B eval --network G3-1406000-unmet.ntp --settings dg32768.search.ron --depth 1 --games 400 \
    --seed 12031 --threads 1 --csv shipped-settings-d1-12031.csv
$B eval --network $N --settings $S --depth 1 --games 400 --seed 12031 --threads 1 \
    --csv before-settings-d1-12031.csv

# 8. G4: G3's full file split further at 16384+8192 (a stage of its own for boards that hold a 16384
#    and an 8192, starting as a copy of G3's late stage, with its sums), on the same bank. Stopped
#    after its save at 1,654,000 games (35 minutes, niced beside the work of step 7).
$B learn G4 --from p1406000/network.nt --stages 16384,16384+8192 --bank bank-mix3.csv \
    --bank-stage every:25 --bank-share 1.0 --lambda 0.5 --coherence --restarts --alpha 0.1 \
    --rounds 20 --games 3000000 --block 1000 --save-secs 600 --threads 2
for k in G4-1561000 G4-1654000; do   # copies of G4/network.nt after those saves
  $B eval --network $k.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv --bank-stage 16384 \
      --threads 2 --csv $k-d1-off.csv
  scripts/pair.py G3-1406000-d1-off.csv $k-d1-off.csv | tail -1
done
/usr/bin/time -f "%e s wall %M KB" $B eval --network G4-1654000.nt --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 16007 --threads 2 --csv G4-1654000-d3-16007.csv
scripts/pair.py shipped-d3-16007.csv G4-1654000-d3-16007.csv | tail -1

# 9. G4 shipped (2026-11-29): its save at 1,654,000 games packed as G3 was, to the 16 MB a shipped
#    file may take (9,440,000 weights, its stage below 16384 whole), then 100 depth-3 games of
#    seed 26007, which nothing had played, for it and the file it replaced (G3 packed).
$B pack G4/network.nt --step 16 --keep 9440000 --keep-by impact --keep-unmet \
    --out G4-1654000.ntp                                         # = configs/networks/six.ntp
$B eval --network G4-1654000.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G4-1654000-packed-d1-off.csv
scripts/pair.py G4-1654000-d1-off.csv G4-1654000-packed-d1-off.csv | tail -1
/usr/bin/time -f "%e s wall %M KB" $B eval --network G4-1654000.ntp --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 26007 --threads 2 --csv G4-1654000-packed-d3-26007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --network G3-1406000-unmet.ntp \
    --settings dg32768.search.ron --depth 3 --games 100 --seed 26007 --threads 2 \
    --csv shipped-d3-26007.csv
scripts/pair.py shipped-d3-26007.csv G4-1654000-packed-d3-26007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 shipped-d3-26007.csv G4-1654000-packed-d3-26007.csv
#    Greedy and depth 1 on seed 12031 with the settings, beside G3's (shipped-settings-*-12031.csv);
#    greedy on seeds 9001 and 14001, which pin the tests.
$B eval --network G4-1654000.ntp --settings dg32768.search.ron --depth 0 --games 2000 \
    --seed 12031 --threads 2 --csv G4p-settings-d0-12031.csv
$B eval --network G4-1654000.ntp --settings dg32768.search.ron --depth 1 --games 400 \
    --seed 12031 --threads 2 --csv G4p-settings-d1-12031.csv
for s in 9001 14001; do
  $B eval --network G4-1654000.ntp --depth 0 --games 2000 --seed $s --threads 1 --csv G4p-d0-$s.csv
done
$B eval --network G4-1654000.ntp --settings dg32768.search.ron --depth 0 --games 2000 --seed 14001 \
    --threads 1 --csv G4p-settings-d0-14001.csv
#    The reference weights on the same depth-3 games.
$B eval --weights configs/weights/nneonneo.ron --depth 3 --games 100 --seed 26007 --threads 2 \
    --csv reference-d3-26007.csv
scripts/pair.py reference-d3-26007.csv G4-1654000-packed-d3-26007.csv | tail -1
#    Time a move (time.sh, from the repository root, nothing else running), then the reference
#    one layer deeper on the same games, for a comparison at equal time.
/usr/bin/time -f "%e s wall %M KB" $B eval --weights configs/weights/nneonneo.ron --depth 4 \
    --games 100 --seed 26007 --threads 2 --csv reference-d4-26007.csv
scripts/pair.py reference-d4-26007.csv G4-1654000-packed-d3-26007.csv | tail -1

# 10. G5 (2026-11-29, the binary of the commit that added three-tile boundaries): G4's save at
#     1,690,000 games (G4 resumed from 1,654,000, niced) split further at 16384+8192+4096, a stage
#     of its own for boards that also hold a 4096, starting as a copy of G4's 16384+8192 stage with
#     its sums, on the same bank. Stopped after its save at 1,942,000 games (2,611 s of blocks).
$B learn G4 --resume --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 --games 3000000 \
    --block 1000 --save-secs 600 --threads 2                     # stopped after the save at 1,690,000
$B learn G5 --from G4/network.nt --stages 16384,16384+8192,16384+8192+4096 --bank bank-mix3.csv \
    --bank-stage every:25 --bank-share 1.0 --lambda 0.5 --coherence --restarts --alpha 0.1 \
    --rounds 20 --games 3000000 --block 1000 --save-secs 300 --threads 2
cp G4/network.nt G4-1690000.nt; cp G5/network.nt G5-1942000.nt
for k in G4-1690000 G5-1942000; do
  $B eval --network $k.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv --bank-stage 16384 \
      --threads 2 --csv $k-d1-off.csv
done
scripts/pair.py G4-1654000-d1-off.csv G5-1942000-d1-off.csv | tail -1
scripts/pair.py G4-1690000-d1-off.csv G5-1942000-d1-off.csv | tail -1
$B pack G5/network.nt --step 16 --keep 9440000 --keep-by impact --keep-unmet --out G5-1942000.ntp
$B eval --network G5-1942000.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G5-1942000-packed-d1-off.csv
scripts/pair.py G5-1942000-d1-off.csv G5-1942000-packed-d1-off.csv | tail -1
scripts/pair.py G4-1654000-packed-d1-off.csv G5-1942000-packed-d1-off.csv | tail -1
/usr/bin/time -f "%e s wall %M KB" $B eval --network G5-1942000.nt --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 26007 --threads 2 --csv G5-1942000-d3-26007.csv
scripts/pair.py G4-1654000-packed-d3-26007.csv G5-1942000-d3-26007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G4-1654000-packed-d3-26007.csv G5-1942000-d3-26007.csv
scripts/pair.py reference-d3-26007.csv G5-1942000-d3-26007.csv | tail -1
/usr/bin/time -f "%e s wall %M KB" $B eval --network G5-1942000.nt --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 16007 --threads 2 --csv G5-1942000-d3-16007.csv
scripts/pair.py G4-1654000-d3-16007.csv G5-1942000-d3-16007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G4-1654000-d3-16007.csv G5-1942000-d3-16007.csv

# 11. Learning on (2026-11-29; G4 with the binary of step 10, the rest with that of a5be961):
#     G4 resumed from its save at 1,690,000 to its save at 2,081,000 (3,079 s of blocks), then
#     checked from the bank at depth 1. G6: that
#     file learned on with every weight's rate back at 1 (its coherence sums left behind, so
#     `--from` starts new ones), the same method and bank, the same games' seeds.
$B learn G4 --resume --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 --games 3000000 \
    --block 1000 --save-secs 600 --threads 2                     # stopped after the save at 2,081,000
cp G4/network.nt G4-2081000.nt                                   # without coherence-2081000.tc
$B eval --network G4-2081000.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G4-2081000-d1-off.csv
scripts/pair.py G4-1690000-d1-off.csv G4-2081000-d1-off.csv | tail -1
$B learn G6 --from G4-2081000.nt --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 \
    --lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 --games 3000000 --block 1000 \
    --save-secs 300 --threads 2
cp G6/network.nt G6-2219000.nt                                   # stopped after that save
$B eval --network G6-2219000.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G6-2219000-d1-off.csv
scripts/pair.py G4-2081000-d1-off.csv G6-2219000-d1-off.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G4-2081000-d1-off.csv G6-2219000-d1-off.csv
$B learn G6 --resume --bank bank-mix3.csv --bank-stage every:25 --bank-share 1.0 --games 3000000 \
    --block 1000 --save-secs 300 --threads 2                     # stopped after the save at 2,354,000
cp G6/network.nt G6-2354000.nt
$B eval --network G6-2354000.nt --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G6-2354000-d1-off.csv
scripts/pair.py G4-2081000-d1-off.csv G6-2354000-d1-off.csv | tail -1
$B pack G6/network.nt --step 16 --keep 9440000 --keep-by impact --keep-unmet --out G6-2354000.ntp
$B eval --network G6-2354000.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv G6-2354000-packed-d1-off.csv
scripts/pair.py G4-1654000-packed-d1-off.csv G6-2354000-packed-d1-off.csv | tail -1
/usr/bin/time -f "%e s wall %M KB" $B eval --network G6-2354000.ntp --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 26007 --threads 2 --csv G6-2354000-packed-d3-26007.csv
scripts/pair.py G4-1654000-packed-d3-26007.csv G6-2354000-packed-d3-26007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G4-1654000-packed-d3-26007.csv \
    G6-2354000-packed-d3-26007.csv

# 12. Stages written as their differences (2026-11-29, the binary of 3b114d0, which added
#     `pack --stage-deltas`): G5's full file of step 10 packed with its last two stages written
#     as differences from the stage before, first at step 10's count, then at the largest that
#     fits 16 MiB with a margin; each against the full file from the bank at depth 1.
$B pack G5/network.nt --step 16 --keep 9440000 --keep-by impact --keep-unmet --stage-deltas \
    --out G5d-9440000.ntp
$B pack G5/network.nt --step 16 --keep 9730000 --keep-by impact --keep-unmet --stage-deltas \
    --out G5d.ntp                                                # shipped as six.ntp
for k in G5d-9440000 G5d; do
  $B eval --network $k.ntp --depth 1 --games 400 --seed 7600 --bank bank-eval.csv \
      --bank-stage 16384 --threads 2 --csv $k-d1-off.csv
  scripts/pair.py G5-1942000-d1-off.csv $k-d1-off.csv | tail -1
done
#     1,200 more games from the same positions: the full file, G5d, and G5 packed alone (step 10).
for k in G5-1942000.nt:G5-1942000 G5d.ntp:G5d G5-1942000.ntp:G5-1942000-packed; do
  $B eval --network ${k%%:*} --depth 1 --games 1200 --seed 7610 --bank bank-eval.csv \
      --bank-stage 16384 --threads 2 --csv ${k##*:}-d1-7610.csv
done
scripts/pair.py G5-1942000-d1-7610.csv G5d-d1-7610.csv | tail -1
scripts/pair.py G5-1942000-d1-7610.csv G5-1942000-packed-d1-7610.csv | tail -1
#     The rule, set before G4's games below were done: G5d replaces G4 if its mean on these 100
#     fresh depth-3 games is at least G4's. G5d first, then G4 packed (d3-36007.log).
/usr/bin/time -f "%e s wall %M KB" $B eval --network G5d.ntp --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 36007 --threads 2 --csv G5d-d3-36007.csv
/usr/bin/time -f "%e s wall %M KB" $B eval --network G4-1654000.ntp --settings dg32768.search.ron \
    --depth 3 --games 100 --seed 36007 --threads 2 --csv G4-1654000-packed-d3-36007.csv
scripts/pair.py G4-1654000-packed-d3-36007.csv G5d-d3-36007.csv | tail -1
scripts/pair.py --column max_tile --reach 32768 G4-1654000-packed-d3-36007.csv G5d-d3-36007.csv
#     The shipped file's tables and the games that pin the tests.
for s in 9001 14001; do
  $B eval --network G5d.ntp --depth 0 --games 2000 --seed $s --threads 2 --csv G5d-d0-$s.csv
done
$B eval --network G5d.ntp --settings dg32768.search.ron --depth 0 --games 2000 --seed 14001 \
    --threads 2 --csv G5d-settings-d0-14001.csv
$B eval --network G5d.ntp --settings dg32768.search.ron --depth 0 --games 2000 --seed 12031 \
    --threads 2 --csv G5d-settings-d0-12031.csv
$B eval --network G5d.ntp --settings dg32768.search.ron --depth 1 --games 400 --seed 12031 \
    --threads 2 --csv G5d-settings-d1-12031.csv
for d in d0 d1; do scripts/pair.py G4p-settings-$d-12031.csv G5d-settings-$d-12031.csv | tail -1; done
#     Time a move (time2.sh, nothing else running), then the reference weights on the fresh
#     depth-3 games at depth 3 and one layer deeper (ref-36007.log).
$B eval --weights configs/weights/nneonneo.ron --depth 3 --games 100 --seed 36007 --threads 2 \
    --csv reference-d3-36007.csv
$B eval --weights configs/weights/nneonneo.ron --depth 4 --games 100 --seed 36007 --threads 2 \
    --csv reference-d4-36007.csv
scripts/pair.py reference-d3-36007.csv G5d-d3-36007.csv | tail -1
scripts/pair.py reference-d4-36007.csv G5d-d3-36007.csv | tail -1

# 13. The shipped file measured again on fresh depth-3 games (2026-11-29, binary of ac11a66),
#     no choice made on them: d3-46007.sh.
$B eval --network configs/networks/six.ntp --settings configs/networks/six.search.ron --depth 3 \
    --games 100 --seed 46007 --threads 2 --csv G5d-d3-46007.csv
$B eval --weights configs/weights/nneonneo.ron --depth 3 --games 100 --seed 46007 --threads 2 \
    --csv reference-d3-46007.csv
scripts/pair.py reference-d3-46007.csv G5d-d3-46007.csv | tail -1
