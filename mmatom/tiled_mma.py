"""TiledMma: atoms tiled over threads and values with CuTe's semantics.

`TiledMma(atom, atom_layout_mnk=(wm, wn, wk))` runs wm x wn x wk copies of the atom side by side, one per group
of `atom.threads` threads (atom id = thread // atom.threads, laid out column-major over (M, N, K) as CuTe's
`make_layout(atom_layout_mnk)`). One step of the tiled MMA covers `tile_mnk` = (wm*m, wn*n, wk*k), or the larger
`permutation` tile given as (M, N, K) sizes, which each atom group covers by repeating its atom along M, N and K
(CuTe's permutation by tile size; layout-valued permutations are not supported).

`partition_A/B/C(thread)` give the coordinates (in the step tile) of each value a thread holds, ordered as CuTe's
partitioned tensors are (atom value, then M repeat, then N or K repeat, column-major). `origin_layout(role, ld)` is
the layout from an atom id to the element offset of that group's first atom in a row-major tile with leading
dimension `ld`, so a DSL computes a warp's origin with one `kb.layout(...)` call. `mma(kb, a, b, c)` issues the
atoms of one step for one thread group (register atoms), returning the D fragments.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod


from mmatom.atoms.catalogue.elements import BITS
from mmatom.atoms.catalogue.fragments import tile_tv_layout, wgmma_accumulator_layout, wgmma_register_a_layout
from mmatom.atoms.descriptors import DescriptorError, SmemOperand, canonical_layout
from mmatom.dialects.mma import FragmentType, SmemDescType, SyncTileOp, WgmmaTileOp
from mmatom.layout import Layout

from .errors import api_error
from .fragments import FragmentCoords, Placement, placement, reduce_rows
from .kernel_builder import KernelBuilder
from .lookup import Atom
from .values import Value


_MODES = {"A": (0, 2), "B": (1, 2), "C": (0, 1), "D": (0, 1)}  # the (row, col) modes of each operand in (M, N, K)
_SWIZZLE_BYTES = {"none": "none", "sw32": "32b", "sw64": "64b", "sw128": "128b"}
_PLACEMENTS: dict[tuple, Placement] = {}  # (atom, atom_layout_mnk, tile_mnk, role) -> its Placement


class TiledMma:
    """An atom tiled over thread groups (`atom_layout_mnk`) and repeated to a step tile (`permutation`), with
    CuTe's partitioning (see the module docstring)."""

    def __init__(self, atom: Atom, atom_layout_mnk: tuple[int, int, int] = (1, 1, 1),
                 permutation: tuple[int, int, int] | None = None):
        if len(atom_layout_mnk) != 3 or min(atom_layout_mnk) < 1:
            raise api_error(f"TiledMma: atom_layout_mnk={atom_layout_mnk}; expected three positive counts (M, N, K)")
        self.atom, self.atom_layout_mnk = atom, tuple(atom_layout_mnk)
        base = tuple(a * w for a, w in zip(atom.mnk, atom_layout_mnk))
        if permutation is None:
            permutation = base
        if len(permutation) != 3 or any(not isinstance(p, int) or p < b or p % b for p, b in zip(permutation, base)):
            raise api_error(f"TiledMma: permutation {permutation} must be (M, N, K) sizes that are multiples of "
                            f"the atoms' tile {base} (atom {'x'.join(map(str, atom.mnk))} x atom_layout_mnk "
                            f"{atom_layout_mnk})")
        self.tile_mnk: tuple[int, int, int] = tuple(permutation)
        self.repeats: tuple[int, int, int] = tuple(p // b for p, b in zip(permutation, base))
        self._placements: dict[str, Placement] = {}

    @property
    def threads(self) -> int:
        return self.atom.threads * prod(self.atom_layout_mnk)

    @property
    def atom_layout(self) -> Layout:
        """(im, in, ik) -> atom id, column-major (CuTe's make_layout(atom_layout_mnk))."""
        wm, wn, wk = self.atom_layout_mnk
        return Layout((wm, wn, wk), (1, wm, wm * wn))

    def atom_coord(self, atom_id: int) -> tuple[int, int, int]:
        wm, wn, _ = self.atom_layout_mnk
        return atom_id % wm, (atom_id // wm) % wn, atom_id // (wm * wn)

    def _thread(self, thread: int) -> tuple[tuple[int, int, int], int]:
        if not 0 <= thread < self.threads:
            raise api_error(f"TiledMma: thread {thread} is outside its {self.threads} threads")
        return self.atom_coord(thread // self.atom.threads), thread % self.atom.threads

    def _values(self, role: str, lane: int) -> list[tuple[int, int]]:
        """(row, col) in the atom's operand tile of each value of thread-in-atom `lane`."""
        tv = self.atom.tv_layout(role)
        m, n, k = self.atom.mnk
        rows = {"A": m, "B": n, "C": m, "D": m}[role]
        values = prod(tv.shape[1]) if isinstance(tv.shape[1], tuple) else tv.shape[1]
        out = []
        for v in range(values):
            idx = tv((lane, v))
            out.append((idx % rows, idx // rows))
        return out

    def _partition(self, role: str, thread: int) -> list[tuple[int, int]]:
        """(row, col) in the step tile of each value of `thread` for `role`: value, then row repeat, then column
        repeat (CuTe's partitioned-tensor order)."""
        coord, lane = self._thread(thread)
        rows, cols = _MODES[role]
        step = [a * w for a, w in zip(self.atom.mnk, self.atom_layout_mnk)]
        origin = [c * a for c, a in zip(coord, self.atom.mnk)]
        return [(i * step[rows] + origin[rows] + r, j * step[cols] + origin[cols] + c)
                for j in range(self.repeats[cols]) for i in range(self.repeats[rows])
                for r, c in self._values(role, lane)]

    def partition_C(self, thread: int) -> list[tuple[int, int]]:
        """(m, n) of each accumulator value of `thread` in the step tile: value, then M repeat, then N repeat."""
        return self._partition("C", thread)

    def partition_A(self, thread: int) -> list[tuple[int, int]]:
        """(m, k) of each A value of `thread`: value, then M repeat, then K repeat."""
        return self._partition("A", thread)

    def partition_B(self, thread: int) -> list[tuple[int, int]]:
        """(n, k) of each B value of `thread`: value, then N repeat, then K repeat."""
        return self._partition("B", thread)

    def origin_layout(self, role: str, leading: int) -> Layout:
        """atom id -> element offset of its first atom's origin in a row-major tile of leading dimension
        `leading` (A: M x K, B: N x K, C/D: M x N)."""
        m, n, k = self.atom.mnk
        wm, wn, wk = self.atom_layout_mnk
        strides = {"A": (m * leading, 0, k), "B": (0, n * leading, k), "C": (m * leading, n, 0),
                   "D": (m * leading, n, 0)}
        if role not in strides:
            raise api_error(f"TiledMma.origin_layout: role {role!r} is not one of A, B, C, D")
        return Layout((wm, wn, wk), strides[role])

    def repeat_offset(self, role: str, leading: int, i: int = 0, j: int = 0) -> int:
        """Element offset, from the group's origin, of its atom at repeat i (along M for A and C/D, along N for
        B) and, for C/D, repeat j along N, in a row-major tile of leading dimension `leading`."""
        m, n, _ = self.atom.mnk
        wm, wn, _ = self.atom_layout_mnk
        if role == "B":
            return i * wn * n * leading
        return i * wm * m * leading + (j * wn * n if role in ("C", "D") else 0)

    def tiles(self, shape_mnk: tuple[int, int, int]) -> tuple[int, int, int]:
        """How many step tiles cover a problem of `shape_mnk` along M, N and K; a CompileError at the caller's
        line if the problem is not a whole number of tiles."""
        for name, size, tile in zip("MNK", shape_mnk, self.tile_mnk):
            if size <= 0 or size % tile:
                raise api_error(f"the problem's {name}={size} is not a multiple of the tile's {name}={tile} "
                                f"(tile {'x'.join(map(str, self.tile_mnk))} of {self.atom.ptx})")
        return tuple(size // tile for size, tile in zip(shape_mnk, self.tile_mnk))

    # -- a fragment's coordinates and rows, at run time (mmatom/fragments.py) ---------------------------------

    def placement(self, role: str) -> Placement:
        """Where each value of `role`'s fragment (fragment_type's element order) lies in the step tile, split into a
        thread part (layouts of the thread index) and a constant per value; checked on every thread and value (once
        per process for a tile of the same atom and shape: evaluating every thread's values is a build's hot spot)."""
        key = (self.atom, self.atom_layout_mnk, self.tile_mnk, role)
        if role not in self._placements and key in _PLACEMENTS:
            self._placements[role] = _PLACEMENTS[key]
        if role not in self._placements:
            ftype = self.fragment_type(role)  # the role's registers, or the error that it has none
            what = f"{role} of {self.atom.ptx}"
            if self.atom.op == "wgmma":  # the fragment spans the whole tile: its own TV layout is the truth
                tv, rows = ftype.layout.data, self.tile_mnk[0]
                if tv[0].size() != self.threads:
                    raise api_error(f"TiledMma.placement: the {what} fragment covers {tv[0].size()} threads, the tile "
                                    f"{self.threads} (atom_layout_mnk {self.atom_layout_mnk}: wgmma tiles M only)")
                # every (thread, value)'s offset at once, threads fastest: thread t's values are offsets[t::threads]
                offsets, threads = tv.offsets(), tv[0].size()
                self._placements[role] = placement(what, tv[0].shape, lambda t: [
                    (i % rows, i // rows) for i in offsets[t::threads]])
            else:  # register atoms: CuTe's partition, whose order (value, row repeat, column repeat) is the type's
                lanes = self.atom.tv_layout(role)[0]
                if lanes.size() != self.atom.threads:
                    raise api_error(f"TiledMma.placement: {what} spreads {self.atom.threads} lanes over "
                                    f"{lanes.size()} logical threads; its coordinates have no per-thread base")
                self._placements[role] = placement(what, (lanes.shape, self.atom_layout_mnk),
                                                   lambda t: self._partition(role, t))
            _PLACEMENTS[key] = self._placements[role]
        return self._placements[role]

    def fragment_coords(self, kb: KernelBuilder, role: str = "C", thread: Value | None = None) -> FragmentCoords:
        """(row, col) in the step tile of each of this thread's `role` values, as i32 Values: `coords[v]`, in the
        fragment's element order (what kb.extract(fragment, v) reads). `thread` is the thread's index in this tile,
        by default tid.x modulo its threads (a warp-specialized kernel whose MMA threads start past 0 passes its own).
        The thread's base row and column are emitted here (shifts and masks); each coords[v] adds constants."""
        place = self.placement(role)
        if thread is None:
            thread = kb.tid() % self.threads if kb.threads > self.threads else kb.tid()
        return FragmentCoords(kb, place, thread)

    def map_with_coords(self, kb: KernelBuilder, fragment: Value, fn, coords: FragmentCoords | None = None) -> Value:
        """The fragment with `fn(x, row, col)` applied to each of this thread's values, (row, col) its place in the
        step tile (i32 Values): masks (`mmatom.select(col < n, x, float("-inf"))`) and per-row or per-column scales.
        `coords` reuses a fragment_coords of the same role (its thread base is not emitted again)."""
        role = self._role_of(fragment, "map_with_coords")
        if coords is None:
            coords = self.fragment_coords(kb, role)
        elif coords.placement is not self.placement(role):
            raise api_error(f"TiledMma.map_with_coords: the coordinates are of {coords.placement.what}, the fragment "
                            f"is {role} of {self.atom.ptx}")
        return kb.map(fragment, lambda x, v: fn(x, *coords[v]))

    def value_rows(self, role: str = "C") -> tuple[int, ...]:
        """For each fragment value, which of reduce_rows' results is its row's (the same on every thread)."""
        return self.placement(role).value_rows

    def reduce_rows(self, kb: KernelBuilder, fragment: Value, op: str) -> list[Value]:
        """`op` ("max", "min" or "sum") over each row of the tile this thread holds values of, as the atom places
        them: one Value per row (ascending; `value_rows` maps a value to its entry), the thread's values of the row
        combined, then the lanes sharing the row (shfl.bfly over the lane bits the TV layout says do not change the
        row). Every lane holding the row gets the whole row's result. A CompileError if a row spans warps."""
        return reduce_rows(kb, fragment, self.placement(self._role_of(fragment, "reduce_rows")), op)

    def _role_of(self, fragment: Value, what: str) -> str:
        """The role whose fragment_type `fragment` has; a CompileError naming the types this tile has."""
        ftype = getattr(fragment, "type", None)
        roles = tuple(_MODES) if self.atom.op != "wgmma" else ("A", "C", "D") if self.a_in_registers else ("C", "D")
        role = ftype.role.data if isinstance(ftype, FragmentType) else None
        if role not in roles or self.fragment_type(role) != ftype:
            expected = ", ".join(str(self.fragment_type(r)) for r in roles)
            raise api_error(f"TiledMma.{what}: the fragment has type {ftype}; this tile's fragments are {expected}")
        return role

    # -- warpgroup tiles (wgmma): operands in SMEM, one mma.wgmma_tile per step ---------------------------

    def _require_wgmma(self, what: str) -> None:
        if self.atom.op != "wgmma":
            raise api_error(f"TiledMma.{what} is for wgmma atoms; this one tiles {self.atom.ptx}")

    def smem_desc_type(self, role: str, swizzle: str = "sw128", major: str = "k") -> SmemDescType:
        """The `!mma.smem_desc` type of the step tile's A (M x K) or B (N x K) in SMEM, in the canonical layout for
        `swizzle`: K-major (one swizzle row along K: 64 bf16 elements for sw128), or MN-major (`major="mn"`: M or N
        contiguous, one swizzle row of it per K row -- what a TMA box of a K x M / K x N tensor lands as; wgmma
        reads it transposed, 16-bit types only)."""
        self._require_wgmma("smem_desc_type")
        if role not in ("A", "B") or swizzle not in _SWIZZLE_BYTES or major not in ("k", "mn"):
            raise api_error(f"TiledMma.smem_desc_type: role A or B, swizzle one of {', '.join(_SWIZZLE_BYTES)}, major "
                            f"k or mn; got {role!r}, {swizzle!r}, {major!r}")
        if role == "A" and self.a_in_registers:
            raise api_error(f"TiledMma.smem_desc_type: {self.atom.ptx} takes A in registers (fragment_type('A'))")
        M, N, K = self.tile_mnk
        rows, elem = (M, self.atom.catalogue.a) if role == "A" else (N, self.atom.catalogue.b)
        bits = BITS[elem]
        operand = SmemOperand(rows, K, bits, major, _SWIZZLE_BYTES[swizzle])
        try:
            # K-major: 8-row groups 1024 B apart; MN-major: swizzle-row-wide column blocks a whole K extent apart
            stride = rows * 128 if major == "k" else 128 * K
            layout = canonical_layout(operand, stride, 1024)
        except DescriptorError as err:
            raise api_error(f"TiledMma.smem_desc_type({role!r}, {swizzle!r}, {major!r}) for a {rows}x{K} tile: "
                            f"{err}") from None
        return SmemDescType(role, elem, major, _SWIZZLE_BYTES[swizzle], layout)

    def fragment_type(self, role: str) -> FragmentType:
        """The fragment one thread group holds of the step tile. Register atoms: its tile of repeats (the atom's TV
        layout placed in a (repeats x atom) tile, atom values first: the operand type of `mma_tile`; the atom's
        own type when nothing repeats). wgmma: the accumulator of the whole tile, and for an RS atom (A in
        registers) the A of the whole M x K tile, each warpgroup its accumulator's rows (B is read from SMEM)."""
        if self.atom.op == "wgmma":
            return self._wgmma_fragment_type(role)
        if role not in _MODES:
            raise api_error(f"TiledMma.fragment_type: role {role!r} is not one of A, B, C, D")
        rows, cols = _MODES[role]
        atom_type = self.atom.fragment_type(role)
        repeats = (self.repeats[rows], self.repeats[cols])
        if repeats == (1, 1):
            return atom_type
        return FragmentType(role, atom_type.elem.data, tile_tv_layout(self.atom.catalogue, role, repeats))

    @property
    def a_in_registers(self) -> bool:
        """Whether this is an RS wgmma tile (the atom takes A in registers: mma_regs) rather than SS (mma_smem)."""
        return self.atom.op == "wgmma" and self.atom.residency("A") == "register"

    def _wgmma_fragment_type(self, role: str) -> FragmentType:
        M, N, K = self.tile_mnk  # each warpgroup repeats its atom down M past its own 64 rows
        warpgroups = self.atom_layout_mnk[0]
        if role in ("C", "D"):
            return FragmentType(role, self.atom.catalogue.d, wgmma_accumulator_layout(M, N, warpgroups))
        if role == "A" and self.a_in_registers:
            elem = self.atom.fragment_type("A").elem.data
            return FragmentType("A", elem, wgmma_register_a_layout(self.atom.catalogue.a, self.atom.mnk[2], M, K,
                                                                   warpgroups))
        hint = " (an atom with a_residency='register' takes A in registers)" if role == "A" else ""
        raise api_error(f"TiledMma.fragment_type: {self.atom.ptx} reads {role} from SMEM; role {role!r} has no "
                        f"registers (use smem_desc_type){hint}")

    @property
    def group_tile_mnk(self) -> tuple[int, int, int]:
        """One thread group's tile: the atom times the repeats (M, N, K)."""
        return tuple(a * r for a, r in zip(self.atom.mnk, self.repeats))

    def mma_tile(self, kb: KernelBuilder, a: Value, b: Value, c: Value) -> Value:
        """One step of one thread group as a single `mma.sync_tile` (operands of `fragment_type`), lowered to its
        repeats x atoms with the K steps chained."""
        if self.atom.op != "mma.sync":
            raise api_error(f"TiledMma.mma_tile is for mma.sync atoms; this one tiles {self.atom.ptx}")
        op = SyncTileOp(self.group_tile_mnk, self.atom.mnk, kb.ssa(a), kb.ssa(b), kb.ssa(c), self.fragment_type("D"),
                        satfinite=bool(self.atom.catalogue.satfinite))
        return kb.wrap(kb.builder.insert(op).results[0])

    def mma_smem(self, kb: KernelBuilder, a: Value, b: Value, c: Value, accumulate: bool = True) -> Value:
        """One step as a single `mma.wgmma_tile` (A and B descriptors of smem_desc_type, C of fragment_type):
        each warpgroup issues its M repeats' atoms along K; the verifier checks every atom's descriptor window.
        `accumulate=False`: D = A B, C's values are not read (scale-d 0 on the first K step; pass the registers
        D is to land in, e.g. the previous step's)."""
        self._require_wgmma("mma_smem")
        if self.a_in_registers:
            raise api_error(f"TiledMma.mma_smem: {self.atom.ptx} takes A in registers; use mma_regs(kb, a_fragment, "
                            f"b_desc, c)")
        op = WgmmaTileOp(self.tile_mnk, kb.ssa(a), kb.ssa(b), kb.ssa(c), self.fragment_type("D"),
                         scale_d=None if accumulate else 0)
        return kb.wrap(kb.builder.insert(op).results[0])

    def mma_regs(self, kb: KernelBuilder, a: Value, b: Value, c: Value) -> Value:
        """One RS step as a single `mma.wgmma_tile` whose A is a register fragment of fragment_type("A") (e.g. an
        accumulator converted by `kb.convert(s, tiled.fragment_type("A"))`), B a descriptor of smem_desc_type("B")
        (K- or N-major), C of fragment_type("C"): each warpgroup chains its K/k atoms in one fenced sequence.
        The fence before it must follow A's definition (verify-wgmma-lifecycle)."""
        self._require_wgmma("mma_regs")
        if not self.a_in_registers:
            raise api_error(f"TiledMma.mma_regs: {self.atom.ptx} reads A from SMEM; take an atom with "
                            f"a_residency='register', or use mma_smem")
        want = self.fragment_type("A")
        got = getattr(kb.ssa(a), "type", None)
        if got != want:
            raise api_error(f"TiledMma.mma_regs: A has type {got}; this tile's register A is {want} "
                            f"(kb.convert(fragment, tiled.fragment_type('A')))")
        op = WgmmaTileOp(self.tile_mnk, kb.ssa(a), kb.ssa(b), kb.ssa(c), self.fragment_type("D"))
        return kb.wrap(kb.builder.insert(op).results[0])

    def mma(self, kb: KernelBuilder, a: Sequence[Value], b: Sequence[Value],
            c: Sequence[Sequence[Value]]) -> list[list[Value]]:
        """One K step of one atom group: `a[i]` the A fragment of M repeat i, `b[j]` the B fragment of N repeat j,
        `c[i][j]` the accumulators; returns the D fragments d[i][j] (rm x rn atoms)."""
        rm, rn, _ = self.repeats
        if len(a) != rm or len(b) != rn or len(c) != rm or any(len(row) != rn for row in c):
            raise api_error(f"TiledMma.mma: expected {rm} A fragments, {rn} B fragments and {rm}x{rn} "
                            f"accumulators; got {len(a)}, {len(b)} and {[len(r) for r in c]}")
        return [[kb.mma(self.atom, a[i], b[j], c[i][j]) for j in range(rn)] for i in range(rm)]


__all__ = ["TiledMma"]
