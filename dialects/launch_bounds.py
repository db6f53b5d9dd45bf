"""A kernel's launch bounds, in upstream MLIR's NVVM spelling on its `llvm.func`:

    llvm.func @k(...) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>, nvvm.minctasm = 1 : i32}

`nvvm.reqntid` (the exact block shape, PTX `.reqntid`), `nvvm.maxntid` (an upper bound, `.maxntid`),
`nvvm.minctasm` (`.minnctapersm`: ptxas honours `setmaxnreg` only with it), `nvvm.maxnreg` (`.maxnreg`) and
`nvvm.cluster_dim` (a thread-block cluster: `.explicitcluster .reqnctapercluster X, Y, Z`).
The declared thread count is what `mmatom.compile` records and what a launch is checked against. mmatom's own
`mma.shared_bytes = N : i32` says how much dynamic shared memory the kernel needs (its `extern .shared` array):
a launch gets that much by default and is refused with less.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.limits import REGISTERS_PER_THREAD, SMEM_BYTES, THREADS_PER_CTA

KERNEL = "nvvm.kernel"
REQNTID, MAXNTID, MINCTASM, MAXNREG = "nvvm.reqntid", "nvvm.maxntid", "nvvm.minctasm", "nvvm.maxnreg"
SHARED_BYTES = "mma.shared_bytes"
CLUSTER_DIM = "nvvm.cluster_dim"  # upstream's name; PTX .explicitcluster + .reqnctapercluster X, Y, Z
CLUSTER_MAX = 8  # CTAs in a portable cluster (more needs the non-portable-size opt-in)


@dataclass(frozen=True)
class LaunchBounds:
    reqntid: tuple[int, int, int] | None = None
    maxntid: tuple[int, int, int] | None = None
    minctasm: int | None = None
    maxnreg: int | None = None
    shared_bytes: int = 0
    cluster_dim: tuple[int, int, int] | None = None

    @property
    def threads(self) -> int | None:
        """The exact thread count a launch must have (None: the kernel does not declare one)."""
        return prod(self.reqntid) if self.reqntid else None

    def ptx_directives(self) -> list[str]:
        out = []
        if self.reqntid:
            out.append(".reqntid " + ", ".join(map(str, self.reqntid)))
        if self.maxntid:
            out.append(".maxntid " + ", ".join(map(str, self.maxntid)))
        if self.minctasm is not None:
            out.append(f".minnctapersm {self.minctasm}")
        if self.maxnreg is not None:
            out.append(f".maxnreg {self.maxnreg}")
        if self.cluster_dim is not None:
            out += [".explicitcluster", ".reqnctapercluster " + ", ".join(map(str, self.cluster_dim))]
        return out


def _dims(func: Operation, name: str, limit: int = THREADS_PER_CTA, what: str = "threads",
          whole: str = "a CTA", example: str = "array<i32: 128>") -> tuple[int, int, int] | None:
    attr = func.attributes.get(name)
    if attr is None:
        return None
    if not (isinstance(attr, DenseArrayBase) and isinstance(attr.elt_type, IntegerType)):
        raise VerifyException(f"{name} must be an array of 1 to 3 {what[:-1]} counts, such as {example}; got {attr}")
    dims = tuple(attr.get_values())
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise VerifyException(f"{name} = {attr}: expected 1 to 3 {what[:-1]} counts, each at least 1")
    if prod(dims) > limit:
        raise VerifyException(f"{name} = {attr} asks for {prod(dims)} {what}; {whole} has at most {limit}")
    return (*dims, *(1,) * (3 - len(dims)))


def _count(func: Operation, name: str, low: int, high: int) -> int | None:
    attr = func.attributes.get(name)
    if attr is None:
        return None
    if not isinstance(attr, IntegerAttr) or not low <= attr.value.data <= high:
        raise VerifyException(f"{name} must be an integer in [{low}, {high}], such as {name} = {low} : i32; "
                              f"got {attr}")
    return attr.value.data


def launch_bounds(func: Operation) -> LaunchBounds:
    """The launch bounds `func` declares, checked (VerifyException naming the attribute, the value and the legal
    range): only on kernels, `reqntid` and `maxntid` not both (ptxas: "Conflicting directives")."""
    named = [n for n in (REQNTID, MAXNTID, MINCTASM, MAXNREG, SHARED_BYTES, CLUSTER_DIM) if n in func.attributes]
    if not named:
        return LaunchBounds()
    if not isinstance(func, llvm.FuncOp) or KERNEL not in func.attributes:
        raise VerifyException(f"{', '.join(named)}: launch bounds belong on a kernel (an llvm.func with "
                              f"{KERNEL}); PTX has them only on .entry functions")
    bounds = LaunchBounds(_dims(func, REQNTID), _dims(func, MAXNTID), _count(func, MINCTASM, 1, 32),
                          _count(func, MAXNREG, 1, REGISTERS_PER_THREAD), _count(func, SHARED_BYTES, 0, SMEM_BYTES) or 0,
                          _dims(func, CLUSTER_DIM, CLUSTER_MAX, "CTAs", "a portable cluster", "array<i32: 2, 1, 1>"))
    if bounds.reqntid and bounds.maxntid:
        raise VerifyException(f"{REQNTID} and {MAXNTID} together: ptxas rejects the pair as conflicting "
                              f"directives; declare the exact count with {REQNTID} alone")
    return bounds


__all__ = ["CLUSTER_DIM", "KERNEL", "LaunchBounds", "MAXNREG", "MAXNTID", "MINCTASM", "REQNTID", "SHARED_BYTES", "launch_bounds"]
