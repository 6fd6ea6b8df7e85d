#!/usr/bin/env bash
# Learning on 1 and 2 threads, rounds of 16, interleaved pairs. Reports the
# whole run's wall time and the steady rate: the games of blocks 2 to n over
# the sum of their seconds in progress.csv, which leaves out the first block,
# the network's allocation and its save at the end. Run from the repository
# root after `cargo build --release`.
B=${B:-target/release/tune2048}
G=${G:-9984}
for rep in ${REPS:-1 2 3}; do
  for t in 1 2; do
    rm -rf /tmp/scale$t
    s=$(date +%s.%N)
    $B learn /tmp/scale$t --tuples six --games $G --block 832 --rounds 16 --save-secs 100000 --lambda 0.5 --coherence --restarts --alpha 1.0 --threads $t > /tmp/scale$t.out 2>&1
    e=$(date +%s.%N)
    rate=$(python3 -c "
import csv
rows=list(csv.DictReader(open('/tmp/scale$t/progress.csv')))
g=int(rows[-1]['games'])-int(rows[0]['games'])
t=sum(float(r['seconds']) for r in rows[1:])
print('%.1f' % (g/t))")
    echo "rep $rep threads $t wall $(echo "$e - $s" | bc) s steady $rate games/s $(grep -o 'hash [0-9a-f]*' /tmp/scale$t.out)"
  done
done
