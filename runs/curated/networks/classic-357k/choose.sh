#!/bin/sh
# How the shipped classic network was packed: every choice on greedy games of seed 9001
# (2,000 paired games), none on the seeds that measured it (6065, 6007).
# A329.nt / A329.tc: run A's network and coherence sums at its save at 329,000 games;
# A357.nt / coherence-357000.tc: the same at 357,000 (copies of A/network.nt and its sums).
set -e
T=tune2048
# 11.6 million weights kept (a 16 MB file at step 16): by their coherence sums, or by size.
$T pack A329.nt --step 16 --keep 11600000 --coherence A329.tc --out K329-s16.ntp
$T pack A329.nt --step 16 --drop 264.86 --out A329-s16-d264.ntp     # the same count, 17.9 MB
$T eval --network A329.nt --depth 0 --games 2000 --seed 9001 --threads 2 --csv A329-full-d0-9001.csv
$T eval --network K329-s16.ntp --depth 0 --games 2000 --seed 9001 --threads 2 --csv A329-keep-d0-9001.csv
$T eval --network A329-s16-d264.ntp --depth 0 --games 2000 --seed 9001 --threads 1 --csv A329-drop-d0-9001.csv
scripts/pair.py A329-full-d0-9001.csv A329-keep-d0-9001.csv
scripts/pair.py A329-full-d0-9001.csv A329-drop-d0-9001.csv
# The shipped file: the later save, packed the same way.
$T pack A357.nt --step 16 --keep 11600000 --coherence coherence-357000.tc --out six.ntp
$T eval --network A357.nt --depth 0 --games 2000 --seed 9001 --threads 2 --csv A357-full-d0-9001.csv
$T eval --network six.ntp --depth 0 --games 2000 --seed 9001 --threads 2 --csv shipped-d0-9001.csv
scripts/pair.py A357-full-d0-9001.csv shipped-d0-9001.csv
