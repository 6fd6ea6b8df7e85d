#!/bin/bash
# Time a move on one thread, nothing else running, interleaved in two rounds: `bench search`
# (whole games of the bench seeds at depths 0-3, no settings file) for the reference weights,
# G4 packed (six.ntp until this change) and G5 packed with --stage-deltas (six.ntp since).
# Run from the repository root with B and the two files set; output in time2.txt.
for r in 1 2; do
  echo "round $r reference"; $B bench search --reps 1 2>&1 | grep -E '^depth'
  echo "round $r G4"; $B bench search --reps 1 --network $G4 2>&1 | grep -E '^depth'
  echo "round $r G5d"; $B bench search --reps 1 --network $G5D 2>&1 | grep -E '^depth'
done
