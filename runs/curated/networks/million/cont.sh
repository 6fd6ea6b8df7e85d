#!/bin/bash
# Run A's packed save at 357,000 games (a98f29b:configs/networks/six.ntp) learned on with A's
# method (ziap/2048-tdl's README recipe) on both cores, to see whether 32768 appears by 1,000,000 games.
cd /work/scratch
T=/work/scratch/tune2048-217e38e
$T learn Acont --from A357.ntp --games 2000000 --block 1000 --save-secs 1200 --lambda 0.5 --coherence --restarts --alpha 1.0 --rounds 20 --threads 2 > learn-Acont.log 2>&1
#!/bin/bash
# cont.sh stopped right after its save at 505,000 games (13:18), resumed to end at 1,000,000 with a save.
cd /work/scratch
T=/work/scratch/tune2048-217e38e
$T learn Acont --resume --games 1000000 --save-secs 1200 --threads 2 >> learn-Acont.log 2>&1
