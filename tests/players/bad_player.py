#!/usr/bin/env python3
"""A tune2048 player (protocol 1) that misbehaves on purpose, for tests.

    bad_player.py MODE

Apart from its MODE it is a correct, simple player: it declares one
parameter (`param empty 270`), accepts `set empty VALUE`, and answers every
board with the first legal move in the order U, D, L, R. The misbehaviour
happens once in the process's life, on its 5th `board` line counted from
the start of its first game (a process may play many games):

    ok        no misbehaviour
    slow      sleeps 30 s before answering the 5th board
    silent    never answers the 5th board (reads stdin until EOF, then exits 0)
    crash     on the 5th board, writes "bad_player: crashing on purpose" and
              more lines to stderr and exits with status 3
    garbage   answers the 5th board with `move sideways`
    double    answers the 5th board with its move twice, in one write
    illegal   answers the 5th board with a direction that does not change
              it, or, if every direction does, the first later board that
              has one
    exit      exits with status 0 on the 5th board, without a word
    badparam  handshake: `param empty not-a-number`, then `ready`
    noready   handshake: declares its parameter, never writes `ready`
              (reads stdin until EOF, then exits 0)
    dupparam  handshake: `param empty 270` twice, then `ready`
    spawner   starts a background `sleep 300` (no stdin, stdout or stderr of
              ours), writes `spawned PID` to stderr, then on the 5th board
              hangs like `silent`: only killing the player's whole process
              group ends the sleep
"""

import subprocess
import sys
import time

MODES = ("ok", "slow", "silent", "crash", "garbage", "double", "illegal", "exit",
         "badparam", "noready", "dupparam", "spawner")
DIRECTIONS = "UDLR"
MISBEHAVE_ON = 5  # the board (counted over the process's life) to misbehave on


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(line):
    sys.stderr.write(f"bad_player: {line}\n")
    sys.stderr.flush()


def drain_and_exit():
    """Answers nothing more: reads stdin until it ends, then exits 0."""
    for _ in sys.stdin:
        pass
    sys.exit(0)


def slide(line):
    """A line of 4 tile values slid toward its first cell."""
    tiles = [v for v in line if v]
    out = []
    while tiles:
        if len(tiles) > 1 and tiles[0] == tiles[1]:
            out.append(2 * tiles[0])
            tiles = tiles[2:]
        else:
            out.append(tiles.pop(0))
    return out + [0] * (4 - len(out))


def moved(board, direction):
    """The board (16 values, row-major) after a move."""
    lines = {
        "U": [[c, c + 4, c + 8, c + 12] for c in range(4)],
        "D": [[c + 12, c + 8, c + 4, c] for c in range(4)],
        "L": [[4 * r + c for c in range(4)] for r in range(4)],
        "R": [[4 * r + 3 - c for c in range(4)] for r in range(4)],
    }[direction]
    after = list(board)
    for cells in lines:
        for i, v in zip(cells, slide([board[i] for i in cells])):
            after[i] = v
    return after


def main(argv):
    if len(argv) != 2 or argv[1] not in MODES:
        log(f"usage: bad_player.py MODE, MODE one of {', '.join(MODES)}")
        return 2
    mode = argv[1]

    if mode == "spawner":
        child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log(f"spawned {child.pid}")

    line = sys.stdin.readline()
    if line.rstrip("\n") != "hello 1":
        log(f"expected `hello 1`, got `{line.rstrip()}`")
        return 2
    if mode == "badparam":
        say("param empty not-a-number")
    else:
        say("param empty 270")
    if mode == "dupparam":
        say("param empty 270")
    if mode == "noready":
        drain_and_exit()
    say("ready")

    boards = 0           # boards seen over the process's life
    pending_illegal = mode == "illegal"
    for line in sys.stdin:
        words = line.rstrip("\n").split(" ")
        if words[0] == "quit" and len(words) == 1:
            return 0
        if words[0] == "game" and words[1:] in (["classic"], ["twos"]):
            continue
        if words[0] == "set" and len(words) == 3:
            if words[1] != "empty":
                log(f"unknown parameter `{words[1]}`")
                return 2
            continue
        if words[0] != "board" or len(words) != 17:
            log(f"unknown line `{line.rstrip()}`")
            return 2

        if not all(v.isdigit() for v in words[1:]):
            log(f"not a board: `{line.rstrip()}`")
            return 2
        board = [int(v) for v in words[1:]]
        boards += 1
        legal = [d for d in DIRECTIONS if moved(board, d) != board]
        illegal = [d for d in DIRECTIONS if d not in legal]
        if boards == MISBEHAVE_ON:
            if mode == "slow":
                time.sleep(30)
            elif mode in ("silent", "spawner"):
                drain_and_exit()
            elif mode == "crash":
                log("crashing on purpose")
                log("  (this is the crash fixture of tune2048's tests;")
                log("   it exits with status 3 on its 5th board)")
                return 3
            elif mode == "garbage":
                say("move sideways")
                continue
            elif mode == "double" and legal:
                say(f"move {legal[0]}\nmove {legal[0]}")
                continue
            elif mode == "exit":
                return 0
        if pending_illegal and boards >= MISBEHAVE_ON and illegal:
            pending_illegal = False
            say(f"move {illegal[0]}")
            continue
        if not legal:
            log("no legal move on this board")
            return 2
        say(f"move {legal[0]}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        sys.exit(0)
