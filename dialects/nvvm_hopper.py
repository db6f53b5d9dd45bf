"""The Hopper data path of upstream MLIR's NVVM dialect, in upstream's op names and syntax: TMA (bulk tensor
copies global <-> SMEM with mbarrier completion, bulk groups, tensor-map prefetch), mbarriers (arrive,
arrive.expect_tx, the init fence), register reallocation between warpgroups (setmaxregister), elect.sync,
stmatrix, and programmatic dependent launch's griddepcontrol. Registered in the nvvm dialect by `dialects/nvvm.py`.

  nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%k, %m] : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %bar, %bytes : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%n, %m] : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%n, %m] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.wait_group 1 {read}
  nvvm.setmaxregister increase 232
  %p = nvvm.elect.sync -> i1
  nvvm.griddepcontrol.wait
  nvvm.griddepcontrol.launch.dependents
  nvvm.stmatrix %ptr, %r0, %r1, %r2, %r3 {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32

A tensor map operand is upstream's `!llvm.ptr`: the generic address of the map, a kernel parameter passed by
value (`{llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}`).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, StringAttr, UnitAttr, i1, i16, i32
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, SSAValue
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.constraints import AttrConstraint, InferenceContext
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.tma import TMA_REDUCTIONS

from .mma_types import require_chip
from .words import WordAttr, word_enum


SHARED = LLVMPointerType(IntAttr(3))

MemScope = word_enum("MemScope", ("cta", "cluster", "gpu", "sys"))


@irdl_attr_definition
class MemScopeAttr(WordAttr, EnumAttribute[MemScope]):
    """`#nvvm.mem_scope<cluster>`: the threads a memory-ordering operation orders for."""

    name = "nvvm.mem_scope"


TMAReduxKind = word_enum("TMAReduxKind", tuple(TMA_REDUCTIONS))


@irdl_attr_definition
class TMAReduxKindAttr(WordAttr, EnumAttribute[TMAReduxKind]):
    """`#nvvm.tma_redux_kind<add>`: how a TMA reduce-store combines its box with global memory."""

    name = "nvvm.tma_redux_kind"

TMA_MAX_RANK = 5
I32_MAX = 2**31 - 1


@dataclass(frozen=True)
class ImpliedType(AttrConstraint):
    """An operand type that the op's custom syntax leaves unwritten: the parser infers `type`, and the op's
    verify_ checks it (with `expect_type`). IRDL's own check would say only `operand 'x' at position N does not
    verify:` on the diagnostic's line, the type received and the one needed on a second line that a located
    diagnostic drops; the op's check names the operand, the type it has and the type it needs on one line."""

    type: Attribute

    def verify(self, attr: Attribute, constraint_context) -> None:
        pass  # checked by the op's verify_, with its own diagnostic

    def can_infer(self, var_constraint_names: AbstractSet[str]) -> bool:
        return True

    def infer(self, context: InferenceContext) -> Attribute:
        return self.type

    def mapping_type_vars(self, type_var_mapping) -> "ImpliedType":
        return self


def expect_type(op: IRDLOperation, value: SSAValue, expected: Attribute, what: str, meaning: str = "") -> None:
    """VerifyException unless `value` has type `expected`: `op: <what> must be <expected><meaning>, not <type>`."""
    if value.type != expected:
        raise VerifyException(f"{op.name}: {what} must be {expected}{meaning}, not {value.type}")


def _shared_pointer(op: IRDLOperation, value: SSAValue, what: str) -> None:
    expect_type(op, value, SHARED, what, " (a shared-memory pointer)")


def _tensor_map(op: IRDLOperation, value: SSAValue) -> None:
    expect_type(op, value, LLVMPointerType(), "the tensor map", " (its generic address: a kernel parameter by value)")
    if not 1 <= len(op.coordinates) <= TMA_MAX_RANK:
        raise VerifyException(f"{op.name}: box[...] has {len(op.coordinates)} coordinates; a tensor map has 1 to "
                              f"{TMA_MAX_RANK} dimensions")
    for i, c in enumerate(op.coordinates):
        expect_type(op, c, i32, f"box coordinate {i}")


def parse_i32_count(parser: Parser, message) -> int:
    """A non-negative integer literal that fits an i32; beyond, a located error `message(value)` (the verifier's
    own text: an i32 attribute cannot hold the value to be verified)."""
    pos = parser.pos
    value = parser.parse_integer(allow_negative=False, allow_boolean=False)
    if value > I32_MAX:
        parser.raise_error(message(value), pos, parser.pos)
    return value


@irdl_op_definition
class MBarrierArriveOp(IRDLOperation):
    """`nvvm.mbarrier.arrive %bar : !llvm.ptr<3>`: this thread's arrival on the barrier's current phase, with
    release semantics at CTA scope; on a `!llvm.ptr<7>` (a barrier of another CTA of the cluster, from nvvm.mapa)
    a remote arrival. `{scope = #nvvm.mem_scope<cluster>}` releases at cluster scope: the peer that waits then
    sees this thread's earlier memory writes -- at a price (ptxas puts MEMBAR.GPU before it); a consumer that
    only signals that it finished reading a stage needs CTA scope, what CUTLASS's remote arrival has."""

    name = "nvvm.mbarrier.arrive"
    addr = operand_def()
    scope = opt_prop_def(MemScopeAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr attr-dict `:` type($addr)"

    def __init__(self, addr: SSAValue, scope: str | None = None):
        super().__init__(operands=[addr], properties={"scope": MemScopeAttr(scope)} if scope else {})

    def verify_(self) -> None:
        if self.addr.type != SHARED_CLUSTER:
            _shared_pointer(self, self.addr, "the barrier")
        if self.scope is not None and self.scope.data not in ("cta", "cluster"):
            raise VerifyException(f"{self.name}: scope {self.scope.data}; an mbarrier arrival releases at cta or "
                                  f"cluster scope")

    @property
    def remote(self) -> bool:
        return self.addr.type == SHARED_CLUSTER


@irdl_op_definition
class MBarrierArriveExpectTxOp(IRDLOperation):
    """`nvvm.mbarrier.arrive.expect_tx %bar, %bytes`: arrive, and expect `bytes` more from async copies; on a
    `!llvm.ptr<7>` (a barrier of another CTA of the cluster) a remote arrival, released at cluster scope -- the
    bytes of that CTA's st.async stores into the barrier's CTA (nvvm.st.async)."""

    name = "nvvm.mbarrier.arrive.expect_tx"
    addr = operand_def()
    txcount = operand_def()
    assembly_format = "$addr `,` $txcount attr-dict `:` type($addr) `,` type($txcount)"

    def __init__(self, addr: SSAValue, txcount: SSAValue):
        super().__init__(operands=[addr, txcount])

    def verify_(self) -> None:
        if self.addr.type != SHARED_CLUSTER:
            _shared_pointer(self, self.addr, "the barrier")
        expect_type(self, self.txcount, i32, "the transaction count", " (bytes)")

    @property
    def remote(self) -> bool:
        """On a `!llvm.ptr<7>` (nvvm.mapa's): a barrier of another CTA of the cluster, released at cluster scope."""
        return self.addr.type == SHARED_CLUSTER


@irdl_op_definition
class FenceMbarrierInitOp(IRDLOperation):
    """`nvvm.fence.mbarrier.init`: makes mbarrier.init visible to the async proxy and the cluster."""

    name = "nvvm.fence.mbarrier.init"
    assembly_format = "attr-dict"


@irdl_op_definition
class CpAsyncBulkTensorSharedClusterGlobalOp(IRDLOperation):
    """`nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%c0, ...]
    (multicast_mask = %mask)?`: a TMA load of one box; its bytes complete the transaction count of `%bar`."""

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"
    dstMem = operand_def()
    tmaDescriptor = operand_def()
    coordinates = var_operand_def(ImpliedType(i32))
    mbar = operand_def(ImpliedType(SHARED))
    multicastMask = opt_operand_def(ImpliedType(i16))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = ("$dstMem `,` $tmaDescriptor `,` $mbar `,` `box` `[` $coordinates `]` "
                       "(`multicast_mask` `=` $multicastMask^)? attr-dict `:` type($dstMem) `,` type($tmaDescriptor)")

    def __init__(self, dst: SSAValue, tma: SSAValue, coordinates, mbar: SSAValue, multicast: SSAValue | None = None):
        super().__init__(operands=[dst, tma, list(coordinates), mbar, [multicast] if multicast else []])

    def verify_(self) -> None:
        _shared_pointer(self, self.dstMem, "the destination")
        _tensor_map(self, self.tmaDescriptor)
        _shared_pointer(self, self.mbar, "the barrier")
        if self.multicastMask is not None:
            expect_type(self, self.multicastMask, i16, "multicast_mask", " (a bit per CTA of the cluster)")


@irdl_op_definition
class CpAsyncBulkSharedClusterGlobalOp(IRDLOperation):
    """`nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %bar, %size : !llvm.ptr<3>, !llvm.ptr<1>`: a bulk copy
    (TMA without a tensor map) of `%size` bytes -- a multiple of 16, both addresses 16-byte aligned -- from global
    memory into this CTA's SMEM; its bytes complete the transaction count of `%bar`."""

    name = "nvvm.cp.async.bulk.shared.cluster.global"
    dstMem = operand_def()
    srcMem = operand_def()
    mbar = operand_def(ImpliedType(SHARED))
    size = operand_def(ImpliedType(i32))
    assembly_format = "$dstMem `,` $srcMem `,` $mbar `,` $size attr-dict `:` type($dstMem) `,` type($srcMem)"

    def __init__(self, dst: SSAValue, src: SSAValue, mbar: SSAValue, size: SSAValue):
        super().__init__(operands=[dst, src, mbar, size])

    def verify_(self) -> None:
        _shared_pointer(self, self.dstMem, "the destination")
        expect_type(self, self.srcMem, LLVMPointerType(IntAttr(1)), "the source", " (a global-memory pointer)")
        _shared_pointer(self, self.mbar, "the barrier")
        expect_type(self, self.size, i32, "the size")


@irdl_op_definition
class CpAsyncBulkTensorGlobalSharedCtaOp(IRDLOperation):
    """`nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, ...]`: a TMA store of one box (in the
    current bulk group)."""

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"
    tmaDescriptor = operand_def()
    srcMem = operand_def()
    coordinates = var_operand_def(ImpliedType(i32))
    assembly_format = ("$tmaDescriptor `,` $srcMem `,` `box` `[` $coordinates `]` attr-dict `:` "
                       "type($tmaDescriptor) `,` type($srcMem)")

    def __init__(self, tma: SSAValue, src: SSAValue, coordinates):
        super().__init__(operands=[tma, src, list(coordinates)])

    def verify_(self) -> None:
        _shared_pointer(self, self.srcMem, "the source")
        _tensor_map(self, self.tmaDescriptor)


@irdl_op_definition
class CpAsyncBulkTensorReduceOp(IRDLOperation):
    """`nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%c0, ...] {redKind = #nvvm.tma_redux_kind<add>}`: a TMA
    store of one box that reduces it into global memory element by element (in the current bulk group; tile mode,
    no L2 cache hint)."""

    name = "nvvm.cp.async.bulk.tensor.reduce"
    tmaDescriptor = operand_def()
    srcMem = operand_def()
    coordinates = var_operand_def(ImpliedType(i32))
    redKind = prop_def(TMAReduxKindAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$tmaDescriptor `,` $srcMem `,` `box` `[` $coordinates `]` attr-dict `:` "
                       "type($tmaDescriptor) `,` type($srcMem)")

    def __init__(self, tma: SSAValue, src: SSAValue, coordinates, reduction: str):
        super().__init__(operands=[tma, src, list(coordinates)], properties={"redKind": TMAReduxKindAttr(reduction)})

    def verify_(self) -> None:
        _shared_pointer(self, self.srcMem, "the source")
        _tensor_map(self, self.tmaDescriptor)


@irdl_op_definition
class CpAsyncBulkCommitGroupOp(IRDLOperation):
    """`nvvm.cp.async.bulk.commit.group`: closes the bulk group of the TMA stores issued since the last one."""

    name = "nvvm.cp.async.bulk.commit.group"
    assembly_format = "attr-dict"


BULK_GROUPS_MAX = 63  # cp.async.bulk.wait_group's N: an integer constant in [0, 63]


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(IRDLOperation):
    """`nvvm.cp.async.bulk.wait_group N {read}?`: at most N bulk groups pending (with `read`: their sources may
    be overwritten; without: their writes are done)."""

    name = "nvvm.cp.async.bulk.wait_group"
    group = prop_def(IntegerAttr)
    read = opt_prop_def(UnitAttr)

    def __init__(self, group: int, read: bool = False):
        props: dict[str, Attribute] = {"group": IntegerAttr(group, IntegerType(32))}
        if read:
            props["read"] = UnitAttr()
        super().__init__(properties=props)

    @classmethod
    def parse(cls, parser: Parser):
        group = parse_i32_count(parser, lambda n: cls.not_legal(n))
        attrs = parser.parse_optional_attr_dict()
        op = cls(group, read="read" in attrs)
        op.attributes.update({k: v for k, v in attrs.items() if k != "read"})
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.group.value.data}")
        printer.print_op_attributes({**self.attributes, **({"read": UnitAttr()} if self.read else {})})

    @classmethod
    def not_legal(cls, group: int) -> str:
        return f"{cls.name}: {group} pending groups is not legal; N is in [0, {BULK_GROUPS_MAX}]"

    def verify_(self) -> None:
        if not 0 <= self.group.value.data <= BULK_GROUPS_MAX:
            raise VerifyException(self.not_legal(self.group.value.data))


@irdl_op_definition
class PrefetchTensormapOp(IRDLOperation):
    """`nvvm.prefetch tensormap, %map`: brings the tensor map into the constant cache before its first use."""

    name = "nvvm.prefetch"
    addr = operand_def()
    tensormap = prop_def(UnitAttr)

    def __init__(self, addr: SSAValue):
        super().__init__(operands=[addr], properties={"tensormap": UnitAttr()})

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_keyword("tensormap")
        parser.parse_punctuation(",")
        addr = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(addr, parser.parse_type()))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" tensormap, ")
        printer.print_operand(self.addr)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.addr.type)

    def verify_(self) -> None:
        # `prefetch.tensormap [a]` with no state space reads a generic address (a kernel parameter's, by value)
        expect_type(self, self.addr, LLVMPointerType(), "the tensor map",
                    " (its generic address: a kernel parameter by value)")


