#!/usr/bin/env python3
"""A tune2048 player (protocol 1 or 2) that misbehaves on purpose, for tests.

    bad_player.py MODE [v1]

It speaks version 2 when greeted with `hello 2` (`boards` lines, answered
by `moves`), version 1 with `hello 1`; given `v1`, it refuses `hello 2` as
a strict version 1 program would (a message on stderr, exit status 2).

Apart from its MODE it is a correct, simple player: it declares one
parameter (`param empty 270`), accepts `set empty VALUE`, and answers every
board with the first legal move in the order U, D, L, R. The misbehaviour
happens once in the process's life, on its 5th board counted from the
start of its first game, or the board the environment's BAD_PLAYER_ON names
(a process may play many games; in version 2 the boards of a line count one
by one, and the whole line's answer misbehaves):

    ok        no misbehaviour
    slow      sleeps 30 s before answering the 5th board
    silent    never answers the 5th board (reads stdin until EOF, then exits 0)
    crash     on the 5th board, writes "bad_player: crashing on purpose" and
              more lines to stderr and exits with status 3
    garbage   answers the 5th board with `move sideways`
    double    answers the 5th board's line twice, in one write
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
    few       (version 2) answers the 5th board's line with its last move left out
    many      (version 2) answers the 5th board's line with one move too many
"""

import os
import subprocess
import sys
import time

MODES = ("ok", "slow", "silent", "crash", "garbage", "double", "illegal", "exit",
         "badparam", "noready", "dupparam", "spawner", "few", "many")
DIRECTIONS = "UDLR"
# The board (counted over the process's life) to misbehave on: the 5th, or
# BAD_PLAYER_ON's.
MISBEHAVE_ON = int(os.environ.get("BAD_PLAYER_ON", "5"))


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
    if len(argv) not in (2, 3) or argv[1] not in MODES or argv[2:] not in ([], ["v1"]):
        log(f"usage: bad_player.py MODE [v1], MODE one of {', '.join(MODES)}")
        return 2
    mode = argv[1]

    if mode == "spawner":
        child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log(f"spawned {child.pid}")

    line = sys.stdin.readline().rstrip("\n")
    versions = ["hello 1"] if argv[2:] == ["v1"] else ["hello 1", "hello 2"]
    if line not in versions:
        log(f"expected {' or '.join(versions)}, got `{line}`")
        return 2
    if line == "hello 2":
        say("version 2")
    if mode == "badparam":
        say("param empty not-a-number")
    else:
        say("param empty 270")
    if mode == "dupparam":
        say("param empty 270")
    if mode == "noready":
        drain_and_exit()
    say("ready")

    state = {"boards": 0, "pending_illegal": mode == "illegal"}
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
        if words[0] == "board" and len(words) == 17:
            cells = words[1:]
        elif words[0] == "boards" and len(words) > 1 and len(words) == 2 + 16 * int(words[1]):
            cells = words[2:]
        else:
            log(f"unknown line `{line.rstrip()}`")
            return 2
        if not all(v.isdigit() for v in cells):
            log(f"not a board: `{line.rstrip()}`")
            return 2
        boards = [[int(v) for v in cells[k:k + 16]] for k in range(0, len(cells), 16)]
        moves = answer(mode, boards, state)
        if moves is None:
            continue
        if words[0] == "board":
            reply = "\n".join(f"move {m}" for m in moves)
        else:
            reply = f"moves {' '.join(moves)}"
        if mode == "double" and state["boards"] >= MISBEHAVE_ON and not state.get("doubled"):
            state["doubled"] = True
            reply = reply + "\n" + reply
        say(reply)
    return 0


def answer(mode, boards, state):
    """The moves for a line's boards, misbehaving on board MISBEHAVE_ON; `None`
    when the line gets no answer."""
    moves = []
    misbehave = False
    for board in boards:
        state["boards"] += 1
        legal = [d for d in DIRECTIONS if moved(board, d) != board]
        illegal = [d for d in DIRECTIONS if d not in legal]
        if state["boards"] == MISBEHAVE_ON:
            misbehave = True
            if mode == "slow":
                time.sleep(30)
            elif mode in ("silent", "spawner"):
                drain_and_exit()
            elif mode == "crash":
                log("crashing on purpose")
                log("  (this is the crash fixture of tune2048's tests;")
                log("   it exits with status 3 on its 5th board)")
                sys.exit(3)
            elif mode == "garbage":
                moves.append("sideways")
                continue
            elif mode == "exit":
                sys.exit(0)
        if state["pending_illegal"] and state["boards"] >= MISBEHAVE_ON and illegal:
            state["pending_illegal"] = False
            moves.append(illegal[0])
            continue
        if not legal:
            log("no legal move on this board")
            sys.exit(2)
        moves.append(legal[0])
    if misbehave and mode == "few":
        moves = moves[:-1]
    if misbehave and mode == "many":
        moves = moves + moves[-1:]
    return moves


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        sys.exit(0)
