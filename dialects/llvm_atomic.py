"""Upstream MLIR's LLVM-dialect atomics that xDSL 0.74's llvm dialect lacks, in upstream's op names and syntax
(registered in the nvvm dialect by `dialects/nvvm.py`, as llvm.intr.fshr is, so the parser finds them by their
llvm.* names): a read-modify-write of global memory that returns the old value, and a fence -- what lets CTAs
hand results to each other within one launch (a counter the last of a tile's K slices reads, partial sums
published before it and read after).

  %old = llvm.atomicrmw add %ptr, %v syncscope("device") acq_rel : !llvm.ptr<1>, i32
  llvm.fence syncscope("device") acq_rel

syncscope is NVPTX's: "block" (PTX .cta), "cluster", "device" (.gpu), none (.sys). An ordering is LLVM's:
monotonic (PTX .relaxed), acquire, release, acq_rel; a fence also seq_cst (fence.sc).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, i32, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from .nvvm_cp_async import GLOBAL

SCOPES = {"block": "cta", "cluster": "cluster", "device": "gpu", "": "sys"}  # NVPTX syncscope -> PTX scope
RMW_ORDERINGS = {"monotonic": "relaxed", "acquire": "acquire", "release": "release", "acq_rel": "acq_rel"}
FENCE_ORDERINGS = {"acquire": "acq_rel", "release": "acq_rel", "acq_rel": "acq_rel", "seq_cst": "sc"}
RMW_OPS = {"add": "add", "xchg": "exch"}  # LLVM's bin op -> PTX atom's operation
RMW_TYPES = (i32, i64)


def _parse_keyword_of(parser: Parser, legal, what: str) -> str:
    pos = parser.pos
    word = parser.parse_identifier()
    if word not in legal:
        parser.raise_error(f"{what} {word}; one of {', '.join(legal)}", pos, parser.pos)
    return word


def _parse_scope(parser: Parser, who: str) -> str:
    """An optional `syncscope("...")`, checked: "" (the system) when absent."""
    if not parser.parse_optional_keyword("syncscope"):
        return ""
    parser.parse_punctuation("(")
    pos = parser.pos
    scope = parser.parse_str_literal()
    if scope not in SCOPES:
        parser.raise_error(f"{who}: syncscope(\"{scope}\"); one of "
                           f"{', '.join(repr(s) for s in SCOPES if s)} (none: the system)", pos, parser.pos)
    parser.parse_punctuation(")")
    return scope


def _print_scope(printer: Printer, scope: str) -> None:
    if scope:
        printer.print_string(f' syncscope("{scope}")')


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%old = llvm.atomicrmw add|xchg %ptr, %v syncscope("device")? <ordering> : !llvm.ptr<1>, i32|i64`: one
    atomic read-modify-write of global memory (PTX atom.<ordering>.<scope>.global.add.u32 / .exch.b64 ...),
    returning the value it replaced."""

    name = "llvm.atomicrmw"
    ptr = operand_def(LLVMPointerType)
    val = operand_def(IntegerType)
    res = result_def(IntegerType)
    bin_op = prop_def(StringAttr)
    ordering = prop_def(StringAttr)
    syncscope = opt_prop_def(StringAttr)

    def __init__(self, op: str, ptr: SSAValue, val: SSAValue, ordering: str = "acq_rel", scope: str = "device"):
        props: dict[str, Attribute] = {"bin_op": StringAttr(op), "ordering": StringAttr(ordering)}
        if scope:
            props["syncscope"] = StringAttr(scope)
        super().__init__(operands=[ptr, val], result_types=[val.type], properties=props)

    @property
    def scope(self) -> str:
        return "" if self.syncscope is None else self.syncscope.data

    @classmethod
    def parse(cls, parser: Parser):
        op = _parse_keyword_of(parser, RMW_OPS, f"{cls.name}: operation")
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        scope = _parse_scope(parser, cls.name)
        ordering = _parse_keyword_of(parser, RMW_ORDERINGS, f"{cls.name}: ordering")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_t = parser.parse_type()
        parser.parse_punctuation(",")
        val_t = parser.parse_type()
        created = cls(op, parser.resolve_operand(ptr, ptr_t), parser.resolve_operand(val, val_t), ordering, scope)
        created.attributes.update(attrs)
        return created

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.bin_op.data} ")
        printer.print_operand(self.ptr)
        printer.print_string(", ")
        printer.print_operand(self.val)
        _print_scope(printer, self.scope)
        printer.print_string(f" {self.ordering.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.ptr.type}, {self.val.type}")

    def verify_(self) -> None:
        if self.bin_op.data not in RMW_OPS:
            raise VerifyException(f"{self.name}: operation {self.bin_op.data}; one of {', '.join(RMW_OPS)}")
        if self.ordering.data not in RMW_ORDERINGS:
            raise VerifyException(f"{self.name}: ordering {self.ordering.data}; one of {', '.join(RMW_ORDERINGS)} "
                                  f"(PTX atom has no seq_cst: a fence before it)")
        if self.scope not in SCOPES:
            raise VerifyException(f"{self.name}: syncscope(\"{self.scope}\"); one of "
                                  f"{', '.join(repr(s) for s in SCOPES if s)} (none: the system)")
        if self.ptr.type != GLOBAL:
            raise VerifyException(f"{self.name}: the pointer must be {GLOBAL} (global memory), not {self.ptr.type}")
        if self.val.type not in RMW_TYPES or self.res.type != self.val.type:
            raise VerifyException(f"{self.name}: the value is {self.val.type} and the result {self.res.type}; both "
                                  f"i32 or both i64")


@irdl_op_definition
class FenceOp(IRDLOperation):
    """`llvm.fence syncscope("device")? <ordering>`: this thread's memory accesses before it ordered against those
    after it, for every thread of the scope (PTX fence.acq_rel.gpu, fence.sc.gpu ...): a release before a
    counter's increment publishes writes the CTA made (a barrier first), an acquire after it shows the others'."""

    name = "llvm.fence"
    ordering = prop_def(StringAttr)
    syncscope = opt_prop_def(StringAttr)

    def __init__(self, ordering: str = "acq_rel", scope: str = "device"):
        props: dict[str, Attribute] = {"ordering": StringAttr(ordering)}
        if scope:
            props["syncscope"] = StringAttr(scope)
        super().__init__(properties=props)

    @property
    def scope(self) -> str:
        return "" if self.syncscope is None else self.syncscope.data

    @classmethod
    def parse(cls, parser: Parser):
        scope = _parse_scope(parser, cls.name)
        ordering = _parse_keyword_of(parser, FENCE_ORDERINGS, f"{cls.name}: ordering")
        op = cls(ordering, scope)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        _print_scope(printer, self.scope)
        printer.print_string(f" {self.ordering.data}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.ordering.data not in FENCE_ORDERINGS:
            raise VerifyException(f"{self.name}: ordering {self.ordering.data}; one of {', '.join(FENCE_ORDERINGS)}")
        if self.scope not in SCOPES:
            raise VerifyException(f"{self.name}: syncscope(\"{self.scope}\"); one of "
                                  f"{', '.join(repr(s) for s in SCOPES if s)} (none: the system)")


ATOMIC_OPS = (AtomicRMWOp, FenceOp)

__all__ = ["ATOMIC_OPS", "AtomicRMWOp", "FenceOp", "FENCE_ORDERINGS", "RMW_OPS", "RMW_ORDERINGS", "SCOPES"]