SETMAXNREG_ACTIONS = ("increase", "decrease")
SETMAXNREG_RANGE = (24, 256)


@irdl_op_definition
class SetMaxRegisterOp(IRDLOperation):
    """`nvvm.setmaxregister increase|decrease N`: the warpgroup's per-thread register budget becomes N (a
    multiple of 8 in [24, 256]; sm_90a)."""

    name = "nvvm.setmaxregister"
    regCount = prop_def(IntegerAttr)
    action = prop_def(Attribute)

    def __init__(self, action: str, count: int):
        super().__init__(properties={"regCount": IntegerAttr(count, IntegerType(32)), "action": StringAttr(action)})

    @property
    def count(self) -> int:
        return self.regCount.value.data

    @property
    def increase(self) -> bool:
        return self.action.data == "increase"

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        action = parser.parse_identifier()
        if action not in SETMAXNREG_ACTIONS:
            parser.raise_error(f"{cls.name}: action '{action}' is not one of {', '.join(SETMAXNREG_ACTIONS)}",
                               pos, parser.pos)
        count = parse_i32_count(parser, lambda n: cls.not_legal(n))
        attrs = parser.parse_optional_attr_dict()
        op = cls(action, count)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.action.data} {self.count}")
        printer.print_op_attributes(self.attributes)

    @classmethod
    def not_legal(cls, count: int) -> str:
        lo, hi = SETMAXNREG_RANGE
        return f"{cls.name}: {count} registers is not legal; the count is a multiple of 8 in [{lo}, {hi}]"

    def verify_(self) -> None:
        if not (isinstance(self.action, StringAttr) and self.action.data in SETMAXNREG_ACTIONS):
            raise VerifyException(f"{self.name}: action {self.action} is not one of {', '.join(SETMAXNREG_ACTIONS)}")
        lo, hi = SETMAXNREG_RANGE
        if not (lo <= self.count <= hi and self.count % 8 == 0):
            raise VerifyException(self.not_legal(self.count))


