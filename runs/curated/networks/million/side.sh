#!/bin/bash
# Side by side from one start: run A's packed save at 357,000 games (a98f29b:configs/networks/six.ntp),
# continued by ziap/2048-tdl's trainer (README recipe, -i) and by tune2048 learn (the same method), one core each.
cd /work/scratch
T=/work/scratch/tune2048-217e38e
( cd ziap && taskset -c 1 ./2048 train -e 2000 -a 1.0 -l 0.5 -c -o -r -i -t 1 2>&1 | while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N | cut -c1-14)" "$l"; done > ../ziap-train.log ) &
taskset -c 0 $T learn Acont --from A357.ntp --games 2000000 --block 1000 --save-secs 1800 --lambda 0.5 --coherence --restarts --alpha 1.0 --rounds 20 --threads 1 > learn-Acont.log 2>&1 &
wait
#!/bin/bash
# ziap/2048-tdl's side of side.sh, line-buffered (restarted 90 s after ours for that).
cd /work/scratch/ziap
taskset -c 1 stdbuf -oL ./2048 train -e 2000 -a 1.0 -l 0.5 -c -o -r -i -t 1 2>&1 | while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N | cut -c1-14)" "$l"; done > ../ziap-train.log
