"""Warp shuffles and fast math of upstream MLIR's NVVM dialect, in upstream's op names and syntax (what an
attention kernel's softmax needs). Registered in the nvvm dialect by `dialects/nvvm.py`.

  %y = nvvm.shfl.sync bfly %member_mask, %x, %lane_mask, %clamp : f32 -> f32     shfl.sync.bfly.b32
  %e = nvvm.ex2 %x {ftz = true} : f32                                             ex2.approx.ftz.f32
  %r = nvvm.rcp.approx.ftz.f %x : f32                                             rcp.approx.ftz.f32
  nvvm.bar.warp.sync %member_mask : i32                                           bar.warp.sync

`%clamp` is PTX's packed `c` operand: the segment mask (bits 8-12) and the clamp lane (bits 0-4); SHFL_CLAMP gives
the whole-warp value of each kind.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import Float32Type, IntegerAttr, i1, i32
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    VarConstraint,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .words import word_enum

ShflKind = word_enum("ShflKind", ("bfly", "up", "down", "idx"))
# whole-warp mask_and_clamp: up clamps at lane 0 (c = 0), the others at lane 31 (c = 0x1f)
SHFL_CLAMP = {"bfly": 0x1F, "up": 0, "down": 0x1F, "idx": 0x1F}
SHFL_TYPES = ("i32", "f32")


@irdl_attr_definition
class ShflKindAttr(EnumAttribute[ShflKind], SpacedOpaqueSyntaxAttribute):
    """`bfly`, `up`, `down` or `idx`: the bare word in the op (upstream's syntax), `#nvvm<shfl_kind bfly>` in the
    generic form."""

    name = "nvvm.shfl_kind"


def _type_name(t: Attribute) -> str:
    return "i32" if t == i32 else "f32" if isinstance(t, Float32Type) else str(t)


@irdl_op_definition
class ShflOp(IRDLOperation):
    """`nvvm.shfl.sync <kind> %member_mask, %val, %offset, %mask_and_clamp : T -> T`: each lane of `member_mask`
    reads `val` from the lane `offset` names (by kind); T is i32 or f32. Convergent: no effect traits, so nothing
    moves or removes it."""

    name = "nvvm.shfl.sync"
    kind = prop_def(ShflKindAttr)
    thread_mask = operand_def(i32)
    val = operand_def()
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    res = result_def()
    assembly_format = ("$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp attr-dict `:` type($val) `->` "
                       "type($res)")

    def __init__(self, kind: str, thread_mask: SSAValue, val: SSAValue, offset: SSAValue, mask_and_clamp: SSAValue):
        super().__init__(operands=[thread_mask, val, offset, mask_and_clamp], result_types=[val.type],
                         properties={"kind": ShflKindAttr(ShflKind(kind))})

    def verify_(self) -> None:
        got = _type_name(self.val.type)
        if got not in SHFL_TYPES:
            raise VerifyException(f"{self.name}: value type {got} is not legal; shfl.sync moves "
                                  f"{' or '.join(SHFL_TYPES)}")
        if self.res.type != self.val.type:
            raise VerifyException(f"{self.name}: result type {self.res.type} is not the value's type {got}")


class _FastMathOp(IRDLOperation):
    """An approximate f32 function, one PTX instruction."""

    traits = traits_def(Pure())

    def verify_(self) -> None:
        for what, t in (("operand", self.operands[0].type), ("result", self.results[0].type)):
            if not isinstance(t, Float32Type):
                raise VerifyException(f"{self.name}: {what} type {t} is not legal; it takes f32")


_FTZ = IntegerAttr(1, i1)  # the ftz flag, one (immutable) attribute for every nvvm.ex2 that sets it


@irdl_op_definition
class Ex2Op(_FastMathOp):
    """`nvvm.ex2 %x {ftz = true} : f32`: 2^x, ex2.approx(.ftz).f32 (2 ulp; ftz flushes subnormal inputs and results
    to zero)."""

    name = "nvvm.ex2"
    T: ClassVar = VarConstraint("T", AnyAttr())  # f32, checked by verify_ (a named diagnostic)
    src = operand_def(T)
    res = result_def(T)
    ftz = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src)"

    def __init__(self, src: SSAValue, ftz: bool = True):
        props = {"ftz": _FTZ} if ftz else {}
        super().__init__(operands=[src], result_types=[src.type], properties=props)

    @property
    def flushes(self) -> bool:
        return self.ftz is not None and self.ftz.value.data != 0


@irdl_op_definition
class RcpApproxFtzF32Op(_FastMathOp):
    """`nvvm.rcp.approx.ftz.f %x : f32`: 1/x, rcp.approx.ftz.f32 (1 ulp; subnormals flushed to zero)."""

    name = "nvvm.rcp.approx.ftz.f"
    T: ClassVar = VarConstraint("T", AnyAttr())  # f32, checked by verify_
    arg = operand_def(T)
    res = result_def(T)
    assembly_format = "$arg attr-dict `:` type($res)"

    def __init__(self, arg: SSAValue):
        super().__init__(operands=[arg], result_types=[arg.type])


@irdl_op_definition
class SyncWarpOp(IRDLOperation):
    """`nvvm.bar.warp.sync %member_mask : i32`: the lanes of `member_mask` wait for each other, and their memory
    accesses before it are ordered before theirs after it (PTX: bar.warp.sync orders memory among the
    participating threads) -- a warp's lanes handing each other SMEM (or cp.async data once each lane waited for
    its own) without a CTA barrier. Convergent: no effect traits, so nothing moves or removes it."""

    name = "nvvm.bar.warp.sync"
    mask = operand_def()
    assembly_format = "$mask attr-dict `:` type($mask)"

    def __init__(self, mask: SSAValue):
        super().__init__(operands=[mask])

    def verify_(self) -> None:
        if self.mask.type != i32:
            raise VerifyException(f"{self.name}: member mask of type {self.mask.type}; an i32 (a bit per lane)")


WARP_OPS = (ShflOp, Ex2Op, RcpApproxFtzF32Op, SyncWarpOp)
WARP_ATTRS = (ShflKindAttr,)

__all__ = ["Ex2Op", "RcpApproxFtzF32Op", "SHFL_CLAMP", "SHFL_TYPES", "ShflKindAttr", "ShflOp", "SyncWarpOp",
           "WARP_ATTRS", "WARP_OPS"]