@irdl_op_definition
class ElectSyncOp(IRDLOperation):
    """`%p = nvvm.elect.sync -> i1`: true in exactly one active lane of the warp."""

    name = "nvvm.elect.sync"
    pred = result_def()
    assembly_format = "attr-dict `->` type($pred)"

    def __init__(self):
        super().__init__(result_types=[i1])

    def verify_(self) -> None:
        expect_type(self, self.pred, i1, "the result", " (true in the elected lane)")


@irdl_op_definition
class GriddepcontrolWaitOp(IRDLOperation):
    """`nvvm.griddepcontrol.wait`: until every prerequisite grid of this grid's programmatic dependent launch has
    completed and its memory operations are visible to this thread (sm_90; returns at once in a grid launched
    without one). A grid so launched reads what those grids write, and writes what they read, only after it."""

    name = "nvvm.griddepcontrol.wait"
    assembly_format = "attr-dict"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())  # memory accesses do not cross it

    def verify_(self) -> None:
        _needs_sm90(self)


@irdl_op_definition
class GriddepcontrolLaunchDependentsOp(IRDLOperation):
    """`nvvm.griddepcontrol.launch.dependents`: this CTA lets the grids launched as this grid's programmatic
    dependents start (once every CTA has done so or exited): their setup may then run beside this grid's rest
    (sm_90; no effect on a grid without such dependents, and none after the CTA's first)."""

    name = "nvvm.griddepcontrol.launch.dependents"
    assembly_format = "attr-dict"
    traits = traits_def(MemoryWriteEffect())  # an effect on the launch: kept, not reordered with stores

    def verify_(self) -> None:
        _needs_sm90(self)


