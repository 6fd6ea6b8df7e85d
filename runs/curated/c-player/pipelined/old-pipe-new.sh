#!/bin/sh
# Interleaved rounds, one thread, the same games (seed 31): the built-in player, and the
# C example over version 2 (K = 64) as committed (old: one line in flight, C without the
# patched last layer), with two lines in flight (pipe) and with both (new).
cd "$(dirname "$0")"
# t-old: release build of 79b876b; t-new: this commit's lockstep.rs (two lines in flight);
# ref_old: 79b876b's ref_player.c; ref_new: with the patched last layer. All built here.
W=/work/main/configs/weights/nneonneo.ron
for round in 1 2 3 4 5; do
  for depth in 0 1; do
    games=$([ $depth = 0 ] && echo 400 || echo 1000)
    for side in builtin old pipe new; do
      case $side in
        builtin) set -- ./t-new eval --weights $W ;;
        old) set -- ./t-old eval --player "./ref_old --depth $depth" ;;
        pipe) set -- ./t-new eval --player "./ref_old --depth $depth" ;;
        new) set -- ./t-new eval --player "./ref_new --depth $depth" ;;
      esac
      /usr/bin/time -f "%e" -o time.txt "$@" --depth $depth --games $games --threads 1 --seed 31 --csv g-$side.csv > /dev/null 2>&1
      moves=$(awk -F, 'NR > 1 { m += $5 } END { print m }' g-$side.csv)
      w=$(cat time.txt)
      awk -v r=$round -v d=$depth -v s=$side -v g=$games -v m=$moves -v w=$w 'BEGIN { printf "round %s depth %s %-8s %5d games %8d moves %6.2f s %6.2f us/move %8.1f games/s\n", r, d, s, g, m, w, 1e6*w/m, g/w }'
    done
  done
done
