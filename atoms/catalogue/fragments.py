"""Canonical thread-value (TV) layouts of every atom's operands, in CuTe's convention.

A TV layout maps (thread, value) to a linear index of the operand tile: `m + M*k` for A (M x K),
`n + N*k` for B (B seen as N x K), `m + M*n` for C/D. The layouts are built from the ISA's fragment
rules (`../shared/reference/ptx-fragments.md` sections 1 and 3): with P elements per 32-bit register,

  m16n8 A: register r holds row g + 8*(r & 1), columns P*t + [0, P) + 4P*(r >> 1)
  m16n8/m8n8 B: register r holds column g, rows P*t + [0, P) + 4P*r
  m16n8 C: c_i at row g + 8*(i >> 1), column 2t + (i & 1)

(g = lane / 4, t = lane % 4; the warpgroup forms add 16 rows per warp). Each builder reads the
strides off these rules and then checks the layout against the rule for every (thread, value) pair,
so a layout that disagrees with its rule cannot be constructed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from mmatom.layout import Layout, composition, parse_layout
from mmatom.layout.int_tuple import crd2idx, idx2crd

from .elements import container_bits
from .model import Atom

ElementOf = Callable[[int, int], tuple[int, int]]  # (thread, value) -> (row, col) in the PTX view


class FragmentError(AssertionError):
    pass


def _strip_unit_modes(shape: tuple, stride: tuple) -> tuple:
    kept = [(s, d) for s, d in zip(shape, stride) if s != 1]
    if not kept:
        return 1, 0
    if len(kept) == 1:
        return kept[0]
    return tuple(s for s, _ in kept), tuple(d for _, d in kept)


def _fit(thr_shape: tuple, val_shape: tuple, element: ElementOf, rows: int, index: Callable[[int, int], int]) -> Layout:
    """Read strides off `element` at unit steps of each mode, then check every (thread, value)."""

    def offset(t: int, v: int) -> int:
        return index(*element(t, v))

    def unit_strides(shape: tuple, at: Callable[[int], int]) -> tuple:
        strides, step = [], 1
        for s in shape:
            strides.append(at(step) - at(0) if s > 1 else 0)
            step *= s
        return tuple(strides)

    thr_stride = unit_strides(thr_shape, lambda t: offset(t, 0))
    val_stride = unit_strides(val_shape, lambda v: offset(0, v))
    vs, vd = _strip_unit_modes(val_shape, val_stride)
    if vs == 1 and len(val_shape) == 1:
        vs, vd = 1, 0
    ts, td = _strip_unit_modes(thr_shape, thr_stride)
    layout = Layout((ts, vs), (td, vd))
    n_thr = 1
    for s in thr_shape:
        n_thr *= s
    n_val = 1
    for s in val_shape:
        n_val *= s
    table = layout.offsets()  # (t, v) at t + n_thr * v
    if _rule_gives_everywhere(table, n_thr, n_val, offset):
        return layout
    for t in range(n_thr):  # the rule disagrees somewhere (or takes no arrays): the first pair that disagrees
        for v in range(n_val):
            if table[t + n_thr * v] != offset(t, v):
                raise FragmentError(f"layout {layout} disagrees with the fragment rule at thread {t}, value {v}")
    return layout


def _rule_gives_everywhere(table: list[int], n_thr: int, n_val: int, offset: Callable[[int, int], int]) -> bool:
    """Whether `offset` (a fragment rule) is `table`'s offset at every (thread, value) -- the rule evaluated once, on
    arrays of every thread and value: it is integer arithmetic, which numpy does elementwise with Python's floor
    semantics, where the pair-by-pair loop costs ~40 ms on a 256-thread x 64-value wgmma accumulator. False where it
    disagrees, and where the rule does not take arrays (any error): the loop then decides, as it always did."""
    threads, values = np.arange(n_thr).reshape(n_thr, 1), np.arange(n_val).reshape(1, n_val)
    try:
        rule = np.broadcast_to(offset(threads, values), (n_thr, n_val))
    except Exception:  # noqa: BLE001 - whatever the rule cannot do on arrays, the loop does pair by pair
        return False
    return bool(np.array_equal(rule, np.asarray(table).reshape(n_val, n_thr).T))


def _packing(elem: str, kind: str | None) -> int:
    return max(1, 32 // container_bits(elem, kind)) if elem != "f64" else 1


def _a_m16n8(m: int, k: int, p: int, warps: int = 1) -> Layout:
    regs = (m * k // (32 * warps)) // p
    def element(thr: int, v: int) -> tuple[int, int]:
        lane, w = thr % 32, thr // 32
        g, t = lane // 4, lane % 4
        r, e = v // p, v % p
        return 16 * w + g + 8 * (r & 1), p * t + e + 4 * p * (r >> 1)
    thr = (4, 8, warps) if warps > 1 else (4, 8)
    vals = (p, 2, regs // 2) if regs >= 2 else (p,)
    return _fit(thr, vals, element, m, lambda row, col: row + m * col)


def _b_n8(n: int, k: int, p: int) -> Layout:
    regs = (k * n // 32) // p
    def element(thr: int, v: int) -> tuple[int, int]:
        g, t = thr // 4, thr % 4
        r, e = v // p, v % p
        return p * t + e + 4 * p * r, g  # (k, n)
    return _fit((4, 8), (p, regs), element, k, lambda kk, nn: nn + n * kk)


def _a_m8(k: int, p: int) -> Layout:
    def element(thr: int, v: int) -> tuple[int, int]:
        return thr // 4, p * (thr % 4) + v
    return _fit((4, 8), (p,), element, 8, lambda row, col: row + 8 * col)


def _c_m16n8(warps: int = 1, n: int = 8, repeats: int = 1) -> Layout:
    m = 16 * warps * repeats
    def element(thr: int, v: int) -> tuple[int, int]:
        lane, w = thr % 32, thr // 32
        g, t = lane // 4, lane % 4
        i, v = divmod(v, n // 2) if repeats > 1 else (0, v)  # the M repeat: 16 * warps rows further down
        return 16 * warps * i + 16 * w + g + 8 * ((v >> 1) & 1), 8 * (v >> 2) + 2 * t + (v & 1)
    thr = (4, 8, warps) if warps > 1 else (4, 8)
    vals = (2, 2, n // 8) if warps > 1 else (2, 2)
    if repeats > 1:
        vals += (repeats,)
    return _fit(thr, vals, element, m, lambda row, col: row + m * col)


@lru_cache(maxsize=64)
def wgmma_accumulator_layout(m: int, n: int, warpgroups: int | None = None) -> Layout:
    """The C/D TV layout of an M x N wgmma tile over `warpgroups` warpgroups (default M/64): warp w owns rows
    16w..16w+15 of each 64 * warpgroups rows, and a warpgroup covering more than 64 rows repeats its atom
    down M, the repeat after the atom's values (CuTe's order: warpgroup w's rows are 64w + 64 * warpgroups * i
    for repeat i)."""
    warpgroups = warpgroups or m // 64
    if warpgroups < 1 or m % (64 * warpgroups):
        raise FragmentError(f"a wgmma tile has M = 64 x warpgroups x repeats, not M={m} over {warpgroups} "
                            f"warpgroup(s)")
    return _c_m16n8(warps=4 * warpgroups, n=n, repeats=m // (64 * warpgroups))


@lru_cache(maxsize=64)
def wgmma_register_a_layout(elem: str, atom_k: int, m: int, k: int, warpgroups: int) -> Layout:
    """The A TV layout of an M x K RS wgmma tile (A in registers, `elem` with `atom_k` per atom) over `warpgroups`
    warpgroups: each 64-row block is the atom's A fragment (ISA 9.7.15.5.1: warp w rows 16w.., registers
    (row g / g+8) x (k 0-7 / 8-15 of the atom)), the K steps after the atom's values, the M repeat last -- rows
    as the accumulator places them, so an f32 accumulator of M x N is the 16-bit A of M x K=N element by element."""
    p, steps, repeats = _packing(elem, None), k // atom_k, m // (64 * warpgroups)
    if k % atom_k or repeats < 1 or m % (64 * warpgroups):
        raise FragmentError(f"an RS wgmma tile is M = 64 x warpgroups x repeats by K = steps x {atom_k}; not "
                            f"{m}x{k} over {warpgroups} warpgroup(s)")

    def element(thr: int, v: int) -> tuple[int, int]:
        lane, w = thr % 32, thr // 32
        g, t = lane // 4, lane % 4
        e, r, j, i = v % p, (v // p) % 4, (v // (4 * p)) % steps, v // (4 * p * steps)
        return 64 * warpgroups * i + 16 * w + g + 8 * (r & 1), atom_k * j + p * t + e + 4 * p * (r >> 1)

    return _fit((4, 8, 4 * warpgroups), (p, 2, 2, steps, repeats), element, m, lambda row, col: row + m * col)


def wgmma_accumulator_tile(layout: Layout) -> tuple[int, int, int] | None:
    """(M, N, warpgroups) of the wgmma accumulator tile whose TV layout is `layout`, or None if it is none:
    the layout's threads give the warpgroups, its values N/2 times the M repeats."""
    threads, values = layout[0].size(), layout[1].size()
    if threads % 128:
        return None
    warpgroups = threads // 128
    for repeats in (1, 2, 4):
        if 2 * values % repeats or (2 * values // repeats) % 8:
            continue
        m, n = 64 * warpgroups * repeats, 2 * values // repeats
        if n > 256:  # wider than any wgmma (and its layout slow to build)
            continue
        if str(wgmma_accumulator_layout(m, n, warpgroups)) == str(layout):
            return m, n, warpgroups
    return None


def _c_m8n8() -> Layout:
    def element(thr: int, v: int) -> tuple[int, int]:
        return thr // 4, 2 * (thr % 4) + v
    return _fit((4, 8), (2,), element, 8, lambda row, col: row + 8 * col)


# sm_70 quad-pair layouts over 8 logical threads (CuTe SM70_*; reference section 1.1), where logical
# thread i is lane (i % 4) + 16 * (i // 4) of the quad-pair.
SM70_QUADPAIR = {
    ("A", "row"): "(8,4):(1,8)",
    ("A", "col"): "((4,2),4):((8,4),1)",
    ("B", "row"): "((4,2),4):((8,4),1)",
    ("B", "col"): "(8,4):(1,8)",
    ("C", "f16"): "(8,8):(1,8)",
    ("C", "f32"): "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))",
}


def tv_layouts(atom: Atom) -> dict[str, Layout]:
    return dict(_tv_layouts(atom))


@lru_cache(maxsize=4096)
def _tv_layouts(atom: Atom) -> dict[str, Layout]:
    """TV layouts of A, B and C (and sparse metadata E, scale factors SFA/SFB where they exist) for one
    atom. D has C's layout unless a "D" entry says otherwise (SM70 m8n8k4 with f32 D and f16 C)."""
    fam = atom.family
    if fam in ("mma", "mma.sp", "mma.block_scale"):
        return _mma_sync_layouts(atom)
    if fam == "wgmma":
        return _wgmma_layouts(atom)
    if fam == "tcgen05.mma":
        m, n, k = atom.m, atom.n, atom.k
        ka = k // 2 if atom.sparse else k
        # one MMA per CTA (pair): the whole tile belongs to the single issuing thread
        return {
            "A": Layout((1, (m, ka)), (0, (1, m))),
            "B": Layout((1, (n, k)), (0, (1, n))),
            "C": Layout((1, (m, n)), (0, (1, m))),
        }
    raise FragmentError(f"no TV layouts for family {fam}")


def _mma_sync_layouts(atom: Atom) -> dict[str, Layout]:
    """mma.sync (dense, sparse, block-scaled): a warp's fragments."""
    m, n, k = atom.shape
    kind = atom.kind
    ka = k // 2 if atom.sparse else k  # sparse A is the compressed M x K/2 matrix
    pa, pb = _packing(atom.a, kind), _packing(atom.b, kind)
    if (m, n, k) == (8, 8, 4) and atom.a == "f16":
        la, lb = atom.layout
        # D and C may differ (f32.f16.f16.f16): each has the quad-pair layout of its own type
        return {
            "A": parse_layout(SM70_QUADPAIR[("A", la)]),
            "B": parse_layout(SM70_QUADPAIR[("B", lb)]),
            "C": parse_layout(SM70_QUADPAIR[("C", atom.acc[1])]),
            "D": parse_layout(SM70_QUADPAIR[("C", atom.acc[0])]),
        }
    if m == 8:
        out = {"A": _a_m8(k, pa), "B": _b_n8(n, k, pb), "C": _c_m8n8()}
    else:
        out = {"A": _a_m16n8(m, ka, pa), "B": _b_n8(n, k, pb), "C": _c_m16n8()}
    if atom.sparse:
        out["E"] = Layout((32, 1), (1, 0))  # one 32-bit metadata word per lane; see sparse_metadata for its bits
    if atom.family == "mma.block_scale":
        out.update(_scale_factor_layouts(atom))
    return out


def _scale_factor_layouts(atom: Atom) -> dict[str, Layout]:
    """A block-scaled mma.sync's SFA and SFB: CuTe's SFALayout / SFBLayout (reference section 4). The stride-0 lane
    bits are the lanes the selectors leave unread. The values are the register's 4 bytes: chunk j sits in byte
    byte_id + j and every other byte repeats a chunk (stride 0), so each lane loads one whole .b32 register
    whatever the byte-id: byte v holds chunk v % chunks."""
    chunks = {"1X": 1, "2X": 2, "4X": 4}[atom.scale_vec]

    def bytes_mode(chunk_stride: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if chunks == 1:
            return (4,), (0,)
        if chunks == 4:
            return (4,), (chunk_stride,)
        return (2, 2), (chunk_stride, 0)

    sa, da = bytes_mode(16)
    sb, db = bytes_mode(8)
    return {"SFA": Layout(((2, 2, 8), sa), ((8, 0, 1), da)), "SFB": Layout(((4, 8), sb), ((0, 1), db))}


def _wgmma_layouts(atom: Atom) -> dict[str, Layout]:
    """wgmma: the warpgroup's C (and A from registers); A and B from SMEM are whole tiles, no thread's."""
    n, k = atom.n, atom.k
    ka = k // 2 if atom.sparse else k
    out = {"C": _c_m16n8(warps=4, n=n)}
    if atom.a_residency == "register":
        out["A"] = _a_m16n8(64, ka, _packing(atom.a, None), warps=4)
    else:
        out["A"] = Layout((128, (64, ka)), (0, (1, 64)))
    out["B"] = Layout((128, (n, k)), (0, (1, n)))
    if atom.sparse:
        out["E"] = Layout((128, 1), (1, 0))  # one 32-bit metadata word per thread; see sparse_metadata
    return out


@dataclass(frozen=True)
class MetadataField:
    """One 4-bit field of a lane's metadata word and the chunk of sparse A it selects within."""

    lane: int
    nibble: int  # bits [4*nibble + 3 : 4*nibble] of the lane's word
    row: int
    col: int  # first (dense, logical-K) column of the chunk
    width: int  # dense columns in the chunk: 4 (2:4), 2 (1:2, tf32) or 8 (4:8 pair-wise, 4-bit types)


def sparse_metadata(atom: Atom) -> list[MetadataField]:
    """Which lane and nibble of the metadata operand governs each chunk of A, for the atom's selector
    (reference ptx-fragments.md section 2.3; the ISA's sparse metadata figures). Lanes outside the
    selector's set do not contribute (their words are ignored by the hardware)."""
    if atom.family == "wgmma":
        # wgmma.sp: warp w of the warpgroup carries the metadata of rows 16w..16w+15 exactly as mma.sp's
        # m16 figure (ISA 9.7.15.6.2 reuses the mma.sp metadata figures; ptx-fragments.md section 2.3)
        per_warp = _sparse_fields(16, atom.k, atom.a, None, atom.selector or 0)
        return [MetadataField(32 * w + fld.lane, fld.nibble, 16 * w + fld.row, fld.col, fld.width)
                for w in range(4) for fld in per_warp]
    m, n, k = atom.shape
    return _sparse_fields(m, k, atom.a, atom.kind, atom.selector or 0)


def _sparse_fields(m: int, k: int, a: str, kind: str | None, f: int) -> list[MetadataField]:
    bits = container_bits(a, kind)
    width = {16: 4, 32: 2, 8: 4, 4: 8}[bits]
    out = []
    for lane in range(32):
        g, q = lane // 4, lane % 4
        for c in range(8):  # every form uses all 8 nibbles of each contributing lane
            place = _metadata_place(a, bits, k, f, g, q, c)
            if place is not None:
                out.append(MetadataField(lane, c, place[0], place[1], width))
    covered = sorted((fld.row, fld.col) for fld in out)
    if covered != sorted((r, col) for r in range(m) for col in range(0, k, width)):
        raise FragmentError(f"sparse metadata fields of {a} m{m} k{k} do not cover every chunk of A exactly once")
    return out


def _metadata_place(a: str, bits: int, k: int, f: int, g: int, q: int, c: int) -> tuple[int, int] | None:
    if bits == 16 and k == 16 or bits == 32 and k == 8:  # one lane per quad: q == f
        if q != f:
            return None
        step = 4 if bits == 16 else 2
        return g + 8 * (c >> 2), step * (c & 3)
    if bits == 16 and k == 32 or bits == 32 and k == 16:  # a pair: q = 2f + h
        if q >> 1 != f:
            return None
        h = q & 1
        half, step = (16, 4) if bits == 16 else (8, 2)
        return g + 8 * (c >> 2), half * h + step * (c & 3)
    if bits == 8 and k == 32 or bits == 4 and k == 64:  # pair, one row per lane
        if q >> 1 != f:
            return None
        h = q & 1
        return g + 8 * h, (4 if bits == 8 else 8) * c
    if bits == 8 and k == 64 or bits == 4 and k == 128:  # all four lanes
        return g + 8 * (q & 1), (32 if bits == 8 else 64) * (q >> 1) + (4 if bits == 8 else 8) * c
    raise FragmentError(f"no sparse metadata rule for {a} with K={k}")


def threads(atom: Atom) -> int:
    return {"wgmma": 128, "tcgen05.mma": 1}.get(atom.family, 32)


def operand_extent(atom: Atom, role: str) -> tuple[int, int]:
    """(rows, cols) of the tile a TV layout or descriptor covers: A is M x K, B is N x K, C is M x N. With
    tcgen05 cta_group::2 each CTA of the pair holds half of A's rows and half of B's (CUTLASS 2SM atoms)."""
    if atom.family == "wgmma":
        m, n, k = 64, atom.n, atom.k
    elif atom.family == "tcgen05.mma":
        g = atom.cta_group if role in ("A", "B") else 1
        m, n, k = atom.m // g, atom.n // g, atom.k
    else:
        m, n, k = atom.shape
    sparse = atom.sparse
    if role == "A":
        return m, (k // 2 if sparse else k)
    if role == "B":
        return n, k
    return m, n


__all__ = ["FragmentError", "MetadataField", "sparse_metadata", "operand_extent", "threads", "tv_layouts", "crd2idx", "idx2crd",
           "wgmma_accumulator_layout", "wgmma_accumulator_tile", "wgmma_register_a_layout"]


def tile_tv_layout(atom: Atom, role: str, repeats: tuple[int, int]) -> Layout:
    """The TV layout of one warp's tile of `repeats` = (row repeats, column repeats) copies of a register atom's
    operand `role` (A: M x K, B: N x K, C/D: M x N, column-major as every TV layout here): thread t's values are
    the atom's values (fastest), then the row repeat, then the column repeat, so each atom's registers are
    contiguous in the tile fragment."""
    rows, cols = operand_extent(atom, role)
    layouts = tv_layouts(atom)
    atom_tv = layouts.get(role) or layouts["C" if role == "D" else role]
    tile_rows = rows * repeats[0]
    # the atom's (row, col) -> the tile's column-major index, then the repeats beside the atom's values
    placed = composition(Layout((rows, cols), (1, tile_rows)), atom_tv)
    return Layout((placed.shape[0], (placed.shape[1], repeats[0], repeats[1])),
                  (placed.stride[0], (placed.stride[1], rows, tile_rows * cols)))
