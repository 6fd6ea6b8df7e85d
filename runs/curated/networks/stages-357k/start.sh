#!/bin/sh
# Two continuations of configs/networks/six.ntp (run A's save at 357,000 games), one core each:
# C0 as A learned (one table set), C2 split at the first 16384 (both stages start as six.ntp).
cd /work/scratch/long2
common="--lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 --games 2000000 --block 1000 --save-secs 600 --threads 1"
nice -n 10 ./t learn C0 --from /work/main/configs/networks/six.ntp $common > C0.log 2>&1 &
nice -n 10 ./t learn C2 --from /work/main/configs/networks/six.ntp --stages 16384 $common > C2.log 2>&1 &
