"""`mma-finalize-nvvm`: the last step of lower-mma-to-nvvm. Checks that nothing of the mma dialect is left (an op
without a lowering, a fragment value that crossed a boundary no pass converts). The module's chip stays
`#mma.target<..>`, the attribute every reader takes it from (`dialects.mma_types.module_target`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mmatom.dialects.mma_types import FragmentType
from mmatom.dialects.op_walk import nested_ops

from .fragments import LoweringError


@dataclass(frozen=True)
class FinalizeNvvm(ModulePass):
    name = "mma-finalize-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in nested_ops(op):
            if inner.name.startswith("mma."):
                raise LoweringError(inner, f"{inner.name}: no lowering to nvvm yet for this op")
            for v in inner.results:
                if isinstance(v.type, FragmentType):
                    raise LoweringError(inner, f"{inner.name}: a fragment value is still used after lowering "
                                               f"(a fragment crossing a function boundary or carried by an scf.if/while)")


__all__ = ["FinalizeNvvm"]
