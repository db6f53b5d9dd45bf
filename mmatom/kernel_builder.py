"""KernelBuilder: how a DSL writes a kernel in Python, op by op, without spelling IR text.

    kb = mmatom.KernelBuilder("tile", [("a", "ptr"), ("b", "ptr"), ("d", "ptr")], "sm_80", threads=128)
    row = kb.ctaid("x") * 64 + kb.warp_id() * 16       # Values take Python's operators (mmatom/values.py)
    with kb.if_(kb.tid() == 0): ...
    kb.wgmma.fence(); kb.tma.load(...); kb.mbarrier.wait(...)   # one namespace per hardware unit (mmatom/arch.py)
    ...
    module, launch = kb.finish()       # verified; launch.block == (128, 1, 1)
    kernel = mmatom.compile(module)

Every op it creates is located at the DSL line that called the builder (so a verifier error names the DSL's
file:line), the kernel declares its thread count (`nvvm.reqntid`, PTX `.reqntid`) and its dynamic shared memory
(`mma.shared_bytes`), and `.builder` is a plain xDSL Builder for any op the helpers do not cover (`kb.wrap(ssa)`
turns its results into Values, `value.ssa` is a Value's xDSL value).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm, math, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    VectorType,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from mmatom.atoms.chips import UnknownChip, chip
from mmatom.atoms.limits import SMEM_BYTES, THREADS_PER_CTA
from mmatom.dialects import nvvm
from mmatom.dialects.launch_bounds import CLUSTER_DIM, KERNEL, MINCTASM, REQNTID, SHARED_BYTES
from mmatom.dialects.mma import (
    ConvertOp,
    CopyToSmemOp,
    ExtractOp,
    FillOp,
    FragmentType,
    InsertOp,
    LoadFragmentOp,
    MakeDescOp,
    SmemDescType,
    StoreFragmentOp,
    StoreTileToSmemOp,
    SyncOp,
)
from mmatom.atoms.tma import MAP_BYTES
from mmatom.dialects.mma_tma import BYVAL, GRID_CONSTANT, AsTensorMapOp
from mmatom.dialects.mma_types import TARGET_ATTR, TargetAttr, TensorMapType
from mmatom.dialects.source import verify_located
from mmatom.layout import ComposedLayout, Layout, parse_any_layout
from mmatom.lowering.layout_arith import emit_layout

from mmatom.dialects.nvvm import MMALayoutAttr
from mmatom.dialects import nvvm_hopper
from mmatom.dialects.nvvm_warp import Ex2Op, RcpApproxFtzF32Op

from .arch import Atomic, Cluster, CpAsync, Mbarrier, Sync, Tma, Wgmma
from .control_flow import If, Loop
from .errors import CompileError, api_error, caller_diagnostic
from .lookup import Atom
from .scheduler import ListedWalk, StreamKWalk, TileScheduler
from .smem import SmemTiles, allocate_tiles
from .smem_ring import SmemRing
from .values import Value, constant_attr, max_value
from .warp import Shfl

PARAM_TYPES: dict[str, Attribute] = {"ptr": llvm.LLVMPointerType(IntAttr(1)), "i32": i32, "i64": i64, "f32": f32,
                                     "f64": f64}
SCALAR_TYPES = {"f32": f32, "i32": i32, "bf16": BFloat16Type(), "f16": Float16Type()}
_ROUND_TO_INTEGER = 12582912.0  # 1.5 x 2^23: x + this rounds x to an integer held in the sum's low mantissa bits
# 2^f ~ c0 + c1 f + c2 f^2 + c3 f^3 on [-1/2, 1/2]: least relative error (Lawson's iteration, f32 coefficients)
_EX2_POLY = (0.9999280571937561, 0.6932609677314758, 0.24261115491390228, 0.0551716685295105)
SMEM_SYMBOL = "smem"
Operand = Value | SSAValue | int | float


CHUNK = VectorType(i32, [4])  # a 16-byte chunk as four 32-bit words (load_chunk, store_chunk)


@dataclass(frozen=True)
class LaunchConfig:
    """How the kernel must be launched: the block it declares and the dynamic shared memory it uses (the grid is
    the DSL's choice)."""

    block: tuple[int, int, int]
    shared_bytes: int


class KernelBuilder:
    """One kernel (`llvm.func` with `nvvm.kernel`) of `threads` threads for `target`, parameters in order;
    `cluster=(2, 1, 1)` makes it a thread-block-cluster kernel (launched in clusters of that shape)."""

    def __init__(self, name: str, params: Sequence[tuple[str, str | Attribute]], target: str, *, threads: int = 32,
                 min_ctas_per_sm: int | None = None, cluster: tuple[int, ...] | None = None):
        try:
            chip(target)
        except UnknownChip as err:
            raise api_error(str(err)) from None
        if not 1 <= threads <= THREADS_PER_CTA:
            raise api_error(f"KernelBuilder: threads={threads}; a CTA has 1 to {THREADS_PER_CTA} threads")
        types, maps = _param_types(params)
        self.name, self.target, self.threads, self.min_ctas_per_sm = name, target, threads, min_ctas_per_sm
        self.cluster_shape = None if cluster is None else tuple(cluster) + (1,) * (3 - len(cluster))
        self.block = Block(arg_types=types)
        self.params = {pname: Value(self, arg) for (pname, _), arg in zip(params, self.block.args)}
        for (pname, _), arg in zip(params, self.block.args):
            arg.name_hint = pname
        self.builder = Builder(InsertPoint.at_end(self.block))
        self.builder.operation_insertion_handler.append(_locate_at_dsl_line)
        self._tensor_maps = sorted(maps)
        for i, map_type in maps.items():
            name = params[i][0]
            self.params[name] = self.wrap(self.builder.insert(AsTensorMapOp(self.block.args[i], map_type)).res)
        self._shared_bytes = 0
        self._smem_base: Value | None = None
        # SMEM addresses are declared at the top of the kernel, after the last such declaration, so a region
        # allocated anywhere (inside a branch, or lazily by a ring) dominates every use
        self._last_declaration: Operation | None = self.block.last_op
        self._finished = False
        self.mbarrier, self.tma, self.wgmma = Mbarrier(self), Tma(self), Wgmma(self)
        self.cp_async, self.atomic = CpAsync(self), Atomic(self)
        self.sync, self.cluster, self.shfl = Sync(self), Cluster(self), Shfl(self)

    # -- values ---------------------------------------------------------------------------------------------

    def wrap(self, ssa: SSAValue) -> Value:
        """An xDSL value (e.g. the result of an op built with `.builder`) as a Value of this kernel."""
        return Value(self, ssa)

    def ssa(self, x: Operand, type_: Attribute = i32) -> SSAValue:
        """The xDSL value of `x`: a Value's, or a new constant of `type_` for a Python number."""
        if isinstance(x, Value):
            return x.ssa
        if isinstance(x, SSAValue):
            return x
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return self.const(x, type_).ssa
        raise api_error(f"{x!r} is neither a kernel value nor a Python number")

    def param(self, name: str) -> Value:
        if name not in self.params:
            raise api_error(f"kernel '{self.name}' has no parameter '{name}'; it has {', '.join(self.params)}")
        return self.params[name]

    def const(self, value: int | float, type_: Attribute = i32) -> Value:
        """A constant of `type_` (i32 unless said; f32/f64 for floats)."""
        if isinstance(value, float) and type_ == i32:
            type_ = f32
        return self.wrap(self.builder.insert(arith.ConstantOp(constant_attr(value, type_))).result)

    def fma(self, a: Operand, b: Operand, c: Operand) -> Value:
        """a * b + c on floats, rounded once (math.fma)."""
        a = self.ssa(a, f32)
        return self.wrap(self.builder.insert(math.FmaOp(a, self.ssa(b, a.type), self.ssa(c, a.type))).result)

    def ex2(self, a: Operand, ftz: bool = True) -> Value:
        """2^a on f32, approximate: nvvm.ex2, PTX ex2.approx.ftz.f32 (2 ulp; `ftz=False`: ex2.approx.f32, subnormals
        kept). e^x is ex2(x * log2(e)): fold the constant into a scale the kernel multiplies by anyway."""
        return self.wrap(self.builder.insert(Ex2Op(self._f32("ex2", a), ftz)).res)

    def ex2_fma(self, a: Operand) -> Value:
        """2^a on f32 without the MUFU unit that ex2 runs on: a = j + f with j = round(a) (adding 1.5 x 2^23 leaves j
        in the sum's low bits), 2^f for |f| <= 1/2 by a degree-3 polynomial (three fma: relative error 7.5e-5,
        below bf16's rounding), and j added to its exponent bits. About eight FMA-pipe instructions where ex2 is one
        MUFU one: a softmax bound by MUFU gives a share of its values to this (FlashAttention-4's trick). Takes
        a <= 127; below -125 it gives ~2^-125, not 0 (-inf too: use ex2 where values may be masked), and a NaN
        gives 2^-125 (clamped there: 2^f < 1 times 2^-126 would need a subnormal's bits)."""
        a = max_value(self.wrap(self._f32("ex2_fma", a)), -125.0)
        rounded = a + _ROUND_TO_INTEGER
        f = a - (rounded - _ROUND_TO_INTEGER)
        p = self.fma(self.fma(self.fma(f, _EX2_POLY[3], _EX2_POLY[2]), f, _EX2_POLY[1]), f, _EX2_POLY[0])
        # round(a) sits in `rounded`'s low bits; shifted to the exponent field the constant's own bits drop out
        return self.bitcast(self.bitcast(p, i32) + (self.bitcast(rounded, i32) << 23), f32)

    def bitcast(self, a: Operand, type_: Attribute | str) -> Value:
        """a's bits read as another type of the same width (arith.bitcast: f32 <-> i32, f16/bf16 <-> i16): no
        instruction where both live in one register class, else a PTX mov."""
        a = self.ssa(a, f32)
        type_ = SCALAR_TYPES.get(type_, type_) if isinstance(type_, str) else type_
        if not isinstance(type_, Attribute) or getattr(type_, "bitwidth", None) != getattr(a.type, "bitwidth", 0):
            raise api_error(f"bitcast: {a.type} to {type_}; a type of the same width (\"f32\" <-> \"i32\")")
        return self.wrap(self.builder.insert(arith.BitcastOp(a, type_)).result)

    def int_cast(self, a: Operand, type_: str) -> Value:
        """An integer Value at another width ("i16", "i32" or "i64"): the low bits (arith.trunci), or
        sign-extended (arith.extsi) -- e.g. an address's low bits, computed in i64, for i32 arithmetic, or a
        word's low half to store as 16 bits."""
        a = self.ssa(a)
        to = {"i16": IntegerType(16), "i32": i32, "i64": i64}.get(type_)
        if to is None or not isinstance(a.type, IntegerType):
            raise api_error(f"int_cast: {a.type} to {type_!r}; an integer Value to \"i16\", \"i32\" or \"i64\"")
        if a.type == to:
            return self.wrap(a)
        op = arith.TruncIOp if a.type.width.data > to.width.data else arith.ExtSIOp
        return self.wrap(self.builder.insert(op(a, to)).result)

    def lg2(self, a: Operand) -> Value:
        """log2(a) on f32, approximate: math.log2, PTX lg2.approx.ftz.f32 (e.g. a row's log-sum-exp, m + lg2(l))."""
        return self.wrap(self.builder.insert(math.Log2Op(self._f32("lg2", a))).result)

    def rcp(self, a: Operand) -> Value:
        """1/a on f32, approximate: nvvm.rcp.approx.ftz.f, PTX rcp.approx.ftz.f32 (1 ulp, subnormals flushed)."""
        return self.wrap(self.builder.insert(RcpApproxFtzF32Op(self._f32("rcp", a))).res)

    def _f32(self, what: str, a: Operand) -> SSAValue:
        a = self.ssa(a, f32)
        if a.type != f32:
            raise api_error(f"{what}: operand of type {a.type}; it takes f32 (convert it first)")
        return a

    def special_register(self, reg: str) -> Value:
        """A PTX special register by its nvvm name (`tid.x`, `ctaid.y`, `cluster.ctarank`, ...), i32."""
        if reg not in nvvm.SREG_OPS:
            raise api_error(f"special_register: {reg!r}; one of {', '.join(sorted(nvvm.SREG_OPS))}")
        return self.wrap(self.builder.insert(nvvm.SREG_OPS[reg]()).res)

    def tid(self, dim: str = "x") -> Value:
        """The thread index in the CTA (`%tid.x`), i32."""
        return self.special_register(f"tid.{dim}")

    def ctaid(self, dim: str = "x") -> Value:
        """The CTA index in the grid (`%ctaid.x`), i32."""
        return self.special_register(f"ctaid.{dim}")

    def nctaid(self, dim: str = "x") -> Value:
        """The grid's extent in CTAs (`%nctaid.x`), i32."""
        return self.special_register(f"nctaid.{dim}")

    def warp_id(self) -> Value:
        """tid.x / 32 (the warp's index in the CTA, i32)."""
        return self.tid() >> 5

    def warpgroup_id(self) -> Value:
        """tid.x / 128."""
        return self.tid() >> 7

    def layout(self, layout: Layout | ComposedLayout | str, coords) -> Value:
        """`layout(coords)` on runtime values (see mmatom.emit_layout)."""
        if isinstance(layout, str):
            layout = parse_any_layout(layout)
        coords = [self.ssa(c) for c in coords] if isinstance(coords, (list, tuple)) else self.ssa(coords)
        try:
            return self.wrap(emit_layout(self.builder, layout, coords))
        except ValueError as err:
            raise api_error(f"layout {layout}: {err}") from None

    # -- shared memory ---------------------------------------------------------------------------------------

    def smem(self, nbytes: int, align: int = 1024) -> Value:
        """A region of this kernel's dynamic shared memory (`!llvm.ptr<3>`), `align`-byte aligned; the kernel
        declares the total (`mma.shared_bytes`), at most 227 KiB."""
        if nbytes <= 0 or align <= 0 or align & (align - 1):
            raise api_error(f"smem({nbytes}, align={align}): need a positive size and a power-of-two alignment")
        offset = -(-self._shared_bytes // align) * align
        if offset + nbytes > SMEM_BYTES:
            raise api_error(f"smem({nbytes}): {offset + nbytes} bytes of shared memory in all; a CTA has at most "
                            f"{SMEM_BYTES} ({SMEM_BYTES // 1024} KiB)")
        self._shared_bytes = offset + nbytes
        if self._smem_base is None:
            self._smem_base = self.wrap(self._declare(
                llvm.AddressOfOp(SMEM_SYMBOL, llvm.LLVMPointerType(IntAttr(3)))).result)
        if offset == 0:
            return self._smem_base
        return self.wrap(self._declare(llvm.GEPOp(self._smem_base.ssa, [offset], pointee_type=IntegerType(8),
                                                  result_type=self._smem_base.type)).result)

    def _declare(self, op: Operation) -> Operation:
        """Insert `op` among the kernel's declarations at its top (see __init__)."""
        here = self.builder.insertion_point
        last = self._last_declaration
        self.builder.insertion_point = InsertPoint.after(last) if last else InsertPoint.at_start(self.block)
        try:
            self.builder.insert(op)
        finally:
            self.builder.insertion_point = here
        self._last_declaration = op
        return op

    def smem_tiles(self, shape: int | tuple[int, ...], tile: SmemDescType | int) -> SmemTiles:
        """`shape` SMEM tiles of `tile` (an `!mma.smem_desc` type, or a byte count for raw boxes), indexed
        `tiles[i]` / `tiles[i, j]` by ints or Values (mmatom/smem.py)."""
        return allocate_tiles(self, shape, tile)

    def smem_ring(self, stages: int, consumers: int, producers: int = 1, **tiles: SmemDescType) -> SmemRing:
        """An N-stage ring of the named SMEM tiles with full/empty mbarriers (mmatom/smem_ring.py); `producers`:
        the full barrier's arrivals (1, the TMA producer's, + the threads that write a tile themselves)."""
        return SmemRing(self, stages, consumers, tiles, producers)

    def tile_scheduler(self, tiles_m: int | Value, tiles_n: int | Value, cluster: tuple[int, int] = (1, 1),
                       group_m: int | Value = 1, layers: int | Value = 1, snake: bool | Value = False,
                       shared_by: int = 1) -> TileScheduler:
        """A persistent, grouped-raster walk over output tiles, `layers` grids of them, odd whole waves backwards
        with `snake`; sizes, group_m and snake may be runtime values; `shared_by` CTAs of a cluster taking each tile
        together (split-K in a cluster) (mmatom/scheduler.py)."""
        return TileScheduler(self, tiles_m, tiles_n, cluster, group_m, layers, snake, shared_by)

    def stream_k(self, tiles: TileScheduler, k_steps: int | Value) -> StreamKWalk:
        """Stream-K over `tiles`' tiles of `k_steps` K steps each: every CTA an equal run of all the tiles' steps
        (mmatom/scheduler.py StreamKWalk)."""
        return StreamKWalk(self, tiles, k_steps)

    def listed_walk(self, tiles: TileScheduler, table: Operand, words: int = 1) -> ListedWalk:
        """`tiles`' units in the order a host-built table lists them per CTA (`table`: a pointer to i32, entries of
        `words` words, the unit first; mmatom/scheduler.py ListedWalk): a static schedule balanced on the host."""
        return ListedWalk(self, tiles, self.wrap(self.ssa(table)), words)

    # -- control flow ---------------------------------------------------------------------------------------

    def for_range(self, lo: Operand, hi: Operand, step: Operand, iter_args: Sequence[Operand] = ()) -> Loop:
        """`scf.for` from lo to hi by step (i32), carrying `iter_args` (Python ints become i32; fragments too)."""
        bounds = [self.ssa(v) for v in (lo, hi, step)]
        carried = [self.ssa(v) for v in iter_args]
        body = Block(arg_types=[bounds[0].type, *(v.type for v in carried)])
        op = scf.ForOp(*bounds, carried, Region(body))
        self.builder.insert(op)
        return Loop(self, op)

    def if_(self, condition: Value, otherwise: Sequence[Operand] = ()) -> If:
        """`scf.if condition`: `with kb.if_(c) as branch: ...`, `with branch.otherwise(): ...`; with `otherwise`
        values it has results, the branch's `branch.yield_(...)` where `c` holds, else those values
        (`branch.results` after it)."""
        defaults = [self.ssa(v) for v in otherwise]
        op = scf.IfOp(self.ssa(condition), [d.type for d in defaults], Region(Block()),
                      Region(Block()) if defaults else Region())
        self.builder.insert(op)
        if defaults:
            op.false_region.block.add_op(scf.YieldOp(*defaults))
        return If(self, op)

    # -- fragments and atoms --------------------------------------------------------------------------------

    def load_fragment(self, ptr: Operand, layout: str, frag_type: FragmentType, offset: Operand | None = None) -> Value:
        """The atom operand's registers from a global tile (`layout` maps tile coordinates to element offsets
        from `ptr` + `offset` elements)."""
        offset = None if offset is None else self.ssa(offset)
        return self.wrap(self.builder.insert(LoadFragmentOp(self.ssa(ptr), layout, frag_type, offset)).results[0])

    def store_fragment(self, value: Operand, ptr: Operand, layout: str, offset: Operand | None = None) -> None:
        offset = None if offset is None else self.ssa(offset)
        self.builder.insert(StoreFragmentOp(self.ssa(value), self.ssa(ptr), layout, offset))

    def fill(self, value: float, frag_type: FragmentType) -> Value:
        element = self.const(value, f32 if frag_type.elem.data in ("f32", "f16", "bf16") else i32)
        return self.wrap(self.builder.insert(FillOp(element.ssa, frag_type)).results[0])

    def convert(self, value: Operand, to: FragmentType | str) -> Value:
        """Element conversion and/or a role change (D -> C to carry an accumulator); `to` a fragment type, or an
        element type name ("bf16") to convert the elements and keep role and layout."""
        value = self.ssa(value)
        if isinstance(to, str):
            if not isinstance(value.type, FragmentType):
                raise api_error(f"convert: {value.type} is not a fragment")
            to = FragmentType(value.type.role.data, to, value.type.layout.data)
        return self.wrap(self.builder.insert(ConvertOp(value, to)).results[0])

    def extract(self, fragment: Operand, value: int) -> Value:
        """This thread's value `value` of a fragment, as a scalar (f32, f16, bf16, f64 or i32): what an epilogue
        reads. Which tile element it is: the fragment's TV layout (or TiledMma.partition_C)."""
        return self.wrap(self.builder.insert(ExtractOp(self.ssa(fragment), value)).results[0])

    def insert(self, scalar: Operand, fragment: Operand, value: int) -> Value:
        """The fragment with this thread's value `value` replaced by `scalar`."""
        fragment = self.ssa(fragment)
        if not isinstance(scalar, (Value, SSAValue)):  # a number: a constant of the fragment's element type
            scalar = self.const(scalar, ExtractOp(fragment, value).results[0].type)
        scalar = self.ssa(scalar)
        return self.wrap(self.builder.insert(InsertOp(scalar, fragment, value)).results[0])

    def map(self, fragment: Operand, fn) -> Value:
        """The fragment with `fn(x)` -- or `fn(x, index)`, index the value's place in the fragment -- applied to
        each of this thread's values (Values: operators, kb.fma, kb.ex2, mmatom.select ...)."""
        source = fragment = self.wrap(self.ssa(fragment))
        with_index = len(inspect.signature(fn).parameters) >= 2
        for v in range(fragment.type.layout.data[1].size()):
            x = self.extract(source, v)  # the source's value (not the chain's: each link has one use, its insert)
            fragment = self.insert(fn(x, v) if with_index else fn(x), fragment, v)
        return fragment

    def mma(self, atom: Atom, a: Operand, b: Operand, c: Operand) -> Value:
        """One register atom (mma.sync family): D = A * B + C."""
        if atom.op != "mma.sync":
            raise api_error(f"KernelBuilder.mma issues mma.sync atoms; {atom.ptx} is {atom.op} (use the builder "
                            f"for its own ops)")
        typed = atom.catalogue  # the resolved MmaSyncAtom
        op = SyncOp(atom.mnk, self.ssa(a), self.ssa(b), self.ssa(c), atom.fragment_type("D"), layout=typed.layout,
                    satfinite=typed.satfinite, kind=typed.kind, bitop=typed.bitop, rounding=typed.rounding)
        return self.wrap(self.builder.insert(op).results[0])

    # -- shared memory, wgmma and epilogue stores (sm_90a) ---------------------------------------------------

    def copy_to_smem(self, src: Operand, layout: str, dst, tile: SmemDescType | None = None,
                     offset: Operand | None = None) -> None:
        """Every thread of the kernel copies the global tile (`layout` from `src` + `offset` elements) into SMEM
        at `dst` (an SmemTile, or a pointer and its `tile` type), laid out and swizzled as its type says; then an
        async-proxy fence and a CTA barrier, so wgmma (the async proxy) sees it."""
        ptr, tile = (dst.ptr, dst.desc_type) if hasattr(dst, "desc_type") else (dst, tile)
        if tile is None:
            raise api_error("copy_to_smem: the destination's SMEM layout is unknown; pass an SmemTile or a tile type")
        offset = None if offset is None else self.ssa(offset)
        self.builder.insert(CopyToSmemOp(self.ssa(src), layout, self.ssa(ptr), tile, self.threads, offset))
        self.sync.fence_proxy_async()
        self.sync.barrier()

    def make_desc(self, ptr: Operand, desc_type: SmemDescType) -> Value:
        """The wgmma/tcgen05 matrix descriptor of the SMEM tile at `ptr` (SmemTile.desc() for a tile)."""
        return self.wrap(self.builder.insert(MakeDescOp(self.ssa(ptr), desc_type)).results[0])

    def stmatrix_tile(self, accumulator: Operand, block: int, dst, repeat: int = 0, transposed: bool = False,
                      row_bytes: int = 128) -> None:
        """Each warpgroup stores 64 of its rows (those of M repeat `repeat`) x one block of columns (`block`) of
        `row_bytes` (128, or 64 for a 16-bit tile whose N is an odd multiple of 32) of a wgmma accumulator into its
        own box at `dst` (an SmemTile or a pointer), swizzled as a TMA box of that span ("128b" / "64b":
        mma.stmatrix_tile); `transposed` (16-bit, N of 16, 32 or 64): as N rows of its 64 columns."""
        ptr = dst.ptr if hasattr(dst, "ptr") else dst
        self.builder.insert(StoreTileToSmemOp(self.ssa(accumulator), block, self.ssa(ptr), repeat, transposed,
                                              row_bytes))

    def stmatrix(self, ptr: Operand, registers: Sequence[Operand], transpose: bool = False) -> None:
        """The warp stores len(registers) (1, 2 or 4) 8x8 b16 matrices; see nvvm.stmatrix."""
        self.builder.insert(nvvm_hopper.StMatrixOp(self.ssa(ptr), [self.ssa(r) for r in registers],
                                                   MMALayoutAttr("col" if transpose else "row")))

    def load_scalar(self, ptr: Operand, type_: Attribute | str, index: Operand = 0) -> Value:
        """One element of global memory at `ptr` + `index` elements (an int or an i32 Value: e.g. a per-row scale
        factor a kernel reads on the device, or an operand's element at any alignment); `type_` an xDSL type or
        "f32", "i32", "bf16", "f16" (a 16-bit element goes into a fragment with kb.insert)."""
        found = SCALAR_TYPES.get(type_) if isinstance(type_, str) else type_
        if not isinstance(getattr(found, "bitwidth", None), int):
            raise api_error(f"load_scalar: element type {type_!r}; one of {', '.join(SCALAR_TYPES)}, or an xDSL "
                            f"type with a bit width")
        ptr = self.wrap(self.ssa(ptr)) + index * (found.bitwidth // 8)
        return self.wrap(self.builder.insert(llvm.LoadOp(ptr.ssa, found)).dereferenced_value)

    def store_scalar(self, value: Operand, ptr: Operand, index: Operand = 0) -> None:
        """Store one element (a Value of a scalar type: f32, i32, a 16-bit one from load_scalar or int_cast) to
        global memory at `ptr` + `index` elements (an int or a Value): what a kernel writes per row or per thread,
        e.g. a row's log-sum-exp."""
        value = self.ssa(value, f32 if isinstance(value, float) else i32)
        ptr = self.wrap(self.ssa(ptr)) + index * (value.type.bitwidth // 8)
        self.builder.insert(llvm.StoreOp(value, ptr.ssa))

    def load_chunk(self, ptr: Operand) -> list[Value]:
        """The 16 bytes at `ptr` (16-byte aligned, shared or global memory) as four i32 words, in one vector load
        (ld.v4.b32): e.g. a row's 16-byte chunk of a staged tile, read back to be stored through a pointer."""
        vector = self.builder.insert(llvm.LoadOp(self.ssa(ptr), CHUNK)).dereferenced_value
        return [self.wrap(self.builder.insert(nvvm.ExtractElementOp(vector, self.ssa(i))).res) for i in range(4)]

    def store_chunk(self, words: Sequence[Operand], ptr: Operand) -> None:
        """Four i32 words to the 16 bytes at `ptr` (16-byte aligned, shared or global memory) in one vector store
        (st.v4.b32)."""
        if len(words) != 4:
            raise api_error(f"store_chunk: {len(words)} words; a 16-byte chunk is 4 words of 32 bits")
        vector = self.builder.insert(llvm.UndefOp(CHUNK)).res
        for i, word in enumerate(words):
            vector = self.builder.insert(llvm.InsertElementOp(vector, self.ssa(word), self.ssa(i))).res
        self.builder.insert(llvm.StoreOp(vector, self.ssa(ptr)))

    # -- the kernel -----------------------------------------------------------------------------------------

    def finish(self) -> tuple[ModuleOp, LaunchConfig]:
        """The module (verified: a CompileError at the DSL's line if an op is illegal) and its launch config."""
        if self._finished:
            raise api_error(f"kernel '{self.name}' is already finished")
        self._finished = True
        self.builder.insert(llvm.ReturnOp())
        func = llvm.FuncOp(self.name, llvm.LLVMFunctionType([a.type for a in self.block.args]),
                           llvm.LinkageAttr("external"), body=Region(self.block))
        if self._tensor_maps:
            by_value = DictionaryAttr({BYVAL: llvm.LLVMArrayType(IntAttr(MAP_BYTES), IntegerType(8)),
                                       GRID_CONSTANT: UnitAttr()})
            func.properties["arg_attrs"] = ArrayAttr([by_value if i in self._tensor_maps else DictionaryAttr({})
                                                      for i in range(len(self.block.args))])
        func.attributes[KERNEL] = UnitAttr()
        func.attributes[REQNTID] = DenseArrayBase.from_list(i32, [self.threads])
        if self.min_ctas_per_sm is not None:
            func.attributes[MINCTASM] = IntegerAttr(self.min_ctas_per_sm, i32)
        if self._shared_bytes:
            func.attributes[SHARED_BYTES] = IntegerAttr(self._shared_bytes, i32)
        if self.cluster_shape is not None:
            func.attributes[CLUSTER_DIM] = DenseArrayBase.from_list(i32, list(self.cluster_shape))
        func.location = _dsl_location()
        ops: list[Operation] = []
        if self._smem_base is not None:
            ops.append(llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(0), IntegerType(8)), SMEM_SYMBOL,
                                     "external", addr_space=3, alignment=1024))
        module = ModuleOp([*ops, func], attributes={TARGET_ATTR: TargetAttr(self.target)})
        diagnostics = verify_located(module)
        if diagnostics:
            raise CompileError(diagnostics)
        return module, LaunchConfig((self.threads, 1, 1), self._shared_bytes)


def _param_types(params: Sequence[tuple[str, str | Attribute]]) -> tuple[list[Attribute], dict[int, TensorMapType]]:
    """The kernel's argument types, and which arguments are tensor maps (passed by value as an opaque pointer; the
    body sees them through mma.as_tensor_map)."""
    types, maps = [], {}
    for i, (pname, ptype) in enumerate(params):
        if isinstance(ptype, TensorMapType):
            maps[i] = ptype
            types.append(llvm.LLVMPointerType())
            continue
        if isinstance(ptype, str):
            if ptype not in PARAM_TYPES:
                raise api_error(f"KernelBuilder: parameter '{pname}' has type '{ptype}'; expected one of "
                                f"{', '.join(PARAM_TYPES)} or an xDSL type")
            ptype = PARAM_TYPES[ptype]
        types.append(ptype)
    return types, maps


def _dsl_location() -> FileLineColLoc:
    d = caller_diagnostic("", kernels_are_dsl=True)
    return _location(d.file or "<python>", d.line, d.col)


@functools.lru_cache(maxsize=4096)
def _location(file: str, line: int, col: int) -> FileLineColLoc:
    """One location attribute per DSL position, shared by the ops made there (attributes are immutable values): a
    kernel makes thousands of ops from a few hundred lines, and each new attribute is three verified ones."""
    return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


def _locate_at_dsl_line(op: Operation) -> None:
    if not isinstance(op.location, FileLineColLoc):
        op.location = _dsl_location()


__all__ = ["If", "KernelBuilder", "LaunchConfig", "Loop"]
