#!/bin/bash
# usage: swa.sh NAME SOURCE START ALPHA STEPS
name=$1; src=$2; start=$3; alpha=$4; steps=$5
T=/work/scratch/tune2048-blend
g=$start
for i in $(seq 1 $steps); do
  g=$((g+10000))
  if [ $i = 1 ]; then
    $T learn learn-$name --from $src --alpha $alpha --games $g --block 10000
  else
    $T learn learn-$name --resume --games $g --block 10000
  fi
  cp learn-$name/network.nt snaps/$name-$g.nt
done
