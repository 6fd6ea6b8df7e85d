#!/usr/bin/env bash
# What two cores of this machine give two learners that share nothing: per
# rep, one learner on one thread alone; two independent one-thread learners at
# once (their steady rates summed); one learner on two threads. Even reps run
# the three in reverse order. The summed pair is the machine's own ceiling for
# the two-thread learner: 2x on an ideal machine, less where the cores slow
# each other down. The command and the rate are common.sh's; G must be two
# blocks of 832 or more. Run from the repository root after
# `cargo build --release`.
. "$(dirname "$0")/common.sh"
B=${B:-target/release/tune2048}
G=${G:-4992}
run() { learn "$B" "$1" "$2" > "$1.out" 2>&1; }
alone() { settle; run /tmp/ceil-1 1; a=$(rate /tmp/ceil-1); }
pair() { settle; run /tmp/ceil-p 1 & run /tmp/ceil-q 1; wait; p=$(rate /tmp/ceil-p); q=$(rate /tmp/ceil-q); }
both() { settle; run /tmp/ceil-2 2; t=$(rate /tmp/ceil-2); }
for rep in ${REPS:-1 2 3 4}; do
  if [ $((rep % 2)) = 1 ]; then alone; pair; both; else both; pair; alone; fi
  python3 -c "
a, p, q, t = $a, $p, $q, $t
print('rep $rep: alone %.1f | two at once %.1f + %.1f = %.1f (%.2fx) | two threads %.1f (%.2fx; %.2f of the pair)'
      % (a, p, q, p + q, (p + q) / a, t, t / a, t / (p + q)))"
done
rm -rf /tmp/ceil-1 /tmp/ceil-p /tmp/ceil-q /tmp/ceil-2 /tmp/ceil-*.out
