#!/bin/sh
# Six blocks from L's save at 2,248,000 with a save after every block (--save-secs 0): the streamed
# binary (51de356's code) on L, then the binary of b497dc6 on a copy of it (Lx).
for pair in "tune2048-stream2 L" "tune2048-b497dc6 Lx"; do
  set -- $pair
  echo "== $1 $2"
  /usr/bin/time -f "%e s wall %M KB" ./$1 learn $2 --resume --games 2254000 --bank bank-w-late.csv \
      --bank-stage every:25 --bank-share 1.0 --block 1000 --save-secs 0 --threads 2 2>&1 | tail -8
done
cmp L/network.nt Lx/network.nt && echo network-identical
cmp L/coherence-2254000.tc Lx/coherence-2254000.tc && echo coherence-identical
