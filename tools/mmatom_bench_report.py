"""What the GEMM bench says of a set of rows: per dtype and column (untuned, autotuned), the geomean of mmatom's
speed over cuBLAS's, the shapes below FLOOR, the worst shape -- and the plot of those ratios against the problem's
FLOPs. Pure Python (matplotlib for the plot when installed): tested on the CPU with made-up timings."""

from __future__ import annotations

import statistics
from pathlib import Path

FLOOR = 0.90  # issue 24's bar: no shape below 0.90x cuBLAS
COLUMNS = {"untuned": "ratio_untuned", "autotuned": "ratio_tuned"}  # summary name -> the rows' ratio key


def shape_label(row: dict) -> str:
    return f"{row['m']}x{row['n']}x{row['k']}"


def ratio_summary(rows: list[dict], key: str, floor: float = FLOOR) -> dict | None:
    """Over the rows that have `key` (mmatom's speed / cuBLAS's): count, geomean, the shapes below `floor`
    (slowest first), the worst shape; None when no row has it."""
    timed = [r for r in rows if r.get(key) is not None]
    if not timed:
        return None
    below = sorted((r for r in timed if r[key] < floor), key=lambda r: r[key])
    worst = min(timed, key=lambda r: r[key])
    return {"count": len(timed), "geomean": statistics.geometric_mean(r[key] for r in timed),
            "below_floor": [{"shape": shape_label(r), "ratio": r[key]} for r in below],
            "worst": {"shape": shape_label(worst), "ratio": worst[key], "config": worst.get(_config_key(key))}}


def _config_key(ratio_key: str) -> str:
    return "tuned" if ratio_key == "ratio_tuned" else "prior"


def summarize(rows: list[dict], floor: float = FLOOR) -> dict[str, dict[str, dict]]:
    """{dtype: {"untuned": ratio_summary, "autotuned": ...}} for the dtypes in `rows`, in their order; a column no
    row has is left out."""
    out: dict[str, dict[str, dict]] = {}
    for dtype in dict.fromkeys(r["dtype"] for r in rows):
        of_dtype = [r for r in rows if r["dtype"] == dtype]
        columns = {name: ratio_summary(of_dtype, key, floor) for name, key in COLUMNS.items()}
        out[dtype] = {name: s for name, s in columns.items() if s is not None}
    return out


def summary_lines(summary: dict[str, dict[str, dict]], floor: float = FLOOR, listed: int = 12) -> list[str]:
    """The summary as printed: a line per dtype and column, then the shapes below the floor (the `listed` slowest;
    the JSON has all of them)."""
    lines = []
    for dtype, columns in summary.items():
        for name, s in columns.items():
            worst = s["worst"]
            lines.append(f"{dtype} {name}: geomean {s['geomean']:.3f}x cuBLAS over {s['count']} shapes; "
                         f"{len(s['below_floor'])} below {floor:.2f}x; worst {worst['shape']} {worst['ratio']:.3f}x "
                         f"({worst['config']})")
            if s["below_floor"]:
                shown = ", ".join(f"{b['shape']} {b['ratio']:.3f}" for b in s["below_floor"][:listed])
                more = len(s["below_floor"]) - listed
                lines.append(f"  below {floor:.2f}x: {shown}" + (f" (+{more} more)" if more > 0 else ""))
    return lines


def plot_ratios(record: dict, path: Path, floor: float = FLOOR) -> bool:
    """Ratio to cuBLAS against the problem's FLOPs (log), a marker per row and column, a colour per dtype; False
    when matplotlib is not installed (the JSON has every figure)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = record["rows"]
    fig, ax = plt.subplots(figsize=(10, 5.5))
    colours = dict(zip(dict.fromkeys(r["dtype"] for r in rows), ("tab:blue", "tab:orange", "tab:green", "tab:red")))
    for dtype, colour in colours.items():
        for name, key in COLUMNS.items():
            pts = [(2.0 * r["m"] * r["n"] * r["k"], r[key]) for r in rows if r["dtype"] == dtype and r.get(key)]
            if pts:
                ax.scatter(*zip(*pts), s=18, color=colour, marker="o" if name == "untuned" else "x",
                           label=f"{dtype} {name}", alpha=0.8)
    ax.axhline(1.0, color="black", lw=0.8)
    ax.axhline(floor, color="red", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("FLOPs (2 M N K)")
    ax.set_ylabel("mmatom / cuBLAS (speed)")
    timing = record.get("timing", {})
    ax.set_title(f"GEMM {record.get('set', '')} on {record.get('device', '?')} ({record.get('date', '')}; medians of "
                 f"{timing.get('repeats', '?')} bursts of ~{timing.get('burst_ms', '?')} ms)", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


__all__ = ["FLOOR", "plot_ratios", "ratio_summary", "shape_label", "summarize", "summary_lines"]
