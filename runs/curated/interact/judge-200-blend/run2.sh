#!/bin/sh
cd /work/scratch/judge3
T=./tune2048
$T judge --games 200 --seed 9091 --csv judge-blendC-200-s9091.csv -- $T interact --network blend-C.ntp > judge-blendC-200-s9091.txt 2>&1 &
$T judge --games 200 --seed 9091 --csv judge-reference-200-s9091.csv -- $T interact --weights nneonneo.ron > judge-reference-200-s9091.txt 2>&1 &
wait
