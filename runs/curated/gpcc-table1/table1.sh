#!/usr/bin/env bash
cd "$(dirname "$0")/../../.."
B=target/release/tune2048
for pair in "eval2 eval1" "eval2 score" "eval1 score" "eval2 eval2" "eval1 eval1" "score score"; do
  set -- $pair
  start=$(date +%s.%N)
  out=$($B match --rules gpcc2016 --a $1 --b $2 --plies 7 --matches 50 --seed 1 --json 2>/dev/null)
  end=$(date +%s.%N)
  echo "$1 $2 $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d.get("summary",d); print(s["mean_a_defends"], s["mean_b_defends"], s["wins"], s["draws"], s["losses"])') $(python3 -c "print(round($end-$start,1))")"
done
