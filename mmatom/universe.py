"""Registers mmatom's dialects, passes and targets with xDSL, so plain `xdsl-opt` loads them too."""

from xdsl.universe import Universe


def _mma():
    from mmatom.dialects.mma import MMA

    return MMA


def _nvvm():
    from mmatom.dialects.nvvm import NVVM

    return NVVM


def _lower_mma_to_nvvm():
    from mmatom.lowering.pipeline import LowerMmaToNvvm

    return LowerMmaToNvvm


def _verify_wgmma_lifecycle():
    from mmatom.lowering.wgmma_lifecycle import VerifyWgmmaLifecycle

    return VerifyWgmmaLifecycle


def _verify_tmem_lifecycle():
    from mmatom.lowering.tmem_lifecycle import VerifyTmemLifecycle

    return VerifyTmemLifecycle


def _ptx():
    from mmatom.targets.ptx_emitter import PTXTarget

    return PTXTarget


MMATOM_UNIVERSE = Universe(
    all_dialects={"mma": _mma, "nvvm": _nvvm},
    all_passes={"lower-mma-to-nvvm": _lower_mma_to_nvvm, "verify-wgmma-lifecycle": _verify_wgmma_lifecycle,
                 "verify-tmem-lifecycle": _verify_tmem_lifecycle},
    all_targets={"ptx": _ptx},
)
