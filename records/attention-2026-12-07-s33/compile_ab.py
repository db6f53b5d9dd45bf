"""Session 33: the attention kernel's compile time, module -> loaded kernel, cold (empty cache) and cached, at the
session's base tree against this tree -- fresh processes, alternating, on the GPU host.

    git archive 4f80a69 | (mkdir -p base_tree && tar -x -C base_tree)      # the base, beside the repo root
    python -P records/attention-2026-12-07-s33/compile_ab.py base_tree 3

Per (tree, head dim, mask): the median over rounds of mmatom-bench attention's compile_times (cold and cached ms).
"""

import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = [(128, False), (128, True), (64, False), (64, True), (256, False)]
PROBE = ("import json, sys; sys.path.insert(0, {root!r}); import mmatom; "
         "from mmatom.tools.mmatom_bench_attention import compile_times; "
         "assert mmatom.__file__.startswith({root!r}), mmatom.__file__; "
         "print(json.dumps(compile_times('bf16', {d}, {causal})))")


def one(tree: Path, d: int, causal: bool) -> dict:
    out = subprocess.run([sys.executable, "-P", "-c", PROBE.format(root=str(tree), d=d, causal=causal)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    base, rounds = Path(sys.argv[1]).resolve(), int(sys.argv[2]) if len(sys.argv) > 2 else 3
    trees = {"base": base, "this": ROOT}
    times = {(t, c): [] for t in trees for c in CASES}
    for _ in range(rounds):
        for case in CASES:
            for name, tree in trees.items():
                times[name, case].append(one(tree, *case))
    for case in CASES:
        line = []
        for name in trees:
            rows = times[name, case]
            cold = statistics.median(r["mmatom_compile_cold_ms"] for r in rows)
            cached = statistics.median(r["mmatom_compile_cached_ms"] for r in rows)
            line.append(f"{name} cold {cold:.0f} ms cached {cached:.2f} ms")
        print(f"d {case[0]}{' causal' if case[1] else ''}: " + "; ".join(line), flush=True)


if __name__ == "__main__":
    main()
