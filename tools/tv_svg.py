"""Draw TV layouts as SVG, like CuTe's print_svg: one grid per operand, each element labelled with
the thread and value that own it, colored by thread."""

from __future__ import annotations

from html import escape

import numpy as np

from mmatom.layout import Layout, flatten
from mmatom.atoms.catalogue import Atom, spell
from mmatom.atoms.catalogue.fragments import operand_extent

CELL = 34
PALETTE = ["#e6f2ff", "#ffe6e6", "#e6ffe6", "#fff5cc", "#f0e6ff", "#ccf2f2", "#ffe0cc", "#e0e0e0"]


def _owners(layout: Layout, rows: int, cols: int) -> dict[tuple[int, int], tuple[int, int]]:
    """(row, col) -> the first (thread, value) that owns it, values outer and threads inner, as CuTe draws it.
    Evaluated with numpy over the flattened modes: a large atom has millions of (t, v) pairs."""
    n_thr = Layout(layout.shape[0]).size() if isinstance(layout.shape, tuple) else 1  # type: ignore[arg-type]
    offsets = np.zeros(1, dtype=np.int64)
    for extent, stride in zip(flatten(layout.shape), flatten(layout.stride)):  # colexicographic: first mode fastest
        offsets = (np.arange(extent, dtype=np.int64)[:, None] * stride + offsets[None, :]).reshape(-1)
    cells, first = np.unique(offsets, return_index=True)  # i = t + n_thr * v, so the smallest i comes first
    order = np.argsort(first, kind="stable")  # cells in the order they are first met (the drawing order)
    return {(int(c % rows), int(c // rows)): (int(i % n_thr), int(i // n_thr))
            for c, i in zip(cells[order], first[order])}


def tv_svg(atom: Atom, layouts: dict[str, Layout]) -> str:
    parts, y, width = [], 40, 0
    for role in ("A", "B", "C"):
        if role not in layouts:
            continue
        rows, cols = operand_extent(atom, role)
        if rows * cols > 64 * 256:
            continue
        owners = _owners(layouts[role], rows, cols)
        title = {"A": f"A ({rows}x{cols}, M x K)", "B": f"B ({rows}x{cols}, N x K)", "C": f"C/D ({rows}x{cols}, M x N)"}[role]
        parts.append(f'<text x="10" y="{y - 8}" font-size="14" font-family="monospace">{escape(title)}: {escape(str(layouts[role]))}</text>')
        for (r, c), (t, v) in owners.items():
            x0, y0 = 10 + c * CELL, y + r * CELL
            parts.append(f'<rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="{PALETTE[t % len(PALETTE)]}" stroke="black" stroke-width="0.5"/>')
            parts.append(f'<text x="{x0 + 2}" y="{y0 + 14}" font-size="10" font-family="monospace">T{t}</text>')
            parts.append(f'<text x="{x0 + 2}" y="{y0 + 28}" font-size="10" font-family="monospace">V{v}</text>')
        width = max(width, 20 + cols * CELL)
        y += rows * CELL + 50
    header = f'<text x="10" y="20" font-size="16" font-family="monospace">{escape(spell(atom))}</text>'
    width = max(width, 20 + 9 * len(spell(atom)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}">'
            + "<rect width='100%' height='100%' fill='white'/>" + header + "".join(parts) + "</svg>\n")
