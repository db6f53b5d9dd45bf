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


# one style sheet and one cell shape, referenced by every cell: a drawing of 10,000 cells is mostly coordinates
STYLE = ("<style>text{font-family:monospace;font-size:10px}.h{font-size:14px}"
         + "".join(f".p{i}{{fill:{color}}}" for i, color in enumerate(PALETTE)) + "</style>"
         + f'<defs><rect id="c" width="{CELL}" height="{CELL}" stroke="black" stroke-width="0.5"/></defs>')


def _grid(owners: dict[tuple[int, int], tuple[int, int]], rows: int) -> str:
    """A row at a time: its cells grouped by colour (a <use> of the one cell each), then its T and V labels."""
    by_row: list[list[tuple[int, int, int]]] = [[] for _ in range(rows)]
    for (r, c), (t, v) in owners.items():
        by_row[r].append((c, t, v))
    parts = []
    for r, cells in enumerate(by_row):
        cells.sort()
        by_colour: dict[int, list[str]] = {}
        for c, t, _ in cells:
            by_colour.setdefault(t % len(PALETTE), []).append(f'<use href="#c" x="{c * CELL}"/>')
        fills = "".join(f'<g class="p{k}">{"".join(uses)}</g>' for k, uses in sorted(by_colour.items()))
        threads = "".join(f'<tspan x="{c * CELL + 2}">T{t}</tspan>' for c, t, _ in cells)
        values = "".join(f'<tspan x="{c * CELL + 2}">V{v}</tspan>' for c, _, v in cells)
        parts.append(f'<g transform="translate(0,{r * CELL})">{fills}<text y="14">{threads}</text>'
                     f'<text y="28">{values}</text></g>')
    return "".join(parts)


def tv_svg(atom: Atom, layouts: dict[str, Layout]) -> str:
    parts, y, width = [], 40, 0
    for role in ("A", "B", "C"):
        if role not in layouts:
            continue
        rows, cols = operand_extent(atom, role)
        if rows * cols > 64 * 256:
            continue
        title = {"A": f"A ({rows}x{cols}, M x K)", "B": f"B ({rows}x{cols}, N x K)", "C": f"C/D ({rows}x{cols}, M x N)"}[role]
        parts.append(f'<text class="h" x="10" y="{y - 8}">{escape(title)}: {escape(str(layouts[role]))}</text>')
        parts.append(f'<g transform="translate(10,{y})">{_grid(_owners(layouts[role], rows, cols), rows)}</g>')
        width = max(width, 20 + cols * CELL)
        y += rows * CELL + 50
    header = f'<text class="h" x="10" y="20" style="font-size:16px">{escape(spell(atom))}</text>'
    width = max(width, 20 + 9 * len(spell(atom)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}">' + STYLE
            + "<rect width='100%' height='100%' fill='white'/>" + header + "".join(parts) + "</svg>\n")
