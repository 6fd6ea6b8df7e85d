#!/usr/bin/env python3
"""ref_player.py -- the reference heuristic as an external tune2048 player.

A player is any program that speaks tune2048's line protocol (version 2, or
version 1 when greeted with `hello 1`) on stdin/stdout; see README.md next
to this file. This one declares the seven
weights of the reference heuristic (nneonneo/2048-ai) as tunable parameters
and searches with expectimax to a fixed depth, in the standard library only.

    ./ref_player.py [--depth N]        (N = 0..4, default 1)

It computes what tune2048's built-in player computes, in the same order and
with the same single-precision (f32) rounding, so at depths 0 to 2 it
chooses the same moves. Python's floats are doubles: every f32 operation
here is done in double and rounded to f32 (`f32()` below), which gives the
f32 result exactly for +, -, * and /. From depth 3 on, tune2048 reuses
values from a transposition table searched under other probability
cutoffs, which this player has not: its moves there may differ slightly.

It is some sixty times slower than ref_player.c at depth 1 (a few thousand
moves a second); it is meant to be read. The file reads top-down: the protocol loop, the heuristic, the moves,
the search.
"""

import math
import re
import struct
import sys

# The parameters declared in the handshake, in this order, with these
# defaults (the reference heuristic's weights).
PARAMS = [
    ("lost_penalty", "200000"),
    ("empty", "270"),
    ("merges", "700"),
    ("monotonicity", "47"),
    ("monotonicity_power", "4"),
    ("sum", "11"),
    ("sum_power", "3.5"),
]

# A decimal number as the protocol writes them: no "inf", "nan", "1_000"
# or hexadecimal, which Python's float() would take.
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")

# Directions, in the order used everywhere (the search breaks ties by it).
UP, DOWN, LEFT, RIGHT = range(4)
LETTERS = "UDLR"

# The tile values a cell can hold, as written in a `board` line, and their
# ranks (tile 2^r has rank r; an empty cell, 0, has rank 0).
RANK_OF = {"0": 0}
RANK_OF.update({str(2 ** r): r for r in range(1, 16)})


def fail(message):
    """A protocol error: say why on stderr and exit with status 2."""
    print(f"ref_player.py: {message}", file=sys.stderr)
    sys.exit(2)


# --------------------------------------------------------------------------
# The protocol loop
# --------------------------------------------------------------------------

def main(argv):
    depth = 1
    args = argv[1:]
    while args:
        if args[0] in ("-h", "--help"):
            print(__doc__)
            return 0
        if args[0] == "--depth" and len(args) >= 2 and args[1] in ("0", "1", "2", "3", "4"):
            depth = int(args[1])
            args = args[2:]
        else:
            fail(f"usage: ref_player.py [--depth 0..4], not {' '.join(args)}")

    # Bytes that are not UTF-8 make an unknown line, not a crash.
    sys.stdin.reconfigure(errors="replace")
    weights = {name: float(default) for name, default in PARAMS}
    player = None  # the search, built at the first game and after each `set`
    p4 = None      # set by `game`: a `board` needs a game

    line = sys.stdin.readline()
    if not line:
        return 0
    hello = line.rstrip("\r\n")
    if hello == "hello 2":
        print("version 2")  # boards come several to a line
    elif hello != "hello 1":
        fail(f"expected `hello 1` or `hello 2`, got `{line.rstrip()}`")
    for name, default in PARAMS:
        print(f"param {name} {default}")
    print("ready", flush=True)

    # Then `set`, `game` and `board` lines until `quit` or the end of the
    # input. A game has no end marker: the next `set` or `game` starts the
    # next one.
    for line in sys.stdin:
        words = line.rstrip("\r\n").split(" ")
        command, args = words[0], words[1:]
        if command == "board":
            if p4 is None:
                fail("`board` without a `game` before it")
            board = parse_board(args)
            direction = player.decide(board, p4)
            if direction is None:
                fail("no legal move on this board")
            print(f"move {LETTERS[direction]}", flush=True)
        elif command == "boards":
            # Version 2: `boards N` and N boards of 16 cells, answered by
            # their N moves in one line.
            if p4 is None:
                fail("`boards` without a `game` before it")
            if not args or not args[0].isdigit() or len(args) != 1 + 16 * int(args[0]):
                fail("`boards N` needs N boards of 16 tile values")
            letters = []
            for k in range(int(args[0])):
                direction = player.decide(parse_board(args[1 + 16 * k:17 + 16 * k]), p4)
                if direction is None:
                    fail(f"no legal move on board {k + 1}")
                letters.append(LETTERS[direction])
            print("moves", *letters, flush=True)
        elif command == "set":
            if len(args) != 2:
                fail("`set` needs a name and a value")
            name, text = args
            if name not in weights:
                fail(f"unknown parameter `{name}`")
            value = float(text) if NUMBER.fullmatch(text) else math.nan
            if not math.isfinite(value):
                fail(f"`{text}` is not a number (set {name})")
            if value != weights[name]:
                weights[name] = value
                player = None  # rebuilt at the next `game`
            p4 = None  # a `set` comes between games: a `board` needs a `game` first
        elif command == "game":
            if args == ["classic"]:
                p4 = 0.1
            elif args == ["twos"]:
                p4 = 0.0
            else:
                fail(f"unknown game `{' '.join(args)}`")
            if player is None:
                player = Searcher(weights, depth)
        elif command == "quit" and not args:
            return 0
        else:
            fail(f"unknown line `{line.rstrip()}`")
    return 0  # end of input: tune2048 is gone, so are we


