#!/bin/sh
# The shipped default (configs/networks/twos.ntp, step 64 drop 320) under the judge, as a
# newcomer runs it: `tune2048 interact` with no flags. Two judges side by side, one a core,
# nothing else running; 100 games each on judge seeds 1129 and 1130 (no earlier run played
# them); each interact's peak RSS appended.
cd "$(dirname "$0")"
# (tune2048 here: a copy of the release build of 79b876b, which embeds configs/networks/twos.ntp)
T=./tune2048
for s in 1129 1130; do
  $T judge --games 100 --seed $s --csv judge-$s.csv -- /usr/bin/time -a -o rss-$s.txt -f %M $T interact > judge-$s.txt 2>&1 &
done
wait
