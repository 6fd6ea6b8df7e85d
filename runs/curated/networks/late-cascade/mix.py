#!/usr/bin/env python3
"""Builds the learning banks of the late-cascade runs from bank-every25.csv
(`bank --settings ... --stage every:25`, see run.sh).

Every position is renamed to stage every:25, so that `learn --bank-stage
every:25` draws from all of them.

  near:   positions holding a 16384 within 2,000 moves before the first 32768
          of a game that made one (the 1,000 nearest counted twice);
  mix:    near, plus bank-learn.csv's 3,250 first-16384 positions (G2);
  mix3:   near, plus 40,000 positions holding a 16384 and no 32768, drawn
          from every game (random.seed(5)) (G3).

usage: mix.py bank-every25.csv bank-learn.csv
"""
import random
import sys


def rows(path):
    header, out = [], []
    for line in open(path):
        if line.startswith('#') or line.startswith('stage,'):
            header.append(line)
            continue
        _, board, score, moves, seed = line.rstrip('\n').split(',')
        out.append((board, score, int(moves), seed))
    return header, out


def write(path, header, positions):
    with open(path, 'w') as f:
        f.writelines(header)
        for r in positions:
            f.write('every:25,%s,%s,%d,%s\n' % r)
    print(path, len(positions))


def main():
    header, every = rows(sys.argv[1])
    # Ranks are hex digits: e = 16384, f = 32768.
    first32 = {}
    for board, _, moves, seed in every:
        if 'f' in board and moves < first32.get(seed, 1 << 62):
            first32[seed] = moves
    print('games that made 32768:', len(first32))
    near = [r for r in every if r[3] in first32
            and first32[r[3]] - 2000 <= r[2] < first32[r[3]] and 'e' in r[0]]
    nearer = [r for r in near if first32[r[3]] - r[2] <= 1000]
    _, first16 = rows(sys.argv[2])
    write('bank-mix.csv', header, near + nearer + first16)
    late = [r for r in every if 'e' in r[0] and 'f' not in r[0]]
    random.seed(5)
    write('bank-mix3.csv', header, random.sample(late, 40000) + near + nearer)


if __name__ == '__main__':
    main()
