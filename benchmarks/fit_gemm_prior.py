"""Fit the GEMM prior's cost model to a sweep (benchmarks/gemm_sweep.py's JSON) and say how good its choices are.

The model, per config: time ~ c0 + c1 * waves + c2 * waves * k_steps, where waves = ceil(units / slots) (units: the
cluster-sized groups of output tiles -- of D^T for a swapped-operand config; slots: the SMs / the cluster size) and
k_steps = ceil(K / block_k) -- a fixed cost, a per-tile cost (prologue, epilogue) and a per-K-step cost, all per
wave of tiles over the SMs. Fitted by least squares on relative error, per operand class (16-bit, fp8), for every
config the sweep timed (on the rows that timed it: the swapped-operand configs on M <= 64, `gemm_sweep.py
--swap-ab`). Prints the table for choices.COST_MODEL and judges it as the prior uses it: choices.prior_config under
the table (its memory and host floors, split-K's slices, the narrowest swapped tile, odd row pitches priced), each
pick's time in the sweep against the row's fastest config -- the committed table and the refit on the same rows, and
on held-out halves (refit on one half of three shuffles, both judged on the other): adopt a refit only where it wins
there. A pick the sweep did not time (a split-K config other than the row's prior) is counted as a miss.

    python -P benchmarks/fit_gemm_prior.py records/sweep-2026-11-26-h100/gemm_sweep.json
    python -P benchmarks/fit_gemm_prior.py FULL/gemm_sweep.json SMALL_M/gemm_sweep.json   # merged by shape
    python -P benchmarks/fit_gemm_prior.py records/gemm-2026-12-06-h200-s32/gemm_sweep.json --bandwidth 4.8e6  # an H200

Several files are merged row by row (a shape's timings joined); they must come from one GPU model.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
from pathlib import Path

import numpy as np

from mmatom.kernels.gemm import GemmConfig, choices
from mmatom.kernels.gemm.choices import FULL_SPEED_PITCH_BYTES, model_terms, operand_class
from mmatom.kernels.gemm.config import ELEM_BYTES

H100_DRAM_BYTES_PER_US = 3.35e6  # the floor's bandwidth when judging without a GPU to ask (the prior's on an H100)
H200_DRAM_BYTES_PER_US = 4.8e6
MIN_ROWS = 6  # fewer timed shapes than this leave a config's three terms unfitted
SMS = 132  # the H100 SXM's and the H200's
HELD_OUT_SHUFFLES = 3


def merge(paths: list[Path]) -> list[dict]:
    """The sweeps' rows, one per (dtype, M, N, K), each shape's timings joined; every row from one GPU model."""
    rows: dict[tuple, dict] = {}
    devices = set()
    for path in paths:
        for row in json.loads(Path(path).read_text()):
            key = (row["dtype"], row["m"], row["n"], row["k"])
            found = rows.setdefault(key, {**row, "times_us": {}})
            found["times_us"].update(row["times_us"])
            devices.add(row.get("device"))
    if len(devices) > 1:
        raise SystemExit(f"fit_gemm_prior: the sweeps come from {sorted(map(str, devices))}; fit one GPU's at a time")
    return list(rows.values())


def fit(rows: list[dict]) -> dict[str, tuple[float, float, float]]:
    """Each timed config's (c0, c1, c2), on the rows that timed it (configs with fewer than MIN_ROWS left out)."""
    names = dict.fromkeys(name for r in rows for name in r["times_us"] if name != "cublas")
    table = {}
    for name in names:
        config, timed = GemmConfig.from_name(name), [r for r in rows if name in r["times_us"]]
        if len(timed) < MIN_ROWS or config.split_k:  # split-K is priced by its base config's terms (choices.py)
            continue
        terms = [model_terms(config, r["m"], r["n"], r["k"], r["dtype"], 132) for r in timed]
        times = [r["times_us"][name] for r in timed]
        a = np.array([[1.0, w, w * s] for w, s in terms]) / np.array(times)[:, None]
        table[name] = tuple(float(x) for x in np.linalg.lstsq(a, np.ones(len(timed)), rcond=None)[0])
    return table


