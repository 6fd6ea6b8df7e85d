#!/usr/bin/env bash
# What two cores of this machine give two learners that share nothing: per
# rep, one learner on one thread alone; two independent one-thread learners at
# once (their steady rates summed); one learner on two threads. Even reps run
# the three in reverse order. The summed pair is the machine's own ceiling for
# the two-thread learner: 2x on an ideal machine, less where the cores slow
# each other down. The command is scale.sh's; G must be two blocks of 832 or
# more. Run from the repository root after `cargo build --release`.
B=${B:-target/release/tune2048}
G=${G:-4992}
rate() { python3 -c "
import csv
rows=list(csv.DictReader(open('$1/progress.csv')))
g=int(rows[-1]['games'])-int(rows[0]['games'])
t=sum(float(r['seconds']) for r in rows[1:])
print('%.1f' % (g/t))"; }
# Before each run, the last run's save is written out (and, as root, the page
# cache dropped), so that no run pays for the one before it.
settle() { sync; [ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches; true; }
learn() {
  rm -rf $1
  $B learn $1 --tuples six --games $G --block 832 --rounds 16 --save-secs 100000 \
    --lambda 0.5 --coherence --restarts --alpha 1.0 --threads $2 > $1.out 2>&1
}
alone() { settle; learn /tmp/ceil-1 1; a=$(rate /tmp/ceil-1); }
pair() { settle; learn /tmp/ceil-p 1 & learn /tmp/ceil-q 1; wait; p=$(rate /tmp/ceil-p); q=$(rate /tmp/ceil-q); }
both() { settle; learn /tmp/ceil-2 2; t=$(rate /tmp/ceil-2); }
for rep in ${REPS:-1 2 3 4}; do
  if [ $((rep % 2)) = 1 ]; then alone; pair; both; else both; pair; alone; fi
  python3 -c "
a, p, q, t = $a, $p, $q, $t
print('rep $rep: alone %.1f | two at once %.1f + %.1f = %.1f (%.2fx) | two threads %.1f (%.2fx; %.2f of the pair)'
      % (a, p, q, p + q, (p + q) / a, t, t / a, t / (p + q)))"
done
rm -rf /tmp/ceil-1 /tmp/ceil-p /tmp/ceil-q /tmp/ceil-2
