"""Op verification memoized by the op's shape: for op classes whose verifier reads nothing but the op's own operand
and result types, properties and attributes (arith, math, llvm's value ops, fragment element access), an op is valid
wherever an op of the same class with the same types and attributes was found valid. A kernel repeats a few such
shapes thousands of times (an attention kernel: ~4300 ops, of which ~90% are these, before lowering and again after),
so verify_located verifies each shape once instead of each op.

What the memo does not cover is still checked on every op by verify_located: operands' dominance, an erased operand,
and anything of an op that is its block's last (whether it must be a terminator depends on where it stands)."""

from __future__ import annotations

import functools

from xdsl.dialects import arith, llvm, math
from xdsl.ir import Operation
from xdsl.interfaces import (_ConditionallySpeculatableInterfaceTrait, _HasCanonicalizationPatternsInterfaceTrait,
                              _HasFolderInterfaceTrait)
from xdsl.irdl import IRDLOperation
from xdsl.traits import OpTrait, SameOperandsAndResultType

from .mma import ExtractOp, InsertOp
from .nvvm_warp import Ex2Op, RcpApproxFtzF32Op

# dialects every op of which verifies from its own types and attributes alone (xDSL's verifiers: type constraints,
# bit widths, a constant's value against its type)
TYPE_LOCAL_DIALECTS = frozenset({arith.Arith.name, math.Math.name})
# single ops of other dialects whose verifiers read only their own types, properties and attributes (not the module's
# target, not a parent, not an operand's defining op)
TYPE_LOCAL_OPS: frozenset[type[Operation]] = frozenset({
    llvm.InsertValueOp, llvm.ExtractValueOp, llvm.GEPOp, llvm.BitcastOp, llvm.PtrToIntOp, llvm.UndefOp,
    ExtractOp, InsertOp, Ex2Op, RcpApproxFtzF32Op})
# traits whose verify reads the op's types only, or checks nothing (xDSL's interface traits: fold, canonicalize,
# speculate); every other trait of a memoized op must keep OpTrait's verify, which checks nothing
TYPE_LOCAL_TRAITS = (SameOperandsAndResultType, _HasFolderInterfaceTrait, _HasCanonicalizationPatternsInterfaceTrait,
                     _ConditionallySpeculatableInterfaceTrait)
MEMO_LIMIT = 1 << 16  # shapes remembered before the memo starts over (constants' values make many)

_valid_shapes: set[tuple] = set()


@functools.cache
def _verified_by_shape(cls: type[Operation]) -> bool:
    """Whether an op of `cls` verifies from its shape alone: a listed class with no regions or successors, whose
    traits check nothing or only its types."""
    if not issubclass(cls, IRDLOperation) or not (cls in TYPE_LOCAL_OPS or cls.dialect_name() in TYPE_LOCAL_DIALECTS):
        return False
    op_def = cls.get_irdl_definition()
    return not op_def.regions and not op_def.successors and all(
        isinstance(t, TYPE_LOCAL_TRAITS) or type(t).verify is OpTrait.verify for t in op_def.traits)


def shape_of(op: Operation) -> tuple | None:
    """The key an op's verification is memoized under, or None where verifying it reads more than the key: a class
    not shown type-local, or the op ending its block (verify then also asks whether it may terminate it)."""
    if not _verified_by_shape(type(op)):
        return None
    block = op.parent
    if block is not None and block.last_op is op:
        return None
    return (type(op), tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
            tuple(op.properties.items()), tuple(op.attributes.items()))


def known_valid(shape: tuple | None) -> bool:
    return shape is not None and shape in _valid_shapes


def remember_valid(shape: tuple | None) -> None:
    if shape is None:
        return
    if len(_valid_shapes) >= MEMO_LIMIT:
        _valid_shapes.clear()
    _valid_shapes.add(shape)


__all__ = ["known_valid", "remember_valid", "shape_of"]
