#!/bin/bash
# Blends of snapshots at the depth-1 proxy: from the first-16384 positions of bank-eval.csv,
# 400 games of seed 7600 (the proxy every late-stage candidate has been judged on).
set -e
B=/work/scratch/ens/tune2048
L=/work/scratch/late; W=/work/scratch/wide
one() { name=$1; shift
  $B blend "$@" --out $name.nt
  $B eval --network $name.nt --depth 1 --games 400 --seed 7600 --bank $L/bank-eval.csv \
    --bank-stage 16384 --threads 2 --csv $name-d1-off.csv | tail -2
}
one WWLG $L/W2055.ntp $W/W2156.ntp $L/L.ntp G5.ntp
one WG $L/W2055.ntp G5.ntp
one WWWL $W/W1972000.nt $L/W2055.ntp $W/W2156.ntp $L/L.ntp
