"""Registers mmatom's dialects, passes and targets with xDSL (the `xdsl.universe` entry point), so plain
`xdsl-opt` and `mmatom-opt` load them from one list."""

from xdsl.universe import Universe

from mmatom.dialects.mma import MMA
from mmatom.dialects.nvvm import NVVM
from mmatom.lowering.pipeline import PASSES
from mmatom.lowering.scf_to_branches import ScfToBranches
from mmatom.passes.bulk_store_lifecycle import VerifyBulkStores
from mmatom.passes.pipeline_protocol import VerifyPipeline
from mmatom.passes.tmem_lifecycle import VerifyTmemLifecycle
from mmatom.passes.wgmma_lifecycle import VerifyWgmmaLifecycle
from mmatom.targets.ptx_emitter import PTXTarget

MMATOM_UNIVERSE = Universe(
    all_dialects={"mma": lambda: MMA, "nvvm": lambda: NVVM},
    all_passes={p.name: (lambda p=p: p) for p in (*PASSES, ScfToBranches, VerifyWgmmaLifecycle, VerifyTmemLifecycle, VerifyPipeline,
                                                 VerifyBulkStores)},
    all_targets={"ptx": lambda: PTXTarget},
)
