#!/bin/sh
# TDL2048+ (../shared/peers/tdl2048plus, built with its makefile's `make default`, g++ 12.2) and
# tune2048's learner, side by side for 20 minutes on the 2-vCPU Intel Xeon VM, one core each
# (taskset), nothing else running. TDL2048+ runs the first phase of its README's OTD+TC recipe
# (optimistic start 320000, TD at alpha 0.1); tune2048 runs run A's method, as in the side-by-side
# run with ziap/2048-tdl. Both from nothing.
taskset -c 0 stdbuf -oL timeout 1200 ./2048 -n 4x6patt=320000/norm -t 100000x1000 -a 0.1 > tdl.log 2>&1 &
taskset -c 1 timeout 1200 tune2048 learn ours --tuples six --games 2000000 --block 1000 \
    --lambda 0.5 --coherence --restarts --alpha 1.0 --rounds 20 --threads 1 --save-secs 100000 \
    > ours.log 2>&1 &
wait
mkdir -p tune2048 && cp ours/progress.csv tune2048/progress.csv
python3 curves.py tdl.log tune2048/progress.csv curves.csv
tune2048 plot tune2048 tdl2048plus    # plots/learning-compare-{seconds,games}.svg and each run's own
