#!/bin/bash
# Interleaved CPU time per move at depth 3, one thread, 4 games from seed 9090.
cd "$(git rev-parse --show-toplevel)"
NEW=./target/release/tune2048; OLD=${OLD:?the binary of commit ec2ed81, before the new terms}
for round in 1 2 3; do
  for cell in "old-ref $OLD ${OLD_WEIGHTS:?configs/weights/nneonneo.ron of commit ec2ed81}" "new-ref $NEW configs/weights/nneonneo.ron" "new-d3 $NEW configs/weights/classic-d3.ron" "new-ordered $NEW runs/curated/classic-d3-ordered/best.ron"; do
    set -- $cell
    out=$(/usr/bin/time -f "cpu %U" $2 eval --weights $3 --depth 3 --games 4 --seed 9090 --threads 1 2>&1)
    cpu=$(echo "$out" | grep "^cpu" | awk '{print $2}')
    mpg=$(echo "$out" | grep -o "[0-9.]* moves/game" | head -1 | awk '{print $1}')
    mean=$(echo "$out" | grep -o "mean score [0-9]*" | head -1)
    echo "round $round $1 cpu_s $cpu moves/game $mpg $mean us/move $(python3 -c "print(round($cpu*1e6/($mpg*4),1))")"
  done
done
