#!/usr/bin/env bash
# Two screens of the shipped file at depth 1 from the 1,597 first-16384 positions of
# banks/six-16384.csv, games 0..399 of seed 7801, two threads, each against the file as it
# ships (off-7801.csv). Run from the repository root with B set to the binary.
#   on-7801.csv:   a binary built with fallback.patch applied, T2048_FALLBACK=1 (a 0 weight of
#                  a stage after the first reads the stage before's weight at the same index)
#   dg16-7801.csv: the file with (downgrade_at: 16384) in place of its settings file
set -eu
B=${B:-target/release/tune2048}
D=runs/curated/networks/stage-fallback
common=(--network configs/networks/six.ntp --depth 1 --games 400 --seed 7801
        --bank banks/six-16384.csv --bank-stage 16384 --threads 2)
$B eval "${common[@]}" --settings configs/networks/six.search.ron --csv "$D/off-7801.csv"
if [ -n "${T2048_FALLBACK:-}" ]; then
  $B eval "${common[@]}" --settings configs/networks/six.search.ron --csv "$D/on-7801.csv"
fi
printf '(downgrade_at: 16384)\n' > /tmp/dg16.ron
$B eval "${common[@]}" --settings /tmp/dg16.ron --csv "$D/dg16-7801.csv"
python3 scripts/pair.py "$D/off-7801.csv" "$D/on-7801.csv"
python3 scripts/pair.py "$D/off-7801.csv" "$D/dg16-7801.csv"