def parse_board(cells):
    """16 tile values, row-major from the top left, as a board (below)."""
    if len(cells) != 16:
        fail("a board is 16 tile values")
    board = 0
    for i, text in enumerate(cells):
        rank = RANK_OF.get(text)
        if rank is None:
            fail(f"`{text}` is not a tile value")
        board |= rank << (4 * i)
    return board


# --------------------------------------------------------------------------
# f32 arithmetic
# --------------------------------------------------------------------------

_F32 = struct.Struct("f")


def f32(x):
    """x rounded to the nearest single-precision float (to infinity beyond)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


# --------------------------------------------------------------------------
# The heuristic
# --------------------------------------------------------------------------
#
# A board is an int of 16 cells of 4 bits, each the rank of its tile (0 for
# an empty cell). Cell i = 4*row + col, row-major from the top-left corner,
# lives in bits 4i..4i+3, so row r is the 16-bit "line" at bits 16r with its
# leftmost cell in the low nibble.

def line_heuristic(w, r):
    """The score of one line of ranks r[0..3], in double."""
    def rank_pow(rank, power):
        return 0.0 if rank == 0 else float(rank) ** power

    empty = merges = run = prev = 0
    total = 0.0
    for rank in r:
        total += rank_pow(rank, w["sum_power"])
        if rank == 0:
            empty += 1
            continue  # runs of equal ranks skip empty cells
        if rank == prev:
            run += 1  # one more tile equal to the one before it
        else:
            if run > 0:
                merges += run + 1  # a run of k >= 2 equal tiles adds k
            run = 0
        prev = rank
    if run > 0:
        merges += run + 1

    # Monotonicity: how much the line falls (left) and rises (right) from
    # cell 0 to cell 3 on the rank^power scale; the smaller is a penalty.
    left = right = 0.0
    for i in range(1, 4):
        a = rank_pow(r[i - 1], w["monotonicity_power"])
        b = rank_pow(r[i], w["monotonicity_power"])
        if r[i - 1] > r[i]:
            left += a - b
        else:
            right += b - a

    return (w["lost_penalty"] + w["empty"] * empty + w["merges"] * merges
            - w["monotonicity"] * min(left, right) - w["sum"] * total)


def build_score_table(w):
    """Each 16-bit line's score, computed in double, stored rounded to f32."""
    return [f32(line_heuristic(w, (line & 15, line >> 4 & 15, line >> 8 & 15, line >> 12)))
            for line in range(1 << 16)]


def score(table, b):
    """The board's score, summed in f32 in this order: rows top to bottom
    (each read left to right), then columns left to right (each read top to
    bottom, i.e. as the rows of the transposed board)."""
    t = transpose(b)
    s = table[b & 0xFFFF]
    s = f32(s + table[b >> 16 & 0xFFFF])
    s = f32(s + table[b >> 32 & 0xFFFF])
    s = f32(s + table[b >> 48])
    s = f32(s + table[t & 0xFFFF])
    s = f32(s + table[t >> 16 & 0xFFFF])
    s = f32(s + table[t >> 32 & 0xFFFF])
    return f32(s + table[t >> 48])


# --------------------------------------------------------------------------
# The moves
# --------------------------------------------------------------------------

def slide_line(line):
    """A 16-bit line after sliding toward cell 0: equal neighbours merge
    once, the pair nearest the wall first. Two 32768s make a 65536, which a
    cell cannot hold: like tune2048's search, keep 32768."""
    out, can_merge = [], False
    for i in range(4):
        r = line >> (4 * i) & 15
        if r == 0:
            continue
        if can_merge and out[-1] == r:
            out[-1] = min(r + 1, 15)
            can_merge = False  # a merged tile does not merge again
        else:
            out.append(r)
            can_merge = True
    return sum(r << (4 * i) for i, r in enumerate(out))


def reverse_line(line):
    return (line & 0xF) << 12 | (line & 0xF0) << 4 | (line >> 4 & 0xF0) | line >> 12