@contextlib.contextmanager
def _prior_under(table: dict):
    """choices.prior_config as it would choose with `table` (per operand class) as COST_MODEL."""
    committed = choices.COST_MODEL
    choices.COST_MODEL = table
    choices.forget()  # the prior's pools are priced from COST_MODEL once
    try:
        yield
    finally:
        choices.COST_MODEL = committed
        choices.forget()


def odd_rows(row: dict) -> tuple[bool, bool]:
    """A's and B's rows an odd multiple of 16 bytes apart in the sweep's contiguous operands (host.odd_pitch: not
    rows TMA cannot address, which are copied or realigned, and not a single row)."""
    pitch = row["k"] * ELEM_BYTES[row["dtype"].split("x")[0]]
    odd = pitch % 16 == 0 and pitch % FULL_SPEED_PITCH_BYTES != 0
    return odd and row["m"] > 1, odd and row["n"] > 1


def picks(table: dict, rows: list[dict], bandwidth: float) -> list[str]:
    """The prior's choice for each row under `table` (a whole COST_MODEL: both classes)."""
    with _prior_under(table):
        return [choices.prior_config(r["m"], r["n"], r["k"], r["dtype"], sms=SMS, bandwidth=bandwidth,
                                     odd_rows=odd_rows(r)).name for r in rows]


def pick_ratios(table: dict, rows: list[dict], bandwidth: float) -> tuple[list[float], int]:
    """Each timed pick's time over its row's fastest timed config, under `table`; and how many picks the sweep did
    not time."""
    ratios, untimed = [], 0
    for r, name in zip(rows, picks(table, rows, bandwidth)):
        if name not in r["times_us"]:
            untimed += 1
            continue
        ratios.append(r["times_us"][name] / min(t for k, t in r["times_us"].items() if k != "cublas"))
    return ratios, untimed


def judge(table: dict, rows: list[dict], bandwidth: float) -> str:
    """How far the prior's picks under `table` are from each row's fastest timed config."""
    ratios, untimed = pick_ratios(table, rows, bandwidth)
    if not ratios:
        return f"no pick timed ({untimed} untimed)"
    ratios.sort()
    within = sum(x <= 1.05 for x in ratios)  # out of every row: two tables' counts compare on one denominator
    return (f"geomean {statistics.geometric_mean(ratios):.4f}, median {statistics.median(ratios):.3f}, "
            f"p90 {ratios[int(0.9 * len(ratios))]:.3f}, max {ratios[-1]:.3f} (timed picks); within 5% of the fastest "
            f"on {within}/{len(rows)}" + (f" ({untimed} picks untimed, counted as misses)" if untimed else ""))


def refit(committed: dict, cls: str, rows: list[dict]) -> dict:
    """`committed` with class `cls`'s terms refitted on `rows` (configs they do not time keep theirs)."""
    return {**committed, cls: {**committed.get(cls, {}), **fit(rows)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweeps", nargs="+", type=Path, help="gemm_sweep.py JSON files, merged by shape")
    parser.add_argument("--bandwidth", type=float, default=H100_DRAM_BYTES_PER_US,
                        help="DRAM bytes/us for the prior's memory floor when judging (default: an H100's)")
    args = parser.parse_args()
    rows, committed = merge(args.sweeps), choices.COST_MODEL
    for cls in ("16-bit", "fp8"):
        sample = [r for r in rows if operand_class(r["dtype"]) == cls]
        if not sample:
            continue
        table = refit(committed, cls, sample)
        print(f"# {cls}, {len(sample)} rows: committed {judge(committed, sample, args.bandwidth)}")
        print(f"# {cls}: refit in-sample {judge(table, sample, args.bandwidth)}")
        for seed in range(HELD_OUT_SHUFFLES):
            order = list(range(len(sample)))
            random.Random(seed).shuffle(order)
            train, held = [sample[i] for i in order[::2]], [sample[i] for i in order[1::2]]
            print(f"# {cls}: held-out half {seed}: refit {judge(refit(committed, cls, train), held, args.bandwidth)}"
                  f" | committed {judge(committed, held, args.bandwidth)}")
        print(f'"{cls}": {{' + ", ".join(f'"{n}": ({a:.3f}, {b:.3f}, {c:.4f})' for n, (a, b, c) in table[cls].items())
              + "},")


if __name__ == "__main__":
    main()
