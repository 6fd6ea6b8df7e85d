#!/bin/bash
# Time a move on one thread, nothing else running, interleaved in two rounds: `bench search`
# (whole games of the bench seeds at depths 0-3, no settings file) for the reference weights,
# G3 packed (six.ntp on 2026-11-29 until 98cf8cf's successor) and G4 packed (six.ntp since).
# Run from the repository root; output in time.txt.
B=target/release/tune2048
git show 98cf8cf:configs/networks/six.ntp > /tmp/g3.ntp
for r in 1 2; do
  echo "round $r reference"; $B bench search --reps 1 2>&1 | grep -E '^depth'
  echo "round $r G3"; $B bench search --reps 1 --network /tmp/g3.ntp 2>&1 | grep -E '^depth'
  echo "round $r G4"; $B bench search --reps 1 --network configs/networks/six.ntp 2>&1 | grep -E '^depth'
done
