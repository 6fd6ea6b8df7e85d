#!/usr/bin/env python3
"""The library's import graph: cycles and layer breaks.

Reads src/ (the library; src/cli/ and src/main.rs are the binary), takes each
file as a module, and its `crate::a::b` and `super::x` paths outside test code
as its imports. Prints the import cycles among top-level modules, among the
submodules of each, and one level further down, then every import of a module
from a higher layer (the layers of src/lib.rs and docs/src/design.md).
Usage: scripts/module_layers.py [src]; exit status 1 when it finds any.
"""
import re, os, sys
from collections import defaultdict
root=sys.argv[1] if len(sys.argv)>1 else 'src'
def modpath(p):
    rel=os.path.relpath(p,root)[:-3].split('/')
    if rel[-1] in ('mod','lib'): rel=rel[:-1]
    return tuple(rel)
files={}
for d,_,fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs') and f!='main.rs' and not d.startswith(os.path.join(root,'cli')):
            p=os.path.join(d,f); files[modpath(p)]=p
def strip_tests(text):
    out=[];skip=False;depth=0
    lines=text.split('\n');i=0
    while i<len(lines):
        l=lines[i]
        if l.strip().startswith('#[cfg(test)]'):
            # skip the next item
            j=i+1
            if lines[j].strip().startswith('mod ') and lines[j].rstrip().endswith(';'):
                i=j+1;continue
            d=0;started=False
            while j<len(lines):
                d+=lines[j].count('{')-lines[j].count('}')
                if '{' in lines[j]: started=True
                if started and d<=0: break
                if not started and lines[j].rstrip().endswith(';'): break
                j+=1
            i=j+1;continue
        out.append(l);i+=1
    return '\n'.join(out)
edges=defaultdict(set)
for m,p in files.items():
    if m and m[-1] in ('tests',) or (m and m[-1].endswith('_tests')): continue
    text=strip_tests(open(p).read())
    text=re.sub(r'//.*','',text)
    for a in re.findall(r'crate::(\w+)(?:::(\w+))?',text):
        tgt=(a[0],)+((a[1],) if a[1] and (a[0],a[1]) in files else ())
        edges[m].add(tgt)
    for a in re.findall(r'\bsuper::(\w+)',text):
        base=m[:-1] if os.path.basename(p) not in ('mod.rs',) else m[:-1]
        tgt=base+(a,)
        if tgt in files: edges[m].add(tgt)
# level: top-level modules
def level(m,k): return m[:k]
found = False
for k in (1,2,3):
    g=defaultdict(set)
    for a,bs in edges.items():
        for b in bs:
            A,B=level(a,k),level(b,k)
            if A!=B and A and B and A[0]==B[0] or k==1 and A!=B:
                if k>=2 and A[:k-1]!=B[:k-1]: continue
                g[A].add(B)
    # tarjan
    index={};low={};st=[];on=set();res=[];c=[0]
    sys.setrecursionlimit(10000)
    def sc(v):
        index[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in g.get(v,()):
            if w not in index: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v: break
            if len(comp)>1: res.append(comp)
    for v in list(g): 
        if v not in index: sc(v)
    print('level',k,'cycles:',['  '.join('::'.join(x) for x in comp) for comp in res] or 'none')
    found = found or bool(res)
L={}
for i,ms in enumerate([["seeds","fnv","atomic_file","lock","loader","utc","progress","stats","child","cpu"],["engine","maxtile","place"],["heuristic","network"],["search","adversarial"],["player","selfplay","interact","bank","evaluation","cluster","workers","bench"],["tune"],["export","plot","report"]]):
    for m in ms: L[m]=i+1
bad=set()
for a,bs in edges.items():
    for b in bs:
        if a and b and a[0] in L and b[0] in L and L[b[0]]>L[a[0]]: bad.add((a[0],b[0],'::'.join(a)))
print('layer violations:',sorted(bad) or 'none')

sys.exit(1 if found or bad else 0)
