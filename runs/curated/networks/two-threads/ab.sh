#!/usr/bin/env bash
# Learning speed of several builds, interleaved: for each rep, each binary in
# $BINS on 1 and then 2 threads ($THREADS to choose). Reports wall time, the
# steady rate (common.sh's; G must be two blocks of 832 or more), the peak
# resident memory and the hash of the network learned. ROUNDS sets --rounds
# (16; a divisor of 832). With ABBA=1, even reps run the thread counts in
# reverse order, so that a machine speeding up or slowing down over the session
# favours neither side of a pair. Run from the repository root; pairs.py sums
# the output up (ratios pair by pair, medians, confidence intervals).
. "$(dirname "$0")/common.sh"
G=${G:-4992}
for rep in ${REPS:-1 2 3}; do
  for b in $BINS; do
    order=${THREADS:-1 2}
    if [ "${ABBA:-0}" = 1 ] && [ $((rep % 2)) = 0 ]; then
      order=$(echo $order | tr ' ' '\n' | tac | tr '\n' ' ')
    fi
    for t in $order; do
      settle
      s=$(date +%s.%N)
      WRAP="/usr/bin/time -f %M -o /tmp/ab.mem" learn $b /tmp/ab$t $t > /tmp/ab$t.out 2>&1
      e=$(date +%s.%N)
      echo "rep $rep $(basename $b) threads $t wall $(echo "$e - $s" | bc) s steady $(rate /tmp/ab$t) games/s peak $(cat /tmp/ab.mem) KB $(grep -o 'hash [0-9a-f]*' /tmp/ab$t.out)"
    done
  done
done
