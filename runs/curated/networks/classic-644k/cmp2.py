import csv, sys
# Compares two learning runs' progress rows paired by game (same seeds):
# python3 cmp2.py C2 C2a [window] reads C2-progress.csv and C2a-progress.csv here.
def load(p):
    return {int(r['games']): r for r in csv.DictReader(open(p + '-progress.csv'))}
A, B = sys.argv[1], sys.argv[2]
a, b = load(A), load(B)
common = sorted(set(a) & set(b))
step = int(sys.argv[3]) if len(sys.argv) > 3 else 10
def m(d, g, k): return sum(float(d[x][k]) for x in g) / len(g)
for i in range(0, len(common), step):
    g = common[i:i+step]
    if len(g) < step: break
    ma, mb = m(a, g, 'mean_score'), m(b, g, 'mean_score')
    print(f"{g[0]-1000}-{g[-1]}: {A} {ma:.0f} (16384 {m(a,g,'reach_16384'):.3f}, 32768 {m(a,g,'reach_32768'):.4f}, best {max(int(a[x]['max_score']) for x in g)})  "
          f"{B} {mb:.0f} (16384 {m(b,g,'reach_16384'):.3f}, 32768 {m(b,g,'reach_32768'):.4f}, best {max(int(b[x]['max_score']) for x in g)})  {B}/{A} {mb/ma:.3f}")