GRIDDEPCONTROL_MIN_SM = 90


def _needs_sm90(op: IRDLOperation) -> None:
    """Programmatic dependent launch is sm_90's: refused in a module for an older chip (none named: not checked)."""
    require_chip(op, GRIDDEPCONTROL_MIN_SM, "programmatic dependent launch (griddepcontrol)")


STMATRIX_COUNTS = (1, 2, 4)
MMA_LAYOUT = "nvvm.mma_layout"  # #nvvm.mma_layout<row|col> (nvvm.MMALayoutAttr)


@irdl_op_definition
class StMatrixOp(IRDLOperation):
    """`nvvm.stmatrix %ptr, %r... {layout = #nvvm.mma_layout<row|col>}`: the warp stores 1, 2 or 4 8x8 b16
    matrices to SMEM, one 32-bit register (two b16) per lane per matrix; lane l gives the row address of row
    l % 8 of matrix l / 8 (`col`: transposed)."""

    name = "nvvm.stmatrix"
    ptr = operand_def()
    sources = var_operand_def()
    layout = prop_def(Attribute)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$ptr `,` $sources attr-dict `:` type($ptr) `,` type($sources)"

    def __init__(self, ptr: SSAValue, sources, layout: Attribute):
        super().__init__(operands=[ptr, list(sources)], properties={"layout": layout})

    @property
    def transposed(self) -> bool:
        return getattr(self.layout, "data", None) == "col"

    def verify_(self) -> None:
        _shared_pointer(self, self.ptr, "the address")
        if len(self.sources) not in STMATRIX_COUNTS:
            raise VerifyException(f"{self.name}: {len(self.sources)} source registers; stmatrix stores 1, 2 or 4 "
                                  f"matrices (.x1, .x2, .x4), one register each")
        for i, s in enumerate(self.sources):
            expect_type(self, s, i32, f"source register {i}", " (two b16 elements)")
        # nvvm.py defines #nvvm.mma_layout and imports this module: the attribute is known by its name (no cycle)
        if getattr(self.layout, "name", None) != MMA_LAYOUT:
            raise VerifyException(f"{self.name}: layout must be #nvvm.mma_layout<row> or #nvvm.mma_layout<col>, not "
                                  f"{self.layout}")


