import csv, sys
def load(p):
    return {int(r['games']): r for r in csv.DictReader(open(p))}
a, b = load('C0-progress.csv'), load('C2-progress.csv')
common = sorted(set(a) & set(b))
step = int(sys.argv[1]) if len(sys.argv) > 1 else 10
for i in range(0, len(common), step):
    g = common[i:i+step]
    if len(g) < step: break
    ma = sum(float(a[x]['mean_score']) for x in g)/len(g); mb = sum(float(b[x]['mean_score']) for x in g)/len(g)
    ra = sum(float(a[x]['reach_16384']) for x in g)/len(g); rb = sum(float(b[x]['reach_16384']) for x in g)/len(g)
    xa = sum(float(a[x]['reach_32768']) for x in g)/len(g); xb = sum(float(b[x]['reach_32768']) for x in g)/len(g)
    print(f"{g[0]-1000}-{g[-1]}: C0 {ma:.0f} ({ra:.3f}, {xa:.4f})  C2 {mb:.0f} ({rb:.3f}, {xb:.4f})  C2/C0 {mb/ma:.3f}")
