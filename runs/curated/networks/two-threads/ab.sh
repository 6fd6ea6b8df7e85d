#!/usr/bin/env bash
# Learning speed of several builds, interleaved: for each rep, each binary in
# $BINS on 1 and then 2 threads ($THREADS to choose). Reports wall time, the
# steady rate (games of blocks 2 to n over their seconds in progress.csv; G
# must be two blocks of 832 or more), the peak resident memory and the hash of
# the network learned. ROUNDS sets --rounds (16; a divisor of 832). With
# ABBA=1, even reps run the thread counts in reverse order, so that a machine
# speeding up or slowing down over the session favours neither side of a pair.
# Run from the repository root.
G=${G:-4992}
# Before each run, the last run's save is written out (and, as root, the page
# cache dropped), so that no run pays for the one before it.
settle() { sync; [ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches; true; }
for rep in ${REPS:-1 2 3}; do
  for b in $BINS; do
    order=${THREADS:-1 2}
    if [ "${ABBA:-0}" = 1 ] && [ $((rep % 2)) = 0 ]; then
      order=$(echo $order | tr ' ' '\n' | tac | tr '\n' ' ')
    fi
    for t in $order; do
      rm -rf /tmp/ab$t
      settle
      s=$(date +%s.%N)
      /usr/bin/time -f "%M" -o /tmp/ab.mem $b learn /tmp/ab$t --tuples six --games $G --block 832 --rounds ${ROUNDS:-16} --save-secs 100000 --lambda 0.5 --coherence --restarts --alpha 1.0 --threads $t > /tmp/ab$t.out 2>&1
      e=$(date +%s.%N)
      rate=$(python3 -c "
import csv
rows=list(csv.DictReader(open('/tmp/ab$t/progress.csv')))
g=int(rows[-1]['games'])-int(rows[0]['games'])
t=sum(float(r['seconds']) for r in rows[1:])
print('%.1f' % (g/t) if t > 0 else 'n/a (one block)')")
      echo "rep $rep $(basename $b) threads $t wall $(echo "$e - $s" | bc) s steady $rate games/s peak $(cat /tmp/ab.mem) KB $(grep -o 'hash [0-9a-f]*' /tmp/ab$t.out)"
    done
  done
done
