#!/bin/sh
# Written 2026-11-30 22:45 UTC. A pilot, not a test: the shipped file at depth 3 with its settings
# file and the chance-node cutoff off (`--prob-cutoff 0`: every chance node within depth 3 is
# searched, as TDL2048+'s search does; the default 1e-4 scores a node reached with a lower
# probability by the network instead), on games 0..99 of seed 106007, which the shipped file with
# the default cutoff played in ../wide-on/shipped-d3-106007.csv. Stopped when the session needs
# the machine; the games finished are kept in pilot-cutoff0-106007.csv.partial and a later
# session may go on with the same command and --resume. Its purpose is the cost of a move
# without the cutoff, to plan a test on fresh games; its scores choose nothing (106007 was
# played by the shipped file already, so a setting chosen on it would need fresh games).
B=${B:-/work/scratch/bin/tune2048-4d7e8bc}
S=/work/main/configs/networks/six.search.ron
N=/work/main/configs/networks/six.ntp
date -u +"start %H:%M:%S"
$B eval --network $N --settings $S --prob-cutoff 0 --depth 3 --games 100 --seed 106007 \
    --threads 2 --csv pilot-cutoff0-106007.csv $RESUME
