#!/bin/sh
# Tile-downgrading on the twos network: the same 1000 depth-1 games (seed 4242, fresh) with
# downgrade_at 0 (off) and 32768, then greedy 2000 games (seed 4243). Paired by seed.
cd /work/scratch/dg
B=/work/main/target/release/tune2048
N=/work/main/configs/networks/twos.ntp
printf '(downgrade_at: 32768)\n' > on.ron
printf '(downgrade_at: 0)\n' > off.ron
for d in "1 1000 4242" "0 2000 4243"; do set -- $d
  for s in off on; do
    $B eval --variant twos --network $N --settings $s.ron --depth $1 --games $2 --seed $3 --threads 2 --csv d$1-$s.csv | tail -2
  done
  /work/main/scripts/pair.py d$1-off.csv d$1-on.csv | tail -1
  /work/main/scripts/pair.py --column moves d$1-off.csv d$1-on.csv | tail -1
done
