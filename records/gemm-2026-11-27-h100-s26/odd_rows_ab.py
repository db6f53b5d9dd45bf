"""Session 26's A/B of odd-K rows (both trees on one machine, alternating processes): mmatom.gemm, untuned, against
the vendor, interleaved; one JSON line a row. `--sweep gemm_bench_sweep.json` takes the sweep's rows whose K is not
a 16-byte multiple (odd_{base,new}_{1,2}.jsonl: rounds 3, reps 10); without it the few rows below (rows_*.jsonl:
rounds 7, reps 30). Run with PYTHONPATH at each tree."""
import argparse, json, torch, mmatom  # noqa: E401
from mmatom.tools.mmatom_bench import Operands
from mmatom.tools.mmatom_bench_common import interleaved_us

ROWS = [("e4m3", 3, 6596, 10359), ("e4m3", 134, 381, 5981), ("bf16", 206, 2391, 10533), ("e4m3", 31, 9627, 289),
        ("e4m3", 2, 10792, 823), ("bf16", 9, 4090, 23434), ("e4m3", 108, 451, 10937), ("e4m3", 80, 8977, 623),
        ("e4m3", 9, 4090, 23434)]
p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--sweep")
args = p.parse_args()
if args.sweep:
    sweep = json.load(open(args.sweep))["rows"]
    rows = [(r["dtype"], r["m"], r["n"], r["k"]) for r in sweep if (r["k"] * (1 if r["dtype"] == "e4m3" else 2)) % 16]
    rounds, reps = 3, 10
else:
    rows, rounds, reps = ROWS, 7, 30
with open(args.out, "w") as out:
    for dt, m, n, k in rows:
        calls = {"ours": Operands.random(m, n, k, dt).mmatom_call(mmatom.gemm),
                 "vendor": Operands.random(m, n, k, dt).vendor_calls()["cublas"]}
        us = interleaved_us(calls, rounds=rounds, reps=reps)
        out.write(json.dumps({"dtype": dt, "m": m, "n": n, "k": k, **us}) + "\n")
        out.flush()