# -- thread-block clusters ------------------------------------------------------------------------------------

SHARED_CLUSTER = LLVMPointerType(IntAttr(7))  # upstream's shared::cluster address space


@irdl_op_definition
class MapaOp(IRDLOperation):
    """`%r = nvvm.mapa %addr, %cta : !llvm.ptr<3> -> !llvm.ptr<7>`: the address of the same shared-memory
    variable in CTA `cta` (its rank) of this cluster (PTX mapa.shared::cluster)."""

    name = "nvvm.mapa"
    a = operand_def(ImpliedType(LLVMPointerType(IntAttr(3))))
    b = operand_def(ImpliedType(i32))
    res = result_def(ImpliedType(SHARED_CLUSTER))
    assembly_format = "$a `,` $b attr-dict `:` type($a) `->` type($res)"

    def __init__(self, addr: SSAValue, cta: SSAValue):
        super().__init__(operands=[addr, cta], result_types=[SHARED_CLUSTER])

    def verify_(self) -> None:
        _shared_pointer(self, self.a, "the address")
        expect_type(self, self.b, i32, "the CTA rank")
        expect_type(self, self.res, SHARED_CLUSTER, "the result", " (a shared::cluster address)")


@irdl_op_definition
class StAsyncOp(IRDLOperation):
    """`nvvm.st.async %addr, %bar, %w0, %w1, %w2, %w3 : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32`: four
    32-bit words stored asynchronously into the shared memory of a CTA of the cluster (PTX st.async.shared::cluster
    .mbarrier::complete_tx::bytes.v4.b32, PTX ISA 8.1), their 16 bytes counted on that CTA's barrier `bar` (a
    transaction count an arrive.expect_tx posts; the barrier's waiters then see the words). mmatom's spelling:
    upstream's NVVM dialect has no op for it."""

    name = "nvvm.st.async"
    addr = operand_def()
    mbar = operand_def()
    words = var_operand_def()
    assembly_format = "$addr `,` $mbar `,` $words attr-dict `:` type($addr) `,` type($mbar) `,` type($words)"

    def __init__(self, addr: SSAValue, words, mbar: SSAValue):
        super().__init__(operands=[addr, mbar, list(words)])

    def verify_(self) -> None:
        expect_type(self, self.addr, SHARED_CLUSTER, "the address", " (a shared::cluster address: nvvm.mapa's)")
        expect_type(self, self.mbar, SHARED_CLUSTER, "the barrier", " (a shared::cluster address: nvvm.mapa's)")
        if len(self.words) != 4:
            raise VerifyException(f"{self.name}: {len(self.words)} words; the store is a vector of four 32-bit words")
        for i, w in enumerate(self.words):
            expect_type(self, w, i32, f"word {i}")


