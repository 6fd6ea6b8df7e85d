#!/bin/bash
# Time a move at depth 3 on one thread, interleaved: game 100 of seed 6007, the shipped network
# without and with its settings file, and the reference weights at depth 4; two rounds.
cd /work/main
B=target/release/tune2048
for r in 1 2; do
  echo "round $r off: $($B eval --network configs/networks/six.ntp --depth 3 --first 100 --games 1 --seed 6007 --threads 1 2>&1 | grep -E 'moves/game|moves/s' | tr '\n' ' ')"
  echo "round $r on: $($B eval --network configs/networks/six.ntp --settings configs/networks/six.search.ron --depth 3 --first 100 --games 1 --seed 6007 --threads 1 2>&1 | grep -E 'moves/game|moves/s' | tr '\n' ' ')"
  echo "round $r reference-d4: $($B eval --weights configs/weights/nneonneo.ron --depth 4 --first 100 --games 1 --seed 6007 --threads 1 2>&1 | grep -E 'moves/game|moves/s' | tr '\n' ' ')"
done
