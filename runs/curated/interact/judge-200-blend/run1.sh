#!/bin/sh
cd /work/scratch/judge3
T=./tune2048
$T judge --games 200 --seed 28489 --csv judge-blendC-200.csv -- $T interact --network blend-C.ntp > judge-blendC-200.txt 2>&1 &
$T judge --games 200 --seed 52 --csv judge-blendC-200-s52.csv -- $T interact --network blend-C.ntp > judge-blendC-200-s52.txt 2>&1 &
wait
