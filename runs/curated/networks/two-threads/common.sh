# What ab.sh and ceiling.sh share: sourced, not run.
#
# settle: before a run, the last run's save is written out (and, as root, the
# page cache dropped), so that no run pays for the one before it.
settle() { sync; [ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches; true; }

# learn BIN DIR THREADS: the measured command, G games in blocks of 832,
# rounds of ROUNDS (16; a divisor of 832), into a fresh DIR; run under $WRAP
# (a command and its options, such as /usr/bin/time's) where that is set.
learn() {
  rm -rf "$2"
  $WRAP "$1" learn "$2" --tuples six --games "$G" --block 832 --rounds "${ROUNDS:-16}" \
    --save-secs 100000 --lambda 0.5 --coherence --restarts --alpha 1.0 --threads "$3"
}

# rate DIR: the steady rate, the games of blocks 2 to n over the sum of their
# seconds in DIR/progress.csv (the first block, the allocation and the save
# left out).
rate() { python3 -c "
import csv
rows = list(csv.DictReader(open('$1/progress.csv')))
g = int(rows[-1]['games']) - int(rows[0]['games'])
t = sum(float(r['seconds']) for r in rows[1:])
print('%.1f' % (g / t) if t > 0 else 'n/a (one block)')"; }
