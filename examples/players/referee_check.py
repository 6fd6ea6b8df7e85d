#!/usr/bin/env python3
"""A developer check for tune2048 players: NOT tune2048's referee.

Starts a player program, does the protocol-1 handshake, sends any `set`
lines asked for, plays a few games, checks every answer, and prints the
mean score, the largest tiles and the speed. Use it while writing a player,
before handing the player to tune2048 (whose own referee is in Rust and is
what tuning uses).

    referee_check.py [options] -- COMMAND [ARG...]

    ./referee_check.py --games 20 -- ./ref_player --depth 1
    ./referee_check.py --set empty=300 -- python3 ref_player.py

Game i (from 0) of `--seed S` draws its tiles from random.Random(S + i): a
2 with probability 0.9 or a 4, on a uniformly random empty cell, two tiles
to start. `--spawns tune2048` draws them instead as tune2048's self-play
does for game seed S + i, so that a player's games can be set beside the
built-in player's (tests/data/games.csv holds some). `--variant twos` plays
the other variant: an empty start and a 2 placed before every move.

Exit status: 0 when every game was played and the player quit cleanly,
1 when the player broke the protocol (the reason is printed), 2 on bad
arguments. The player's stderr passes through.
"""

import argparse
import os
import re
import selectors
import signal
import subprocess
import sys
import time

PROTOCOL_VERSION = 1
MAX_LINE = 4096
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
DIRECTIONS = "UDLR"
MASK64 = (1 << 64) - 1


class PlayerError(Exception):
    """The player broke the protocol; the message says how."""


# --------------------------------------------------------------------------
# The player process
# --------------------------------------------------------------------------

