"""mmatom: a compiler for NVIDIA tensor-core MMA atoms (SM70..SM121), on xDSL.

The public API (everything a DSL needs is in `__all__`; docs/api.md has one example per name):
atoms (`atom`, `atoms`, `Atom`), layouts (`Layout`, the CuTe algebra, `emit_layout`), kernels (`KernelBuilder` and
its `Value`s, `TiledMma`, `SmemRing`, `TileScheduler`, `ceil_div` / `min_value` / `max_value` / `select`), compilation
(`compile`, `assemble`, `Kernel`, `KernelMetadata`) and the one error type, `CompileError`.

Kernels built on this API live in `mmatom.kernels` (the H100 GEMM: `mmatom.kernels.gemm`; attention:
`mmatom.kernels.attention`). `mmatom.gemm`, `mmatom.gemm_kernel`, `mmatom.gemm_autotune`, `mmatom.GemmConfig`,
`mmatom.attention` and `mmatom.attention_kernel` name them, imported on first use: `import mmatom` loads the
compiler only.
"""

__version__ = "0.1.0"

from mmatom.compiler import Kernel, KernelMetadata, assemble, compile, compile_generated  # noqa: E402
from mmatom.errors import CompileError  # noqa: E402
from mmatom.layout import (  # noqa: E402
    Layout,
    Swizzle,
    complement,
    composition,
    logical_divide,
    logical_product,
    zipped_divide,
)
from mmatom.kernel_builder import KernelBuilder, LaunchConfig  # noqa: E402
from mmatom.lookup import Atom, atom, atoms  # noqa: E402
from mmatom.lowering.layout_arith import emit_layout  # noqa: E402
from mmatom.tiled_mma import TiledMma  # noqa: E402
from mmatom.dialects.mma_types import TensorMapType  # noqa: E402
from mmatom.smem import SmemTile, SmemTiles  # noqa: E402
from mmatom.smem_ring import SmemRing  # noqa: E402
from mmatom.scheduler import ListedWalk, TileScheduler  # noqa: E402
from mmatom.values import Value, ceil_div, funnel_shift_right, max_value, min_value, select  # noqa: E402
from mmatom.device import device_info, tensor_map  # noqa: E402
from mmatom.targets.runtime import NoDriverError  # noqa: E402

# the applications' entry points, each imported from its mmatom.kernels package on first use (PEP 562)
_KERNEL_ENTRY_POINTS = {"gemm": ("gemm", "gemm_kernel", "gemm_autotune", "GemmConfig"),
                        "attention": ("attention", "attention_kernel")}


def __getattr__(name: str):
    package = next((p for p, names in _KERNEL_ENTRY_POINTS.items() if name in names), None)
    if package is not None:
        loaded = _kernel_package(package)
        globals().update({n: getattr(loaded, n) for n in _KERNEL_ENTRY_POINTS[package]})  # later: plain names
        return globals()[name]
    raise AttributeError(f"module 'mmatom' has no attribute {name!r}")


def _kernel_package(package: str):
    """The application's package, by import statements (torch.compile traces those; importlib it refuses)."""
    if package == "gemm":
        from mmatom.kernels import gemm as loaded  # noqa: PLC0415 - the application loads on first use
    else:
        from mmatom.kernels import attention as loaded  # noqa: PLC0415
    return loaded


__all__ = [
    "Atom", "CompileError", "Kernel", "KernelBuilder", "KernelMetadata", "LaunchConfig", "Layout", "ListedWalk",
    "SmemRing", "SmemTile", "SmemTiles", "Swizzle", "TensorMapType", "TileScheduler", "TiledMma", "Value", "__version__",
    "assemble", "atom", "atoms", "ceil_div", "compile", "compile_generated", "complement", "composition",
    "device_info", "emit_layout", "funnel_shift_right", "logical_divide", "logical_product", "max_value", "min_value",
    "select",
    "tensor_map", "zipped_divide", "NoDriverError",
]
