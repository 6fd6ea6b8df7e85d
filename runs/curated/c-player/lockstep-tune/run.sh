#!/usr/bin/env bash
# The C example tuned over protocol version 1 and version 2, one after the
# other, nothing else running (docs/src/guide/players.md, "A tuning run over
# each version"). Run from the repository root after building the player:
#   cc -O2 -o examples/players/ref_player examples/players/ref_player.c -lm
# c-player-v1.ron is configs/external/c-player.ron with `lockstep: 1` added.
set -e
D=runs/curated/c-player/lockstep-tune
for v in v1 v2; do
  config=configs/external/c-player.ron
  [ $v = v1 ] && config=$D/c-player-v1.ron
  /usr/bin/time -v target/release/tune2048 tune --out /tmp/lockstep-$v $config \
    > $D/$v.out 2> /tmp/lockstep-$v.err
done
