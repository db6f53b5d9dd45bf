"""The verifier of every atom op: read the op into catalogue dimensions, then check, in order,
residency (each operand's memory space), the shape lattice and target (the catalogue's rows), and
layouts (fragments against canonical TV layouts, SMEM descriptors against the layout algebra).

The rules are the catalogue's; this module only translates between IR and catalogue values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from mmatom.layout import NotationError
from mmatom.atoms.catalogue import Atom, AtomError, MmaSyncAtom, WgmmaAtom, family, resolve
from mmatom.atoms.catalogue.elements import BITS, base_element, storage_element
from mmatom.atoms.catalogue.fragments import (operand_extent, tile_tv_layout, tv_layouts, wgmma_accumulator_layout,
                                              wgmma_accumulator_tile, wgmma_register_a_layout)
from mmatom.atoms.catalogue.model import REGISTER, SMEM_DESC, TMEM
from mmatom.atoms.catalogue.tcgen05 import BLOCK_SCALED
from mmatom.atoms.catalogue.wgmma import dense_k, imm_scale, imm_trans
from mmatom.atoms.descriptors import DescriptorError, SmemOperand, check_layout, check_pattern_start, sub_tile

from . import mma_types as d
from .carried import carried
from .mma_types import module_target

RESIDENCY_OF = {d.FragmentType: REGISTER, d.SmemDescType: SMEM_DESC, d.TmemType: TMEM}
TYPE_SYNTAX = {REGISTER: "!mma.frag", SMEM_DESC: "!mma.smem_desc", TMEM: "!mma.tmem"}
def _elem(t: Attribute) -> str:
    """The element an operand carries (an fp6/fp4 container name such as e2m1_c8 carries e2m1)."""
    return base_element(t.elem.data)  # type: ignore[attr-defined]


def _residency(t: Attribute) -> str:
    return RESIDENCY_OF[type(t)]


def _word(prop: Any) -> str | None:
    """The plain word of an op's word attribute (the catalogue's values are plain strings)."""
    return None if prop is None else prop.word


def _int(prop: Any) -> int | None:
    return None if prop is None else prop.value.data


def atom_values(op: Operation) -> tuple[str, dict[str, Any], dict[str, Attribute]]:
    """(family, dimension values, operand types by role) for an atom op."""
    read = _ATOM_VALUES.get(op.name)
    if read is None:
        raise VerifyException(f"{op.name} is not an atom op")
    return read(op)


def _mma_sync_values(op: Operation) -> tuple[str, dict[str, Any], dict[str, Attribute]]:
    types = {"A": op.a.type, "B": op.b.type, "C": op.c.type, "D": op.d.type}
    la, lb = _word(op.layout_a) or "row", _word(op.layout_b) or "col"
    return "mma", dict(
        shape=op.shape.mnk, kind=_word(op.kind), a=_elem(op.a.type), b=_elem(op.b.type),
        acc=(_elem(op.d.type), _elem(op.c.type)), layout=(la, lb), satfinite=op.satfinite is not None,
        bitop=_word(op.bitop), rounding=_word(op.rounding)), types


def _mma_sp_values(op: Operation) -> tuple[str, dict[str, Any], dict[str, Attribute]]:
    types = {"A": op.a.type, "B": op.b.type, "C": op.c.type, "D": op.d.type, "E": op.e.type}
    return "mma.sp", dict(
        sparse_mode="sp::ordered_metadata" if op.ordered_metadata is not None else "sp", shape=op.shape.mnk,
        kind=_word(op.kind), a=_elem(op.a.type), b=_elem(op.b.type), acc=(_elem(op.d.type), _elem(op.c.type)),
        satfinite=op.satfinite is not None, selector=_int(op.selector)), types


def _block_scale_values(op: Operation) -> tuple[str, dict[str, Any], dict[str, Attribute]]:
    types = {"A": op.a.type, "B": op.b.type, "C": op.c.type, "D": op.d.type, "SFA": op.sfa.type, "SFB": op.sfb.type}
    if op.e is not None:
        types["E"] = op.e.type
    return "mma.block_scale", dict(
        sparse_mode="sp::ordered_metadata" if op.e is not None else None, kind=op.kind.word,
        scale_vec=op.scale_vec.word, scale_type=_elem(op.sfa.type), shape=op.shape.mnk, a=_elem(op.a.type),
        b=_elem(op.b.type), acc=(_elem(op.d.type), _elem(op.c.type)), selector=_int(op.selector) or 0,
        byte_id=_int(op.byte_id) or 0, thread_id_a=_int(op.thread_id_a) or 0,
        thread_id_b=_int(op.thread_id_b) or 0), types


def _wgmma_values(op: Operation) -> tuple[str, dict[str, Any], dict[str, Attribute]]:
    types = {"A": op.a.type, "B": op.b.type, "C": op.c.type, "D": op.d.type}
    if op.e is not None:
        types["E"] = op.e.type
    a, b = _elem(op.a.type), _elem(op.b.type)
    m, n, k = op.shape.mnk
    return "wgmma", dict(
        sparse=op.e is not None, a=a, b=b, d=_elem(op.d.type), m=m, n=n, k=k,
        satfinite=op.satfinite is not None, bitop=_word(op.bitop), a_residency=_residency(op.a.type),
        **_wgmma_qualifiers(op, "sm90 wgmma", a),
        selector=_int(op.selector) if op.e is not None else None), types


def _tcgen05_values(op: Operation) -> tuple[str, dict[str, Any], dict[str, Attribute]]:
    types = {"A": op.a.type, "B": op.b.type, "D": op.d.type}
    for role, v in (("E", op.e), ("SFA", op.sfa), ("SFB", op.sfb)):
        if v is not None:
            types[role] = v.type
    m, n, k = op.shape.mnk
    _tcgen05_operands(op)
    scale_type = _elem(op.sfa.type) if op.sfa is not None else _word(op.scale_type)
    return "tcgen05.mma", dict(
        sparse=op.e is not None, cta_group=_int(op.cta_group), kind=op.kind.word, scale_vec=_word(op.scale_vec),
        a=_elem(op.a.type), b=_elem(op.b.type), d=_elem(op.d.type), scale_type=scale_type, m=m, n=n, k=k,
        a_residency=_residency(op.a.type)), types


_ATOM_VALUES = {"mma.sync": _mma_sync_values, "mma.sp": _mma_sp_values, "mma.block_scale": _block_scale_values,
                "mma.wgmma": _wgmma_values, "mma.tcgen05": _tcgen05_values}


def _tcgen05_operands(op) -> None:
    """enable-input-d is 0 or 1; disable-output-lane is 4 (cta_group::1) or 8 (::2) lane masks and does
    not exist on the block-scaled kinds (reference D2)."""
    label = "sm100 tcgen05.mma"
    if op.accumulate is not None and _int(op.accumulate) not in (0, 1):
        raise VerifyException(f"{label}: accumulate={_int(op.accumulate)} is not legal; accumulate is 0 (D = A*B) "
                              f"or 1 (D = A*B + D)")
    if op.disable_output_lane is not None:
        masks = op.disable_output_lane.get_values()
        want = 4 * _int(op.cta_group)
        if op.kind.word in BLOCK_SCALED:
            raise VerifyException(f"{label}: kind::{op.kind.word} takes no disable_output_lane (block-scaled forms "
                                  f"have no such operand)")
        if len(masks) != want:
            raise VerifyException(f"{label}: disable_output_lane has {len(masks)} masks; cta_group::"
                                  f"{_int(op.cta_group)} takes {want}")


def _wgmma_qualifiers(op, label: str, a: str) -> dict:
    """trans-a/b from the SMEM operands' major modes and imm-scale-a/b (the catalogue's imm_trans and imm_scale)
    of mma.wgmma and mma.wgmma_tile; scale_d must be 0 or 1."""
    def trans(t: Attribute) -> int | None:
        return imm_trans(a, isinstance(t, d.SmemDescType) and t.major.data == "mn")

    if op.scale_d is not None and _int(op.scale_d) not in (0, 1):
        raise VerifyException(f"{label}: scale_d={_int(op.scale_d)} is not legal; scale_d must be 0 "
                              f"(D = A*B) or 1 (D = A*B + C)")
    return dict(trans_a=trans(op.a.type), trans_b=trans(op.b.type), scale_a=imm_scale(a, _int(op.scale_a)),
                scale_b=imm_scale(a, _int(op.scale_b)))


def op_atom(op: Operation) -> Atom:
    """The catalogue atom an atom op performs, read from its properties and operand types the first time it is
    asked for (by the op's verifier) and carried after (`carried.py`): the lowering consumes the atom the
    verifier resolved, never re-deriving it."""
    def read() -> Atom:
        fam_name, values, _ = atom_values(op)
        try:
            return family(fam_name).make(values)
        except AtomError as err:
            raise VerifyException(str(err)) from None
    return carried(op, read)


def _resolve(label: str | None, op: Operation, atom: Atom) -> None:
    """`atom` is legal on the module's chip (remembered per atom and chip: resolve is the catalogue's, cached)."""
    try:
        resolve(atom, module_target(op))
    except AtomError as err:
        raise VerifyException(f"{label}: {err}" if label else str(err)) from None


@dataclass(frozen=True)
class SyncTilePlan:
    """How an mma.sync_tile splits: its atom and the repeats along M, N and K (registers of each operand are the
    atoms' in order: atom values, then row repeat, then column repeat; fragments.tile_tv_layout)."""

    atom: MmaSyncAtom
    repeats: tuple[int, int, int]

    def operand_repeats(self, role: str) -> tuple[int, int]:
        rm, rn, rk = self.repeats
        return {"A": (rm, rk), "B": (rn, rk), "C": (rm, rn), "D": (rm, rn)}[role]


def sync_tile_plan(op: Operation) -> SyncTilePlan:
    """How an mma.sync_tile splits, checked by its verifier the first time and carried after."""
    return carried(op, lambda: _sync_tile_plan(op), "plan")


def _sync_tile_plan(op: Operation) -> SyncTilePlan:
    """Check an mma.sync_tile (a warp's tile of one register atom: the atom legal for the chip, the tile a whole
    number of atoms, every fragment in the tile's TV layout) and say how it splits."""
    label = "mma.sync_tile"
    (M, N, K), (m, n, k) = op.shape.mnk, op.atom_shape.mnk
    values = dict(shape=(m, n, k), kind=None, a=_elem(op.a.type), b=_elem(op.b.type),
                  acc=(_elem(op.d.type), _elem(op.c.type)), layout=("row", "col"),
                  satfinite=op.satfinite is not None, bitop=None, rounding=None)
    fam = family("mma")
    try:
        atom = fam.make(values)
    except AtomError as err:
        raise VerifyException(f"{label}: {err}") from None
    _resolve(label, op, atom)
    for name, size, atom_size in zip("MNK", (M, N, K), (m, n, k)):
        if size <= 0 or size % atom_size:
            raise VerifyException(f"{label}: tile {name}={size} is not a multiple of the atom's {name}={atom_size}")
    plan = SyncTilePlan(atom, (M // m, N // n, K // k))
    for role, t in (("A", op.a.type), ("B", op.b.type), ("C", op.c.type), ("D", op.d.type)):
        want = tile_tv_layout(plan.atom, role, plan.operand_repeats(role))
        try:
            got = t.layout.data
        except NotationError as err:
            raise VerifyException(f"{label}: operand {role}: {err}") from None
        if t.role.data not in (role, "C" if role == "D" else role) or not got.equivalent(want) \
                or got[0].size() != want[0].size():
            raise VerifyException(f"{label}: operand {role} must be the {role} fragment in the {M}x{N}x{K} tile's TV "
                                  f"layout {want} ({'x'.join(map(str, plan.operand_repeats(role)))} atoms of "
                                  f"{fam.spell(plan.atom)}); got {t}")
    return plan


def verify_atom_op(op: Operation) -> None:
    fam_name, _, types = atom_values(op)
    fam = family(fam_name)
    atom = op_atom(op)
    _check_roles(op, fam.label, types)
    _check_residency(fam, atom, types)
    _resolve(None, op, atom)
    _check_storage(fam.label, atom, types)
    _check_layouts(fam.label, atom, types)


def _check_roles(op: Operation, label: str, types: dict[str, Attribute]) -> None:
    for role, t in types.items():
        declared = getattr(t, "role", None)
        if declared is None:
            continue
        want = "C" if role == "D" and declared.data == "C" else role
        if declared.data not in (role, want):
            raise VerifyException(f"{label}: operand {role} has a fragment of role {declared.data}; expected role {role}")


def _check_residency(fam, atom: Atom, types: dict[str, Attribute]) -> None:
    specs = {s.role: s for s in fam.operands(atom)}
    for role, t in types.items():
        spec = specs.get(role)
        if spec is None:
            raise VerifyException(f"{fam.label}: operand {role} is not taken by {fam.spell(atom)}")
        got = _residency(t)
        if got != spec.residency:
            legal = sorted({spec.residency} | ({REGISTER, SMEM_DESC} if fam.name == "wgmma" and role == "A" else set())
                           | ({SMEM_DESC, TMEM} if fam.name == "tcgen05.mma" and role == "A" else set()))
            raise VerifyException(
                f"{fam.label}: operand {role} is a {TYPE_SYNTAX[got]} ({got}); {role} must be in "
                + " or ".join(f"{r} ({TYPE_SYNTAX[r]})" for r in legal))
    for role in specs:
        if role not in types:
            raise VerifyException(f"{fam.label}: operand {role} is missing")


def _check_storage(label: str, atom: Atom, types: dict[str, Attribute]) -> None:
    """fp6/fp4 register fragments under kind::f8f6f4 / mxf8f6f4 sit in 8-bit containers: the operand must
    say so. (tcgen05 SMEM operands use a different padding, 16 elements per 16 bytes; not modelled here.)"""
    kind = atom.kind
    for role, t in types.items():
        if role in ("A", "B") and isinstance(t, d.FragmentType):
            want = storage_element(base_element(t.elem.data), kind)
            if t.elem.data != want:
                raise VerifyException(
                    f"{label}: operand {role} element {t.elem.data} is not how kind::{kind} stores "
                    f"{base_element(t.elem.data)}; it must be {want}"
                    + (" (an 8-bit container)" if want != base_element(want) else " (packed, no container)"))


def _check_layouts(label: str, atom: Atom, types: dict[str, Attribute]) -> None:
    canonical = tv_layouts(atom)
    for role, t in types.items():
        if isinstance(t, d.FragmentType):
            want = canonical.get(role, canonical["C"] if role == "D" else None)
            if want is None:
                continue
            try:
                got = t.layout.data
            except NotationError as err:
                raise VerifyException(f"{label}: operand {role}: {err}") from None
            if not got.equivalent(want):
                raise VerifyException(
                    f"{label}: operand {role} layout {got} is not the canonical TV layout {want} "
                    f"of {family(atom.family).spell(atom)}")
        elif isinstance(t, d.SmemDescType):
            rows, k = operand_extent(atom, role)
            op = SmemOperand(rows, k, BITS[t.elem.data], t.major.data, t.swizzle.data)
            if atom.family == "wgmma" and t.swizzle.data == "128b_base32b":
                raise VerifyException(f"{label}: operand {role}: swizzle 128b_base32b exists only on SM100 descriptors")
            try:
                check_layout(t.layout.data, op)
            except (DescriptorError, NotationError) as err:
                raise VerifyException(f"{label}: operand {role}: {err}") from None
        elif isinstance(t, d.TmemType) and role == "D":
            n = atom.n
            if t.cols.value.data != n:
                raise VerifyException(f"{label}: operand D is a TMEM tile of {t.cols.value.data} columns; N={n} needs {n}")


# -- wgmma tiles -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WgmmaTilePlan:
    atom: WgmmaAtom  # the wgmma each step issues
    warpgroups: int
    repeats: int  # atoms each warpgroup issues down M per K step (its rows 64w + 64 * warpgroups * i)
    steps: tuple[tuple[int, int], ...]  # per K step: (A byte offset, B byte offset) within warpgroup 0 (RS: A 0)
    a_warpgroup_bytes: int  # how far warpgroup w's A rows start from warpgroup 0's (times w; RS: 0)
    a_repeat_bytes: int  # how far repeat i's A rows start from repeat 0's (times i; RS: 0)
    a_desc: "d.SmemDescType | None"  # one atom's A and B (what each step's descriptor describes); RS: no A
    b_desc: "d.SmemDescType"

    @property
    def a_in_registers(self) -> bool:
        return self.a_desc is None


THREAD_REGISTERS = 255  # PTX: registers a thread can have
WGMMA_TILE_M = (64, 128, 192, 256)  # 64 rows per warpgroup (one to three), repeated down M 1, 2 or 4 times
_TILE = "mma.wgmma_tile"


def wgmma_tile_plan(op) -> WgmmaTilePlan:
    """How an mma.wgmma_tile splits, checked by its verifier the first time and carried after."""
    return carried(op, lambda: _wgmma_tile_plan(op), "plan")


def _wgmma_tile_plan(op) -> WgmmaTilePlan:
    """Check an mma.wgmma_tile and say how it splits into wgmma atoms: the accumulator's TV layout says how
    many warpgroups share the tile, and each repeats its 64-row atom down the rest of M."""
    m, n, k_tile = op.shape.mnk
    if m not in WGMMA_TILE_M:
        raise VerifyException(f"{_TILE}: M={m} is not legal; a tile is 64 rows per warpgroup (one to three), each "
                              f"repeating its atom down M: M = {', '.join(map(str, WGMMA_TILE_M))}")
    atom = _tile_atom(op, k_tile)
    warpgroups = _tile_warpgroups(op, m, n)
    k = atom.k
    rs = isinstance(op.a.type, d.FragmentType)
    try:
        if rs:
            _check_register_a(op.a.type, atom, m, k_tile, warpgroups)
        else:
            a_steps, a_desc = _smem_steps("A", op.a.type, m, 64, k_tile, k)
        b_steps, b_desc = _smem_steps("B", op.b.type, n, n, k_tile, k)
        if rs:
            return WgmmaTilePlan(atom, warpgroups, m // (64 * warpgroups), tuple((0, off) for off in b_steps), 0, 0,
                                 None, b_desc)
        wg_bytes, rep_bytes = _a_block_strides(op.a.type, m, k_tile, k, warpgroups, a_steps)
    except (DescriptorError, NotationError) as err:
        raise VerifyException(f"{_TILE}: {err}") from None
    return WgmmaTilePlan(atom, warpgroups, m // (64 * warpgroups), tuple(zip(a_steps, b_steps)), wg_bytes, rep_bytes,
                         a_desc, b_desc)


def _tile_atom(op, k_tile: int) -> WgmmaAtom:
    """The atom every step issues (A's residency from its type), legal on the module's chip."""
    a, dt = op.a.type.elem.data, op.d.type.elem.data
    k = dense_k(a)
    if k_tile % k:
        raise VerifyException(f"{_TILE}: K={k_tile} is not a multiple of the {a} atom's K={k}")
    values = dict(sparse=False, a=_elem(op.a.type), b=op.b.type.elem.data, d=dt, m=64, n=op.shape.mnk[1], k=k,
                  satfinite=op.satfinite is not None, bitop="and" if a == "b1" else None,
                  a_residency=_residency(op.a.type), **_wgmma_qualifiers(op, _TILE, a), selector=None)
    try:
        atom = family("wgmma").make(values)
    except AtomError as err:
        raise VerifyException(f"{_TILE}: {err}") from None
    _resolve(_TILE, op, atom)
    return atom


def _tile_warpgroups(op, m: int, n: int) -> int:
    """How many warpgroups C's and D's accumulator layouts (which must agree) spread the M x N tile over."""
    dt = op.d.type.elem.data
    warpgroups = None
    for role, t in (("C", op.c.type), ("D", op.d.type)):
        if t.elem.data != dt and role == "C":
            raise VerifyException(f"{_TILE}: operand C is {t.elem.data}; the accumulator is {dt}")
        try:
            got = t.layout.data
        except NotationError as err:
            raise VerifyException(f"{_TILE}: operand {role}: {err}") from None
        tile = wgmma_accumulator_tile(got)
        if tile is not None and tile[:2] == (m, n) and warpgroups not in (None, tile[2]):
            raise VerifyException(f"{_TILE}: operand D's layout {got} spreads the tile over {tile[2]} "
                                  f"warpgroup(s), C's over {warpgroups}; D keeps C's registers, so the layouts agree")
        if tile is None or tile[:2] != (m, n):
            legal = "; ".join(f"over {w} warpgroup{'s' * (w > 1)}: {wgmma_accumulator_layout(m, n, w)}"
                              for w in (3, 2, 1) if m % (64 * w) == 0 and m // (64 * w) in (1, 2, 4))
            raise VerifyException(f"{_TILE}: operand {role} layout {got} is not a {m}x{n} accumulator layout "
                                  f"({legal})")
        warpgroups = tile[2]
    registers = op.d.type.layout.data[1].size() * BITS[dt] // 32
    if registers > THREAD_REGISTERS:
        raise VerifyException(f"{_TILE}: a {m}x{n} {dt} accumulator over {warpgroups} warpgroup(s) is {registers} "
                              f"registers per thread; a thread has at most {THREAD_REGISTERS} (more warpgroups or a "
                              f"narrower tile)")
    return warpgroups


def _smem_steps(role: str, t, rows: int, atom_rows: int, k_tile: int, k: int) -> tuple[list[int], "d.SmemDescType"]:
    """The byte offset of each K step's atom window (rows 0..atom_rows - 1) of a rows x k_tile SMEM operand, each
    checked against the canonical layout, and the descriptor type of one window."""
    full = t.layout.data
    inner = getattr(full, "layout", full)
    if inner.rank() != 2 or (inner[0].size(), inner[1].size()) != (rows, k_tile):
        raise VerifyException(f"{_TILE}: operand {role}: SMEM layout {full} must have shape ({rows}, {k_tile})")
    bits = BITS[t.elem.data]
    offsets = []
    for j in range(k_tile // k):
        try:
            off, sub = sub_tile(full, 0, atom_rows, j * k, k, bits)
            check_layout(sub, SmemOperand(atom_rows, k, bits, t.major.data, t.swizzle.data))
            check_pattern_start(off, t.swizzle.data)
        except DescriptorError as err:
            raise DescriptorError(f"operand {role}, K step {j} (k {j * k}..{(j + 1) * k - 1}): {err}") from None
        offsets.append(off)
    window = sub_tile(full, 0, atom_rows, 0, k, bits)[1]
    return offsets, d.SmemDescType(role, t.elem.data, t.major.data, t.swizzle.data, str(window))


def _a_block_strides(a_t, m: int, k_tile: int, k: int, warpgroups: int, steps: list[int]) -> tuple[int, int]:
    """(warpgroup stride, repeat stride) in bytes of SMEM A's 64-row blocks: every block (warpgroup w, repeat i)
    must be block 0 shifted by w * wg_bytes + i * rep_bytes, each of its K windows canonical."""
    full, bits = a_t.layout.data, BITS[a_t.elem.data]
    block_bytes = [sub_tile(full, 64 * blk, 64, 0, k, bits)[0] for blk in range(m // 64)]
    wg_bytes = block_bytes[1] if warpgroups > 1 else 0
    rep_bytes = block_bytes[warpgroups] if m // (64 * warpgroups) > 1 else 0
    for blk in range(1, m // 64):
        i, w = divmod(blk, warpgroups)
        for j in range(k_tile // k):
            off, sub = sub_tile(full, 64 * blk, 64, j * k, k, bits)
            try:
                check_layout(sub, SmemOperand(64, k, bits, a_t.major.data, a_t.swizzle.data))
                check_pattern_start(off, a_t.swizzle.data)
            except DescriptorError as err:
                raise DescriptorError(f"operand A rows {64 * blk}..{64 * blk + 63}, K step {j}: {err}") from None
            if off != w * wg_bytes + i * rep_bytes + steps[j]:
                raise DescriptorError(f"A rows {64 * blk}..{64 * blk + 63} (warpgroup {w}, repeat {i}) are not "
                                      f"rows 0..63 shifted by {w * wg_bytes + i * rep_bytes} bytes")
    return wg_bytes, rep_bytes


def _check_register_a(a_t, atom: WgmmaAtom, m: int, k_tile: int, warpgroups: int) -> None:
    """An RS tile's A is the register-A fragment of the M x K tile over the accumulator's warpgroups."""
    want, steps = wgmma_register_a_layout(atom.a, atom.k, m, k_tile, warpgroups), k_tile // atom.k
    try:
        got = a_t.layout.data
    except NotationError as err:
        raise VerifyException(f"{_TILE}: operand A: {err}") from None
    if a_t.role.data != "A" or not got.equivalent(want) or got[0].size() != want[0].size():
        raise VerifyException(f"{_TILE}: operand A must be the register A fragment of the {m}x{k_tile} tile over "
                              f"{warpgroups} warpgroup(s), !mma.frag<A, {a_t.elem.data}, \"{want}\"> ({steps} K step"
                              f"{'s' * (steps > 1)} of {family('wgmma').spell(atom)}); got {a_t}")
