#!/bin/bash
# Matches of the tuned GPCC player (configs/players/gpcc.ron) on 200 fresh
# openings (seed 777: match openings derive from (seed, match), which no
# tuning run's game seeds use), against the seed's evaluation 2 and the
# untuned reference weights, at 3, 5 and 7 plies. One JSON file a pairing.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${TUNE2048:-target/release/tune2048}
out=runs/curated/gpcc-tuned
tuned=configs/players/gpcc.ron
base=configs/weights/nneonneo.ron
for plies in 3 5 7; do
    for pair in "$tuned eval2 tuned-eval2" "$base eval2 base-eval2" "$tuned $base tuned-base"; do
        set -- $pair
        "$bin" match --rules gpcc2016 --a "$1" --b "$2" --plies "$plies" --matches 200 --seed 777 --json \
            > "$out/$3-p$plies.json"
        python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; print(sys.argv[1], s['wins'], s['draws'], s['losses'], round(s['win_rate'],3), [round(x,3) for x in s['win_rate_ci95']], round(s['mean_a_defends'],1), round(s['mean_b_defends'],1), round(s['mean_diff'],1), [round(x,1) for x in s['mean_diff_ci95']])" "$out/$3-p$plies.json"
    done
done
