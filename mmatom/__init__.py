"""mmatom: a compiler for NVIDIA tensor-core MMA atoms (SM70..SM121), on xDSL.

The public API (everything a DSL needs is in `__all__`; docs/api.md has one example per name):
atoms (`atom`, `atoms`, `Atom`), layouts (`Layout`, the CuTe algebra, `emit_layout`), kernels (`KernelBuilder`,
`LaunchConfig`, `TiledMma`), compilation (`compile`, `assemble`, `Kernel`, `KernelMetadata`) and the one error
type, `CompileError`.
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
from mmatom.pipeline import Pipeline  # noqa: E402
from mmatom.device import device_info, tensor_map  # noqa: E402
from mmatom.hopper_gemm import GemmConfig, gemm, gemm_kernel  # noqa: E402
from mmatom.gemm_autotune import gemm_autotune  # noqa: E402
from mmatom.targets.runtime import NoDriverError  # noqa: E402

__all__ = [
    "Atom", "CompileError", "Kernel", "KernelBuilder", "KernelMetadata", "LaunchConfig", "Layout", "Pipeline", "Swizzle", "TensorMapType",
    "GemmConfig", "TiledMma", "__version__", "assemble", "atom", "atoms", "compile", "compile_generated", "complement",
    "composition", "device_info", "emit_layout", "gemm", "gemm_autotune", "gemm_kernel", "tensor_map",
    "logical_divide", "logical_product", "zipped_divide",
    "NoDriverError",
]
