#!/bin/sh
# 2026-11-30 18:49 UTC: W learned on from its save at 2,350,000, same method, bank and binary, saves every 1,200 s.
./tune2048-a78d4cf learn W --resume --games 3000000 --bank bank-mix3.csv --bank-stage every:25 \
    --bank-share 1.0 --block 1000 --save-secs 1200 --threads 2
