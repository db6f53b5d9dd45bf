"""KernelBuilder: how a DSL writes a kernel in Python, op by op, without spelling IR text.

    kb = mmatom.KernelBuilder("tile", [("a", "ptr"), ("b", "ptr"), ("d", "ptr")], "sm_80", threads=128)
    warp = kb.warp_id()
    ...
    module, launch = kb.finish()       # verified; launch.block == (128, 1, 1)
    kernel = mmatom.compile(module)

Every op it creates is located at the DSL line that called the builder (so a verifier error names the DSL's
file:line), the kernel declares its thread count (`nvvm.reqntid`, PTX `.reqntid`) and its dynamic shared memory
(`mma.shared_bytes`), and `.builder` is a plain xDSL Builder for any op the helpers do not cover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm, math, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    Float32Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
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
    SyncOp,
)
from mmatom.atoms.tma import MAP_BYTES
from mmatom.dialects.mma_tma import BYVAL, GRID_CONSTANT, AsTensorMapOp
from mmatom.dialects.mma_types import TARGET_ATTR, TargetAttr, TensorMapType
from mmatom.dialects.source import verify_located
from mmatom.layout import ComposedLayout, Layout, parse_any_layout
from mmatom.lowering.layout_arith import emit_layout

from .errors import CompileError, api_error, caller_diagnostic
from .kernel_hopper import HopperOps
from .lookup import Atom

PARAM_TYPES: dict[str, Attribute] = {"ptr": llvm.LLVMPointerType(IntAttr(1)), "i32": i32, "i64": i64, "f32": f32,
                                     "f64": f64}
SMEM_SYMBOL = "smem"


@dataclass(frozen=True)
class LaunchConfig:
    """How the kernel must be launched: the block it declares and the dynamic shared memory it uses (the grid is
    the DSL's choice)."""

    block: tuple[int, int, int]
    shared_bytes: int


@dataclass
class Loop:
    """`scf.for` being built: `with loop as (i, carried): ...; loop.yield_(*values)`; then `loop.results`."""

    kb: KernelBuilder
    op: scf.ForOp
    _outer: InsertPoint | None = field(default=None, repr=False)
    _yielded: bool = False

    def __enter__(self) -> tuple[SSAValue, tuple[SSAValue, ...]]:
        self._outer = self.kb.builder.insertion_point
        self.kb.builder.insertion_point = InsertPoint.at_end(self.op.body.block)
        return self.op.body.block.args[0], tuple(self.op.body.block.args[1:])

    def yield_(self, *values: SSAValue) -> None:
        carried = self.op.body.block.args[1:]
        if len(values) != len(carried):
            raise api_error(f"for_range carries {len(carried)} values; yield_ got {len(values)}")
        self.kb.builder.insert(scf.YieldOp(*values))
        self._yielded = True

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None and not self._yielded:
            if len(self.op.body.block.args) > 1:
                raise api_error("a for_range that carries values must end with loop.yield_(...)")
            self.kb.builder.insert(scf.YieldOp())
        self.kb.builder.insertion_point = self._outer

    @property
    def results(self) -> tuple[SSAValue, ...]:
        return tuple(self.op.results)


class KernelBuilder(HopperOps):
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
        types, maps = [], {}
        for i, (pname, ptype) in enumerate(params):
            if isinstance(ptype, TensorMapType):  # passed by value; the body sees it through mma.as_tensor_map
                maps[i] = ptype
                types.append(llvm.LLVMPointerType())
                continue
            if isinstance(ptype, str):
                if ptype not in PARAM_TYPES:
                    raise api_error(f"KernelBuilder: parameter '{pname}' has type '{ptype}'; expected one of "
                                    f"{', '.join(PARAM_TYPES)} or an xDSL type")
                ptype = PARAM_TYPES[ptype]
            types.append(ptype)
        self.name, self.target, self.threads, self.min_ctas_per_sm = name, target, threads, min_ctas_per_sm
        self.cluster = None if cluster is None else tuple(cluster) + (1,) * (3 - len(cluster))
        self.block = Block(arg_types=types)
        self.params = {pname: arg for (pname, _), arg in zip(params, self.block.args)}
        for (pname, _), arg in zip(params, self.block.args):
            arg.name_hint = pname
        self.builder = Builder(InsertPoint.at_end(self.block))
        self.builder.operation_insertion_handler.append(_locate_at_dsl_line)
        self._tensor_maps = sorted(maps)
        for i, map_type in maps.items():
            name = params[i][0]
            self.params[name] = self.builder.insert(AsTensorMapOp(self.block.args[i], map_type)).res
        self._shared_bytes = 0
        self._smem_base: SSAValue | None = None
        self._finished = False

    # -- values ---------------------------------------------------------------------------------------------

    def param(self, name: str) -> SSAValue:
        if name not in self.params:
            raise api_error(f"kernel '{self.name}' has no parameter '{name}'; it has {', '.join(self.params)}")
        return self.params[name]

    def const(self, value: int | float, type_: Attribute = i32) -> SSAValue:
        attr = FloatAttr(value, type_) if isinstance(type_, (Float32Type,)) or type_ == f64 else \
            IntegerAttr(value, type_)
        return self.builder.insert(arith.ConstantOp(attr)).result

    def add(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue:
        """a + b (i32 constants made as needed)."""
        a, b = (self.const(v) if isinstance(v, int) else v for v in (a, b))
        return self.builder.insert(arith.AddiOp(a, b)).result

    def mul(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue:
        a, b = (self.const(v) if isinstance(v, int) else v for v in (a, b))
        return self.builder.insert(arith.MuliOp(a, b)).result

    # scalar arithmetic for epilogues (arith/math ops the PTX target emits); `kb.builder` builds any other op

    def addf(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.builder.insert(arith.AddfOp(a, b)).result

    def mulf(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.builder.insert(arith.MulfOp(a, b)).result

    def negf(self, a: SSAValue) -> SSAValue:
        return self.builder.insert(arith.NegfOp(a)).result

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        """a * b + c, rounded once."""
        return self.builder.insert(math.FmaOp(a, b, c)).result

    def exp2(self, a: SSAValue) -> SSAValue:
        """2^a, approximate (PTX ex2.approx.f32)."""
        return self.builder.insert(math.Exp2Op(a)).result

    def cmpf(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        """An i1 from arith.cmpf (`"ogt"`, `"olt"`, `"oeq"`, ... as in MLIR)."""
        return self.builder.insert(arith.CmpfOp(a, b, predicate)).result

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.builder.insert(arith.SelectOp(condition, a, b)).result

    def _sreg(self, reg: str) -> SSAValue:
        return self.builder.insert(nvvm.SREG_OPS[reg]()).res

    def tid(self, dim: str = "x") -> SSAValue:
        """The thread index in the CTA (`%tid.x`), i32."""
        return self._sreg(f"tid.{dim}")

    def ctaid(self, dim: str = "x") -> SSAValue:
        """The CTA index in the grid (`%ctaid.x`), i32."""
        return self._sreg(f"ctaid.{dim}")

    def warp_id(self) -> SSAValue:
        """tid.x / 32 (the warp's index in the CTA, i32)."""
        return self.builder.insert(arith.ShRUIOp(self.tid(), self.const(5))).result

    def warpgroup_id(self) -> SSAValue:
        """tid.x / 128."""
        return self.builder.insert(arith.ShRUIOp(self.tid(), self.const(7))).result

    def layout(self, layout: Layout | ComposedLayout | str, coords) -> SSAValue:
        """`layout(coords)` on runtime values (see mmatom.emit_layout)."""
        if isinstance(layout, str):
            layout = parse_any_layout(layout)
        try:
            return emit_layout(self.builder, layout, coords)
        except ValueError as err:
            raise api_error(f"layout {layout}: {err}") from None

    def smem(self, nbytes: int, align: int = 1024) -> SSAValue:
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
            self._smem_base = self.builder.insert(
                llvm.AddressOfOp(SMEM_SYMBOL, llvm.LLVMPointerType(IntAttr(3)))).result
        if offset == 0:
            return self._smem_base
        return self.builder.insert(llvm.GEPOp(self._smem_base, [offset], pointee_type=IntegerType(8),
                                              result_type=llvm.LLVMPointerType(IntAttr(3)))).result

    # -- control flow ---------------------------------------------------------------------------------------

    def for_range(self, lo: SSAValue | int, hi: SSAValue | int, step: SSAValue | int,
                  iter_args: Sequence[SSAValue] = ()) -> Loop:
        """`scf.for` from lo to hi by step (i32), carrying `iter_args` (fragments included)."""
        bounds = [self.const(v) if isinstance(v, int) else v for v in (lo, hi, step)]
        body = Block(arg_types=[bounds[0].type, *(v.type for v in iter_args)])
        op = scf.ForOp(*bounds, list(iter_args), Region(body))
        self.builder.insert(op)
        return Loop(self, op)

    def barrier(self) -> None:
        """bar.sync 0: every thread of the CTA."""
        self.builder.insert(nvvm.BarrierOp())

    # -- fragments and atoms --------------------------------------------------------------------------------

    def load_fragment(self, ptr: SSAValue, layout: str, frag_type: FragmentType,
                      offset: SSAValue | None = None) -> SSAValue:
        """The atom operand's registers from a global tile (`layout` maps tile coordinates to element offsets
        from `ptr` + `offset` elements)."""
        return self.builder.insert(LoadFragmentOp(ptr, layout, frag_type, offset)).results[0]

    def store_fragment(self, value: SSAValue, ptr: SSAValue, layout: str, offset: SSAValue | None = None) -> None:
        self.builder.insert(StoreFragmentOp(value, ptr, layout, offset))

    def fill(self, value: float, frag_type: FragmentType) -> SSAValue:
        element = self.const(value, f32 if frag_type.elem.data in ("f32", "f16", "bf16") else i32)
        return self.builder.insert(FillOp(element, frag_type)).results[0]

    def convert(self, value: SSAValue, to: FragmentType | str) -> SSAValue:
        """Element conversion and/or a role change (D -> C to carry an accumulator); `to` a fragment type, or an
        element type name ("bf16") to convert the elements and keep role and layout."""
        if isinstance(to, str):
            if not isinstance(value.type, FragmentType):
                raise api_error(f"convert: {value.type} is not a fragment")
            to = FragmentType(value.type.role.data, to, value.type.layout.data)
        return self.builder.insert(ConvertOp(value, to)).results[0]

    def extract(self, fragment: SSAValue, value: int) -> SSAValue:
        """This thread's value `value` of a fragment, as a scalar (f32, f16, bf16, f64 or i32): what an epilogue
        reads. Which tile element it is: the fragment's TV layout (or TiledMma.partition_C)."""
        return self.builder.insert(ExtractOp(fragment, value)).results[0]

    def insert(self, scalar: SSAValue, fragment: SSAValue, value: int) -> SSAValue:
        """The fragment with this thread's value `value` replaced by `scalar`."""
        return self.builder.insert(InsertOp(scalar, fragment, value)).results[0]

    def map(self, fragment: SSAValue, fn) -> SSAValue:
        """The fragment with `fn(kb, scalar, value_index)` applied to each of this thread's values (arith/math ops
        built by `fn` at the builder's insertion point)."""
        values = fragment.type.layout.data[1].size()
        for v in range(values):
            fragment = self.insert(fn(self, self.extract(fragment, v), v), fragment, v)
        return fragment

    def mma(self, atom: Atom, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        """One register atom (mma.sync family): D = A * B + C."""
        if atom.op != "mma.sync":
            raise api_error(f"KernelBuilder.mma issues mma.sync atoms; {atom.ptx} is {atom.op} (use the builder "
                            f"for its own ops)")
        typed = atom.catalogue  # the resolved MmaSyncAtom
        op = SyncOp(atom.mnk, a, b, c, atom.fragment_type("D"), layout=typed.layout, satfinite=typed.satfinite,
                    kind=typed.kind, bitop=typed.bitop, rounding=typed.rounding)
        return self.builder.insert(op).results[0]

    # -- shared memory and wgmma (sm_90a) -------------------------------------------------------------------

    def copy_to_smem(self, src: SSAValue, layout: str, dst: SSAValue, tile: SmemDescType,
                     offset: SSAValue | None = None) -> None:
        """Every thread of the kernel copies the global tile (`layout` from `src` + `offset` elements) into SMEM
        at `dst`, laid out and swizzled as `tile` says; then an async-proxy fence and a CTA barrier, so wgmma
        (the async proxy) sees it."""
        self.builder.insert(CopyToSmemOp(src, layout, dst, tile, self.threads, offset))
        self.builder.insert(nvvm.FenceProxyOp())
        self.barrier()

    def make_desc(self, ptr: SSAValue, desc_type: SmemDescType) -> SSAValue:
        """The wgmma/tcgen05 matrix descriptor of the SMEM tile at `ptr`."""
        return self.builder.insert(MakeDescOp(ptr, desc_type)).results[0]

    def wgmma_fence(self) -> None:
        """wgmma.fence: before the first wgmma that reads registers written since."""
        self.builder.insert(nvvm.WgmmaFenceAlignedOp())

    def wgmma_commit(self) -> None:
        self.builder.insert(nvvm.WgmmaGroupSyncAlignedOp())

    def wgmma_wait(self, pending: int = 0) -> None:
        """Wait until at most `pending` committed wgmma groups are in flight."""
        self.builder.insert(nvvm.WgmmaWaitGroupSyncOp(pending))

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
        if self.cluster is not None:
            func.attributes[CLUSTER_DIM] = DenseArrayBase.from_list(i32, list(self.cluster))
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


def _dsl_location() -> FileLineColLoc:
    d = caller_diagnostic("")
    return FileLineColLoc(StringAttr(d.file or "<python>"), IntAttr(d.line), IntAttr(d.col))


def _locate_at_dsl_line(op: Operation) -> None:
    if not isinstance(op.location, FileLineColLoc):
        op.location = _dsl_location()


__all__ = ["KernelBuilder", "LaunchConfig", "Loop"]
