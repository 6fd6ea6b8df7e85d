#!/bin/sh
# Two long learning runs, one per core's worth of work, niced so development keeps priority.
B=/work/scratch/long/tune2048-e91b6bc
cd /work/scratch/long
nohup setsid nice -n 10 $B learn A --tuples six --games 2000000 --block 1000 --save-secs 600 \
  --lambda 0.5 --coherence --restarts --alpha 1.0 --rounds 20 --threads 1 >> A.log 2>&1 &
nohup setsid nice -n 10 $B learn B --tuples six --games 2000000 --block 1000 --save-secs 600 \
  --lambda 0.5 --coherence --restarts --alpha 1.0 --rounds 20 --threads 1 --stages 16384 --promote >> B.log 2>&1 &
# 01:05: B stopped (resumable from its last save); a twos run takes its core.
# nohup setsid nice -n 10 $B learn T --tuples six --variant twos --games 2000000 --block 1000 --save-secs 600 \
#   --lambda 0.5 --coherence --restarts --alpha 1.0 --rounds 20 --threads 1 >> T.log 2>&1 &
# 01:35 A paused (SIGSTOP); T resumed from 15000 with --threads 2 (same rounds 20: same network)
# 02:01 T stopped for the judge (resumes from its 02:00 save, 65000 games)
# 02:53 A continued (SIGCONT); T resumed from its 65000 save on one thread; both left running past the session
# 2026-11-27 04:44 (new session; both runs had stopped with the machine at their 03:15 saves, A 91000, T 81000): A resumed on 2 threads
# 05:40 A stopped (last save 301000 at 05:35); measured in d3/
# 06:23 A resumed again from its 301000 save, 2 threads, niced, left running past the session
# 2026-11-27 06:43 (new session; A had stopped with the machine at its 314000 save): A resumed on 2 threads
# 07:15 A paused (SIGSTOP) at its 394000 save; branches F1 (alpha 0.25) and F2 (alpha 0.1) copied from that save, one thread each
# 07:35 A killed (its folder resumes from its 394000 save); F0 copied from that save, alpha 1 (A's own), to 430000 beside F1/F2
