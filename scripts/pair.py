#!/usr/bin/env python3
"""Pairs two per-game CSVs (`eval --csv` / `compare --csv`, same seeds) by game
seed: mean scores, ratio, the paired difference with its 95% interval (t quantile), wins
and the two-sided p of the paired t-test (Student's t with n - 1 degrees of
freedom, as `compare` computes it: on the 400-game depth-3 comparison both
give 2.729e-4).
Pairs another column with --column, e.g. `max_tile` for two `judge --csv` files.
With --reach T it also counts the games whose column reached T on each side and
gives McNemar's exact two-sided p on the pairs where only one side reached it.
Usage: scripts/pair.py [--column NAME] [--reach T] BASE.csv OTHER.csv"""
import csv, math, sys

def betacf(a, b, x):
    """Continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h

def betainc(a, b, x):
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0 or x >= 1.0:
        return max(0.0, min(1.0, x))
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
          + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(ln) * betacf(a, b, x) / a
    return 1.0 - math.exp(ln) * betacf(b, a, 1.0 - x) / b

def t_two_sided(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    return betainc(df / 2.0, 0.5, df / (df + t * t))

def t_quantile_975(df):
    """The t with P(|T| >= t) = 0.05, by bisection."""
    lo, hi = 0.0, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_two_sided(mid, df) > 0.05 else (lo, mid)
    return (lo + hi) / 2

def values(path, column):
    rows = list(csv.DictReader(open(path)))
    return {int(r["seed"]): int(r[column]) for r in rows}

def binomial_two_sided(k, n):
    """P of a count as far from n/2 as k or farther, for Binomial(n, 1/2)."""
    if n == 0:
        return 1.0
    # Integers throughout: 2.0 ** n overflows a float from n = 1024 discordant pairs.
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1)) / 2 ** n
    return min(1.0, 2.0 * tail)

args = sys.argv[1:]
column, reach = "score", None
while args[:1] in (["--column"], ["--reach"]) and len(args) > 1:
    if args[0] == "--column":
        column = args[1]
    else:
        reach = int(args[1])
    args = args[2:]
if len(args) != 2:
    sys.exit(__doc__.splitlines()[-1])
a = values(args[0], column)
b = values(args[1], column)
seeds = sorted(set(a) & set(b))
assert len(seeds) == len(a) == len(b), "the files must hold the same seeds"
d = [b[s] - a[s] for s in seeds]
n = len(d)
mean = sum(d) / n
sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
se = sd / math.sqrt(n)
p = t_two_sided(mean / se, n - 1) if se > 0 else (1.0 if mean == 0 else 0.0)
half = t_quantile_975(n - 1) * se
ma = sum(a[s] for s in seeds) / n
mb = sum(b[s] for s in seeds) / n
wins = sum(x > 0 for x in d)
losses = sum(x < 0 for x in d)
print(f"{n} paired games: base {ma:.0f}, other {mb:.0f}, ratio {mb / ma:.3f}, "
      f"diff {mean:+.0f} (95% CI {mean - half:+.0f}..{mean + half:+.0f}), "
      f"p = {p:.4g}, other higher in {wins} and lower in {losses} of {n}")
if reach is not None:
    ra = sum(a[s] >= reach for s in seeds)
    rb = sum(b[s] >= reach for s in seeds)
    only_a = sum(a[s] >= reach > b[s] for s in seeds)
    only_b = sum(b[s] >= reach > a[s] for s in seeds)
    share = f"{rb / ra:.2f}x" if ra else "undefined (base 0)"
    print(f"reached {reach}: base {ra} of {n} ({100 * ra / n:.1f}%), other {rb} of {n} "
          f"({100 * rb / n:.1f}%), {share}; only base {only_a}, only other {only_b}, "
          f"McNemar exact p = {binomial_two_sided(only_b, only_a + only_b):.4g}")
