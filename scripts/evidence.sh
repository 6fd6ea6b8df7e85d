#!/usr/bin/env bash
# The comparisons behind the results table (docs/src/results/index.md): every shipped weight set
# against the reference weights on fresh paired seeds (seed 777: the tuning
# runs drew their games from run-seed streams and never played these).
# Usage: scripts/evidence.sh [d1|d2|d3|d3-d1|twos]...   (default: d1 d2)
set -euo pipefail
bin=${BIN:-target/release/tune2048}
ref=configs/weights/nneonneo.ron
[ $# -gt 0 ] || set -- d1 d2
for what in "$@"; do
    case $what in
        d1) "$bin" compare --weights $ref --weights configs/weights/classic-d1.ron --depth 1 --games 2000 --seed 777
            "$bin" compare --weights $ref --weights configs/weights/classic-d2.ron --depth 1 --games 2000 --seed 777 ;;
        d2) "$bin" compare --weights $ref --weights configs/weights/classic-d2.ron --depth 2 --games 500 --seed 777 ;;
        d3) "$bin" compare --weights $ref --weights configs/weights/default.ron --depth 3 --games "${D3_GAMES:-200}" --seed 777 ;;
        # The two shipped classic sets head to head at depth 3 (why default.ron is classic-d2).
        d3-d1) "$bin" compare --weights configs/weights/classic-d1.ron --weights configs/weights/classic-d2.ron --depth 3 --games 200 --seed 777 ;;
        twos) "$bin" judge --games 16 --seed 28489 ;;
        *) echo "unknown: $what (d1, d2, d3, d3-d1, twos)" >&2; exit 2 ;;
    esac
done
