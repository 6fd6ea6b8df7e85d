#!/bin/sh
# At E8's next save: stop it and resume at alpha 0.1 (a last stage at a smaller rate, as F2 of run A).
cd /work/scratch/long3
n=$(grep -c saved E8.log)
while [ "$(grep -c saved E8.log)" = "$n" ]; do sleep 2; done
sleep 8
pkill -9 -f "t6 learn E8" || true
sleep 3
echo "# $(date -u +%H:%M:%S) switched to alpha 0.1 after the save at $(grep saved E8.log | tail -n 1 | awk '{print $3}')" >> E8.log
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s)" "$l"; done; }
( exec nice -n 10 ./t6 learn E8 --resume --alpha 0.1 --games 2000000 --threads 2 --save-secs 900 ) 2>&1 | stamp >> E8.log &
