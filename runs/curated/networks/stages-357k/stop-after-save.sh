#!/bin/sh
# Kills the learner of folder $1 (pid $2) right after its next save, then resumes it to $3 games.
dir=$1; pid=$2; to=$3
n=$(grep -c saved $dir.log)
while [ "$(grep -c saved $dir.log)" = "$n" ]; do sleep 2; done
sleep 8   # the save's files are renamed into place before the line is printed; settle
kill -9 $pid
sleep 2
nice -n 10 ./t3 learn $dir --resume --games $to --threads 1 >> $dir.log 2>&1
