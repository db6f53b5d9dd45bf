"""`lower-mma-to-nvvm`: the mma dialect (atoms and the kernel-level fragment ops) -> upstream nvvm, as a
pipeline of composable passes, each also available on its own with -p:

  verify-wgmma-lifecycle, verify-tmem-lifecycle   the async protocols, checked on the kernel as written
  verify-pipeline                                 TMA -> mbarrier -> wgmma stages, setmaxnreg budgets
  verify-bulk-stores                              a TMA store's SMEM box is not rewritten before it is read
  arith-div-strength-reduce                       unsigned / and % by a constant -> shift, mask, high multiply
  mma-fragments-to-registers                      fragments carried by loops become their registers
  convert-mma-to-nvvm                             every mma op -> nvvm + arith + llvm
  mma-reconcile-casts                             folds the register <-> fragment casts away (1:N; then
                                                  xDSL's reconcile-unrealized-casts for 1:1 ones)
  mma-finalize-nvvm                               nothing of mma left; the chip stays #mma.target

After it, a kernel is llvm.func + arith + scf + llvm memory ops + nvvm: what upstream MLIR accepts. Its control
flow stays structured (the lifecycle checkers and upstream read scf). `lower-mma-to-ptx` is the same steps and
then mma-scf-to-branches (lowering/scf_to_branches.py: blocks and branches, what the PTX target prints and the
only thing it takes): `-p lower-mma-to-ptx -t ptx`, and what mmatom.compile runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mmatom.passes.bulk_store_lifecycle import VerifyBulkStores
from mmatom.passes.pipeline_protocol import VerifyPipeline
from mmatom.passes.strength_reduce import DivStrengthReduce
from mmatom.passes.tmem_lifecycle import VerifyTmemLifecycle
from mmatom.passes.wgmma_lifecycle import VerifyWgmmaLifecycle

from .convert_mma_to_nvvm import ConvertMmaToNvvm
from .finalize import FinalizeNvvm
from .fragment_boundaries import FragmentsToRegisters
from .reconcile import ReconcileFragmentCasts
from .scf_to_branches import ScfToBranches

STEPS: tuple[ModulePass, ...] = (VerifyWgmmaLifecycle(), VerifyTmemLifecycle(), VerifyPipeline(), VerifyBulkStores(),
                                 DivStrengthReduce(), FragmentsToRegisters(), ConvertMmaToNvvm(), ReconcileFragmentCasts(), FinalizeNvvm())


@dataclass(frozen=True)
class LowerMmaToNvvm(ModulePass):
    """The whole lowering; the name users know (README, tests) stays an alias for the steps above."""

    name = "lower-mma-to-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for step in STEPS:
            step.apply(ctx, op)


@dataclass(frozen=True)
class LowerMmaToPtx(ModulePass):
    """lower-mma-to-nvvm, then structured control flow to branches: the module the PTX target prints."""

    name = "lower-mma-to-ptx"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        LowerMmaToNvvm().apply(ctx, op)
        ScfToBranches().apply(ctx, op)


PASSES: tuple[type[ModulePass], ...] = (LowerMmaToNvvm, LowerMmaToPtx,
                                        *(type(s) for s in STEPS if s.name.startswith(("mma-", "convert-mma", "arith-"))))

__all__ = ["LowerMmaToNvvm", "LowerMmaToPtx", "PASSES", "STEPS"]