# Each line after sliding toward cell 0 (LEFT on a row) and toward cell 3
# (RIGHT). UP and DOWN slide the rows of the transposed board.
SLIDE_LEFT = [slide_line(line) for line in range(1 << 16)]
SLIDE_RIGHT = [reverse_line(SLIDE_LEFT[reverse_line(line)]) for line in range(1 << 16)]

# The empty cells (0..3) of each line, in increasing order.
EMPTY_CELLS = [tuple(i for i in range(4) if not line >> (4 * i) & 15)
               for line in range(1 << 16)]


def transpose(b):
    """Cell (r, c) goes to (c, r): swap the off-diagonal cells of every 2x2
    block (3 cells = 12 bits apart), then the top-right and bottom-left 2x2
    blocks (6 cells = 24 bits apart)."""
    b = (b & 0xF0F00F0FF0F00F0F) | (b & 0x0000F0F00000F0F0) << 12 \
        | (b & 0x0F0F00000F0F0000) >> 12
    return (b & 0xFF00FF0000FF00FF) | (b & 0x00000000FF00FF00) << 24 \
        | (b & 0x00FF00FF00000000) >> 24


def slide_rows(b, table):
    return (table[b & 0xFFFF] | table[b >> 16 & 0xFFFF] << 16
            | table[b >> 32 & 0xFFFF] << 32 | table[b >> 48] << 48)


def moves(b):
    """The board after each move U, D, L, R (the same board if illegal)."""
    t = transpose(b)
    return (transpose(slide_rows(t, SLIDE_LEFT)), transpose(slide_rows(t, SLIDE_RIGHT)),
            slide_rows(b, SLIDE_LEFT), slide_rows(b, SLIDE_RIGHT))


# --------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------
#
# Expectimax, every value an f32. A chance node (a board after a move)
# averages over every empty cell and new tile; a max node (a board after a
# new tile) takes its best move; boards at the depth limit, or reached with
# a probability below CUTOFF, are scored by the heuristic.

CUTOFF = f32(1e-4)


class Searcher:
    def __init__(self, weights, depth):
        self.table = build_score_table(weights)
        self.limit = depth

    def decide(self, board, p4):
        """The move to play (UP..RIGHT), or None when no move is legal."""
        self.p4 = f32(p4)
        self.p2 = f32(1.0 - self.p4)
        # A board with no legal move is worth 0, as in the reference: below
        # every live board as long as the lost penalty keeps every score
        # positive. If this search scored a board at or below 0 and also
        # reached a lost board, the lost board might have outranked a live
        # one: search again with a lost value below every score seen.
        values = self.search_root(board, 0.0)
        if self.saw_lost and not self.lowest > 0.0:
            values = self.search_root(board, f32(f32(2.0 * self.lowest) - 1.0))
        # The first legal move, replaced only by a strictly better one.
        best = None
        for d, value in enumerate(values):
            if value is not None and (best is None or value > values[best]):
                best = d
        return best

    def search_root(self, board, lost):
        """Each move's value (None: illegal) with lost boards worth `lost`."""
        self.lost = lost
        self.lowest = math.inf
        self.saw_lost = False
        return [self.chance(nxt, 1.0, 0) if nxt != board else None
                for nxt in moves(board)]

    def leaf(self, b):
        value = score(self.table, b)
        if value < self.lowest:
            self.lowest = value
        return value

    def chance(self, b, cprob, depth):
        """A chance node at `depth` (0: just after the root's move), reached
        with probability `cprob`."""
        if depth >= self.limit or cprob < CUTOFF:
            return self.leaf(b)
        empties = [16 * r + 4 * c for r in range(4) for c in EMPTY_CELLS[b >> 16 * r & 0xFFFF]]
        n = len(empties)  # at least 1: a move always leaves an empty cell
        if n == 0:
            return self.leaf(b)
        cprob = f32(cprob / n)
        p2, p4 = self.p2, self.p4
        total = 0.0
        for shift in empties:  # cell by cell, in increasing index
            value = self.max_node(b | 1 << shift, f32(cprob * p2), depth)
            total = f32(total + f32(p2 * value))
            if p4 > 0.0:
                value = self.max_node(b | 2 << shift, f32(cprob * p4), depth)
                total = f32(total + f32(p4 * value))
        return f32(total / n)

    def max_node(self, b, cprob, depth):
        """A max node: the best of the legal moves, or the lost value."""
        at_horizon = depth + 1 >= self.limit or cprob < CUTOFF
        best, legal = -math.inf, False
        for nxt in moves(b):
            if nxt == b:
                continue
            # At the horizon each child chance node is a leaf: score it here.
            value = self.leaf(nxt) if at_horizon else self.chance(nxt, cprob, depth + 1)
            if value > best:
                best = value
            legal = True
        if not legal:
            self.saw_lost = True
            return self.lost
        return best


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)  # tune2048 went away
