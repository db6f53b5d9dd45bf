"""Row-by-row A/B of two `mmatom-bench gemm --shapes sweep` JSONs from one device call (base first): for the rows
whose untuned pick changed and for the rest, the geomean of base / new mmatom time and of the vendor's drift.

    python records/gemm-2026-11-27-h100-s27/ab_rows.py bench_sweep_base_25b521d.json bench_sweep_narrow.json
"""
import json, statistics, sys
b=json.load(open(sys.argv[1]))['rows']; n=json.load(open(sys.argv[2]))['rows']
key=lambda r:(r['dtype'],r['m'],r['n'],r['k'])
B={key(r):r for r in b}; N={key(r):r for r in n}
for dt in ('bf16','e4m3'):
    ch=[]; same=[]
    for k,r in N.items():
        if k[0]!=dt: continue
        o=B[k]
        x=(o['mmatom_us']/r['mmatom_us'], o['cublas_us']/r['cublas_us'], o['ratio_untuned'], r['ratio_untuned'], o['prior'], r['prior'], k)
        (ch if o['prior']!=r['prior'] else same).append(x)
    g=lambda xs,i: statistics.geometric_mean([x[i] for x in xs]) if xs else float('nan')
    print(dt, 'changed', len(ch), 'speedup geomean', round(g(ch,0),4), 'vendor drift', round(g(ch,1),4), '| unchanged', len(same), 'speedup', round(g(same,0),4), 'vendor', round(g(same,1),4))
    for x in sorted(ch, key=lambda x:x[0]):
        print('  ', x[6][1:], x[4], '->', x[5], 'ours base/new %.3f'%x[0], 'ratio %.3f -> %.3f'%(x[2],x[3]))
