#!/usr/bin/env python3
"""Does a bank fitness rank weight vectors as whole games do?

Plays 20 weight vectors (the shipped sets and 16 perturbations of
configs/weights/default.ron) twice on one thread each: whole games, and
games started from a bank stage's positions (`eval --bank`). Reports the
Spearman rank correlation of each bank fitness (mean score gained from the
position; share of games reaching the next tile) with the whole-game mean
score, a 95% bootstrap interval over games, and, as the noise ceiling, the
correlation between the two halves of the whole games.

Usage: scripts/bank_correlation.py --bank FILE --stage 8192 --depth 2 \\
           --whole-games 400 --bank-games 400 --out DIR
Per-game CSVs go to DIR; a rerun reuses those present. Standard library only.
"""

import argparse
import csv
import os
import random
import re
import resource
import subprocess

BIN = os.environ.get("BIN", "target/release/tune2048")
BASE = "configs/weights/default.ron"
SHIPPED = ["nneonneo", "classic-d1", "classic-d2", "twos-d1"]
# (name, field, how): a number multiplies the field, "=v" sets it.
PERTURB = [
    ("empty-x0.5", ["empty"], 0.5), ("empty-x2", ["empty"], 2.0),
    ("merges-0", ["merges"], 0.0), ("merges-x2", ["merges"], 2.0),
    ("mono-x0.5", ["monotonicity"], 0.5), ("mono-x2", ["monotonicity"], 2.0),
    ("monopow-2.5", ["monotonicity_power"], "=2.5"),
    ("monopow-3.5", ["monotonicity_power"], "=3.5"),
    ("sum-x0.5", ["sum"], 0.5), ("sum-x2", ["sum"], 2.0),
    ("sumpow-2.5", ["sum_power"], "=2.5"), ("sumpow-3.5", ["sum_power"], "=3.5"),
    ("smooth-0", ["smoothness"], 0.0), ("smooth-x3", ["smoothness"], 3.0),
    ("edges-0", ["edge", "corner"], 0.0), ("lost-x0.3", ["lost_penalty"], 0.3),
]


def weight_files(out):
    """Every vector's weights file, written under out/weights."""
    os.makedirs(f"{out}/weights", exist_ok=True)
    files = {n: f"configs/weights/{n}.ron" for n in SHIPPED}
    base = open(BASE).read()
    for name, fields, how in PERTURB:
        text = base
        for field in fields:
            pat = re.compile(rf"^(\s*{field}:\s*)([-0-9.e]+),", re.M)
            old = float(pat.search(text).group(2))
            new = float(how[1:]) if isinstance(how, str) else old * how
            text = pat.sub(lambda m: f"{m.group(1)}{new!r},", text, count=1)
        path = f"{out}/weights/{name}.ron"
        with open(path, "w") as f:
            f.write(text)
        files[name] = path
    return files


def cpu_seconds():
    """CPU seconds (user + system) of the finished child processes: unlike
    wall time, not inflated by other work sharing the machine."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def play(args, weights, games, csv_path, bank):
    """Per-game (score, max_tile) rows, played unless csv_path exists; and CPU seconds."""
    if not os.path.exists(csv_path):
        cmd = [BIN, "eval", "--weights", weights, "--depth", str(args.depth),
               "--games", str(games), "--seed", str(args.seed), "--threads", "1",
               "--csv", csv_path]
        if bank:
            cmd += ["--bank", args.bank, "--bank-stage", args.stage]
        before = cpu_seconds()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(csv_path + ".seconds", "w") as f:
            f.write(f"{cpu_seconds() - before:.2f}\n")
    rows = [(int(r["score"]), int(r["max_tile"])) for r in csv.DictReader(open(csv_path))]
    seconds = float(open(csv_path + ".seconds").read())
    return rows, seconds


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va and vb else 0.0


def fitnesses(whole, bank, next_tile, wi, bi):
    """Per vector: whole mean score, bank mean score, bank reach-next share, on games wi, bi."""
    w = [sum(g[i][0] for i in wi) / len(wi) for g in whole]
    s = [sum(g[i][0] for i in bi) / len(bi) for g in bank]
    r = [sum(g[i][1] >= next_tile for i in bi) / len(bi) for g in bank]
    return w, s, r


def bootstrap(whole, bank, next_tile, n=2000):
    """95% percentile intervals of both correlations, resampling games (paired across vectors)."""
    rng = random.Random(7)
    nw, nb = len(whole[0]), len(bank[0])
    gains, reaches = [], []
    for _ in range(n):
        wi = [rng.randrange(nw) for _ in range(nw)]
        bi = [rng.randrange(nb) for _ in range(nb)]
        w, s, r = fitnesses(whole, bank, next_tile, wi, bi)
        gains.append(spearman(s, w))
        reaches.append(spearman(r, w))
    ci = lambda xs: (sorted(xs)[int(0.025 * n)], sorted(xs)[int(0.975 * n) - 1])
    return ci(gains), ci(reaches)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bank", required=True)
    p.add_argument("--stage", required=True)
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--whole-games", type=int, default=400)
    p.add_argument("--bank-games", type=int, default=400)
    p.add_argument("--seed", type=int, default=2002)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    files = weight_files(args.out)
    names = list(files)
    whole, bank, tw, tb = [], [], 0.0, 0.0
    for n in names:
        rows, t = play(args, files[n], args.whole_games, f"{args.out}/whole-{n}.csv", False)
        whole.append(rows)
        tw += t
        rows, t = play(args, files[n], args.bank_games, f"{args.out}/bank-{n}.csv", True)
        bank.append(rows)
        tb += t
    next_tile = 2 * int(args.stage)
    nw, nb = len(whole[0]), len(bank[0])
    w, s, r = fitnesses(whole, bank, next_tile, range(nw), range(nb))
    print(f"{'vector':<14} {'whole mean':>11} {'bank mean':>10} {'reach ' + str(next_tile):>11}")
    for i in sorted(range(len(names)), key=lambda i: -w[i]):
        print(f"{names[i]:<14} {w[i]:>11.0f} {s[i]:>10.0f} {r[i]:>11.3f}")
    (g_lo, g_hi), (r_lo, r_hi) = bootstrap(whole, bank, next_tile)
    half = nw // 2
    wa, _, _ = fitnesses(whole, bank, next_tile, range(half), range(nb))
    wb, _, _ = fitnesses(whole, bank, next_tile, range(half, nw), range(nb))
    print(f"depth {args.depth}; {len(names)} vectors; {nw} whole games and {nb} bank games "
          f"(stage {args.stage}) each; one thread")
    print(f"CPU seconds: whole {tw:.0f} ({tw / nw / len(names):.3f}/game), "
          f"bank {tb:.0f} ({tb / nb / len(names):.3f}/game)")
    print(f"spearman(bank mean gain, whole mean score) = {spearman(s, w):.3f} "
          f"(95% bootstrap {g_lo:.3f}..{g_hi:.3f})")
    print(f"spearman(bank reach {next_tile}, whole mean score) = {spearman(r, w):.3f} "
          f"(95% bootstrap {r_lo:.3f}..{r_hi:.3f})")
    print(f"noise ceiling: spearman(whole games 1-{half}, whole games {half + 1}-{nw}) = "
          f"{spearman(wa, wb):.3f}")


if __name__ == "__main__":
    main()