class Player:
    """A player program in a process group of its own, spoken to by lines."""

    def __init__(self, command, timeout):
        self.timeout = timeout
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            start_new_session=True)
        self.buffer = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)

    def status(self, wait=1.0):
        """The exit status as words, waiting up to `wait` s for the exit."""
        try:
            code = self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return "still running"
        if code < 0:
            return f"killed by signal {-code}"
        return f"exit status {code}"

    def send(self, line):
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise PlayerError(
                f"the player stopped reading before `{line}` ({self.status()})")

    def receive(self, waiting_for):
        """The next line, without its newline; PlayerError when none comes
        within the time limit."""
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise PlayerError(f"a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                raise PlayerError(
                    f"no answer to {waiting_for} within {self.timeout} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise PlayerError(f"the player ended without answering "
                                  f"{waiting_for} ({self.status()})")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return line.decode()
        except UnicodeDecodeError:
            raise PlayerError(f"a line that is not UTF-8: {line[:80]!r}")

    def kill_group(self):
        """Kills the player and everything it started; True when something
        of its process group was still there to kill."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
            alive = True
        except ProcessLookupError:
            alive = False
        self.proc.wait()
        return alive


def handshake(player):
    """Sends `hello`; returns the declared parameters {name: default}."""
    player.send(f"hello {PROTOCOL_VERSION}")
    params = {}
    while True:
        line = player.receive("`hello`")
        words = line.split(" ")
        if line == "ready":
            return params
        if len(words) != 3 or words[0] != "param":
            raise PlayerError(f"expected `param NAME DEFAULT` or `ready`, got `{line}`")
        name, default = words[1], words[2]
        if not NUMBER.fullmatch(default):
            raise PlayerError(f"the default of `{name}` is not a number: `{default}`")
        if name in params:
            raise PlayerError(f"parameter `{name}` declared twice")
        params[name] = default


# --------------------------------------------------------------------------
# The game: ranks (tile 2^r has rank r, empty 0), row-major from the top left
# --------------------------------------------------------------------------

def slide(line):
    """A line of 4 ranks slid toward its first cell: (line, points, 65536
    made). Merged tiles do not merge again; the pair nearest the wall first."""
    tiles = [r for r in line if r]
    out, points, overflow, i = [], 0, False, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] + 1)
            points += 2 ** (tiles[i] + 1)
            overflow |= tiles[i] == 15
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out)), points, overflow


# The cells of each line of a move, listed from the wall the tiles go to.
LINES = {
    "U": [[c, c + 4, c + 8, c + 12] for c in range(4)],
    "D": [[c + 12, c + 8, c + 4, c] for c in range(4)],
    "L": [[4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3] for r in range(4)],
    "R": [[4 * r + 3, 4 * r + 2, 4 * r + 1, 4 * r] for r in range(4)],
}


def move(board, direction):
    """(board after the move, points, whether it made a 65536)."""
    after, points, overflow = list(board), 0, False
    for cells in LINES[direction]:
        line, p, o = slide([board[i] for i in cells])
        for i, r in zip(cells, line):
            after[i] = r
        points += p
        overflow |= o
    return after, points, overflow


def legal_moves(board):
    return [d for d in DIRECTIONS if move(board, d)[0] != board]


class PythonSpawns:
    """New tiles from random.Random(seed)."""

    def __init__(self, seed, p4):
        import random
        self.rng, self.p4 = random.Random(seed), p4

    def place(self, board):
        empty = [i for i, r in enumerate(board) if r == 0]
        cell = empty[self.rng.randrange(len(empty))]
        board[cell] = 2 if self.rng.random() < self.p4 else 1


class Tune2048Spawns:
    """New tiles as tune2048's self-play draws them for a game seed: a
    xoshiro256++ generator seeded through SplitMix64, the k-th empty cell
    for k uniform in 0..n (rand 0.8's method for u32), then a 4 when a
    uniform double in [0, 1) is below p4."""

    def __init__(self, seed, p4):
        self.p4, state, self.s = p4, seed & MASK64, []
        for _ in range(4):
            state = (state + 0x9E3779B97F4A7C15) & MASK64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK64

    def next_u64(self):
        s0, s1, s2, s3 = self.s
        result = (self._rotl((s0 + s3) & MASK64, 23) + s0) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self.s = [s0, s1, s2, self._rotl(s3, 45)]
        return result

    def below(self, n):
        """Uniform in 0..n by widening multiplication with rejection."""
        zone = ((n << (32 - n.bit_length())) & 0xFFFFFFFF) - 1
        while True:
            product = (self.next_u64() >> 32) * n
            if product & 0xFFFFFFFF <= zone:
                return product >> 32

    def place(self, board):
        empty = [i for i, r in enumerate(board) if r == 0]
        cell = empty[self.below(len(empty))]
        four = self.p4 > 0 and (self.next_u64() >> 11) * 2.0 ** -53 < self.p4
        board[cell] = 2 if four else 1


def play_game(player, variant, spawns, move_limit, stats):
    """Plays one game; returns (score, moves, largest tile, moves as letters)."""
    twos = variant == "twos"
    board = [0] * 16
    if not twos:
        spawns.place(board)
        spawns.place(board)
    score, played, tile_cap = 0, [], False
    player.send(f"game {variant}")
    while True:
        if twos:
            spawns.place(board)
        legal = legal_moves(board)
        if not legal or (move_limit is not None and len(played) >= move_limit):
            break
        text = " ".join(str(2 ** r if r else 0) for r in board)
        started = time.monotonic()
        player.send(f"board {text}")
        answer = player.receive(f"board {len(played) + 1} of the game")
        stats["player_time"] += time.monotonic() - started
        words = answer.split(" ")
        if len(words) != 2 or words[0] != "move" or words[1] not in DIRECTIONS:
            raise PlayerError(f"expected `move U|D|L|R`, got `{answer}` "
                              f"(board {len(played) + 1}: {text})")
        if words[1] not in legal:
            raise PlayerError(f"illegal move {words[1]} on board {len(played) + 1}: "
                              f"{text} (legal: {' '.join(legal)})")
        board, points, overflow = move(board, words[1])
        score += points
        played.append(words[1])
        if overflow:
            tile_cap = True
            break
        if not twos:
            spawns.place(board)
    top = 65536 if tile_cap else 2 ** max(board)
    return score, len(played), top, "".join(played)


# --------------------------------------------------------------------------
# The check
# --------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(
        description="Developer check of a tune2048 player (protocol 1): "
                    "plays games, checks every answer, reports scores and speed.",
        usage="%(prog)s [options] -- COMMAND [ARG...]")
    parser.add_argument("--games", type=int, default=10, help="games to play (10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0 (1)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="send `set NAME VALUE` before the first game")
    parser.add_argument("--variant", choices=["classic", "twos"], default="classic")
    parser.add_argument("--spawns", choices=["python", "tune2048"], default="python",
                        help="random.Random (default) or tune2048's generator")
    parser.add_argument("--move-limit", type=int, help="stop each game after this many moves")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds allowed for each answer (10)")
    parser.add_argument("--record", metavar="FILE",
                        help="write each game's seed, score, moves, tile and move letters")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no player command (put it after --)")
    sets = []
    for item in args.set:
        name, _, value = item.partition("=")
        if not name or not NUMBER.fullmatch(value):
            parser.error(f"--set wants NAME=NUMBER, not `{item}`")
        sets.append((name, value))

    p4 = 0.1 if args.variant == "classic" else 0.0
    Spawns = Tune2048Spawns if args.spawns == "tune2048" else PythonSpawns
    record = open(args.record, "w") if args.record else None
    stats = {"player_time": 0.0}
    results = []
    try:
        player = Player(command, args.timeout)
    except OSError as e:
        print(f"referee_check: cannot start {command[0]}: {e}", file=sys.stderr)
        return 2
    started = time.monotonic()
    try:
        params = handshake(player)
        print("params: " + (", ".join(f"{n}={v}" for n, v in params.items()) or "none"))
        for name, value in sets:
            if name not in params:
                raise PlayerError(f"--set {name}: the player declared no `{name}`")
            player.send(f"set {name} {value}")
        for i in range(args.games):
            seed = args.seed + i
            if args.spawns == "tune2048":
                seed &= MASK64
            game_start = time.monotonic()
            score, moves, top, letters = play_game(
                player, args.variant, Spawns(seed, p4), args.move_limit, stats)
            results.append((score, moves, top))
            if not args.quiet:
                print(f"game {i} (seed {seed}): score {score}, moves {moves}, "
                      f"max tile {top}, {time.monotonic() - game_start:.2f} s")
            if record:
                record.write(f"{seed} {score} {moves} {top} {letters}\n")
        player.send("quit")
        status = player.status(wait=args.timeout)
        if status != "exit status 0":
            raise PlayerError(f"after `quit`: {status}, expected exit status 0")
        if player.kill_group():
            print("referee_check: warning: the player left processes running "
                  "(killed now)", file=sys.stderr)
    except PlayerError as e:
        player.kill_group()
        print(f"referee_check: FAIL after {len(results)} whole games: {e}", file=sys.stderr)
        return 1
    finally:
        if record:
            record.close()
        if player.proc.poll() is None:  # interrupted: leave nothing behind
            player.kill_group()
    elapsed = time.monotonic() - started

    n = len(results)
    moves = sum(m for _, m, _ in results)
    tiles = {}
    for _, _, top in results:
        tiles[top] = tiles.get(top, 0) + 1
    print(f"games: {n}, mean score: {sum(s for s, _, _ in results) / max(n, 1):.1f}, "
          f"moves: {moves}")
    print("max tiles: " + ", ".join(f"{t}: {c}" for t, c in sorted(tiles.items())))
    print(f"moves/s: {moves / max(stats['player_time'], 1e-9):.1f} "
          f"(time waiting for answers), {moves / max(elapsed, 1e-9):.1f} (wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
