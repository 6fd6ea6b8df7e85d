#!/bin/sh
# Old binary (b497dc6) and the streamed one, each resuming its own copy of L from 2,249,000 by one block.
for pair in "tune2048-b497dc6 Lp" "tune2048-stream2 Lq"; do
  set -- $pair
  echo "== $1 $2"
  /usr/bin/time -f "%e s wall %M KB" ./$1 learn $2 --resume --games 2250000 --bank bank-w-late.csv \
      --bank-stage every:25 --bank-share 1.0 --block 1000 --save-secs 0 --threads 2 2>&1 | tail -3
done
cmp Lp/network.nt Lq/network.nt && echo network-identical
cmp Lp/coherence-2250000.tc Lq/coherence-2250000.tc && echo coherence-identical
