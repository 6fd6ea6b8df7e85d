#!/bin/sh
# Continuations of configs/networks/six.ntp (run A's save at 357,000 games, its coherence sums
# not kept: every rate starts at 1 again, hence alpha 0.1), one core each, niced, 2026-11-28.
# `t` is tune2048 at bf94f19, `t3` at 69891d4 (which splits a staged network further);
# both learn the same networks. Run in a scratch folder: the networks are 0.27-0.8 GB each.
common="--lambda 0.5 --coherence --restarts --alpha 0.1 --rounds 20 --games 2000000 --block 1000 --save-secs 600 --threads 1"
NET=/work/main/configs/networks/six.ntp
# C0: one set of tables, as A learned. C2: split at the first 16384, both stages six.ntp.
nice -n 10 ./t learn C0 --from $NET $common > C0.log 2>&1 &
nice -n 10 ./t learn C2 --from $NET --stages 16384 $common > C2.log 2>&1 &
wait
# Each was stopped after a save (stop-after-save.sh) and resumed to exactly 440,000 games:
#   ./t learn C0 --resume --games 440000 --threads 1;  ./t learn C2 --resume --games 440000 --threads 1
# Then C2 went on (./t learn C2 --resume --games 2000000 --threads 1) and, from its save at
# 442,000 with the coherence sums beside it, C3 split it further at 16384+8192:
#   ./t3 learn C3 --from C2/network.nt --stages 16384,16384+8192 $common
# Both were stopped after a save and resumed to exactly 530,000 games (stop-after-save.sh).