class _ClusterBarrierOp(IRDLOperation):
    aligned = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, aligned: bool = True):
        super().__init__(properties={"aligned": UnitAttr()} if aligned else {})


@irdl_op_definition
class ClusterArriveOp(_ClusterBarrierOp):
    """`nvvm.cluster.arrive {aligned}`: this thread arrives at the cluster barrier (release semantics:
    barrier.cluster.arrive.release; `aligned`: every thread of the warp executes it)."""

    name = "nvvm.cluster.arrive"


@irdl_op_definition
class ClusterWaitOp(_ClusterBarrierOp):
    """`nvvm.cluster.wait {aligned}`: until every thread of every CTA in the cluster arrived (acquire)."""

    name = "nvvm.cluster.wait"


HOPPER_OPS = (MBarrierArriveOp, MBarrierArriveExpectTxOp, FenceMbarrierInitOp, CpAsyncBulkTensorSharedClusterGlobalOp,
              CpAsyncBulkSharedClusterGlobalOp,
              CpAsyncBulkTensorGlobalSharedCtaOp, CpAsyncBulkTensorReduceOp, CpAsyncBulkCommitGroupOp,
              CpAsyncBulkWaitGroupOp, PrefetchTensormapOp, SetMaxRegisterOp, ElectSyncOp, StMatrixOp, MapaOp,
              ClusterArriveOp, ClusterWaitOp, StAsyncOp, GriddepcontrolWaitOp, GriddepcontrolLaunchDependentsOp)

HOPPER_ATTRS = (MemScopeAttr, TMAReduxKindAttr)

__all__ = [c.__name__ for c in HOPPER_OPS] + ["HOPPER_ATTRS", "HOPPER_OPS", "MemScopeAttr", "TMAReduxKindAttr", "ImpliedType", "SHARED_CLUSTER", "expect_type"]
