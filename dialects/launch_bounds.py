"""A kernel's launch bounds, in upstream MLIR's NVVM spelling on its `llvm.func`:

    llvm.func @k(...) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>, nvvm.minctasm = 1 : i32}

`nvvm.reqntid` (the exact block shape, PTX `.reqntid`), `nvvm.maxntid` (an upper bound, `.maxntid`),
`nvvm.minctasm` (`.minnctapersm`: ptxas honours `setmaxnreg` only with it) and `nvvm.maxnreg` (`.maxnreg`).
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


@dataclass(frozen=True)
class LaunchBounds:
    reqntid: tuple[int, int, int] | None = None
    maxntid: tuple[int, int, int] | None = None
    minctasm: int | None = None
    maxnreg: int | None = None
    shared_bytes: int = 0

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
        return out


def _dims(func: Operation, name: str) -> tuple[int, int, int] | None:
    attr = func.attributes.get(name)
    if attr is None:
        return None
    if not (isinstance(attr, DenseArrayBase) and isinstance(attr.elt_type, IntegerType)):
        raise VerifyException(f"{name} must be an array of 1 to 3 thread counts, such as array<i32: 128>; got {attr}")
    dims = tuple(attr.get_values())
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise VerifyException(f"{name} = {attr}: expected 1 to 3 thread counts, each at least 1")
    if prod(dims) > THREADS_PER_CTA:
        raise VerifyException(f"{name} = {attr} asks for {prod(dims)} threads; a CTA has at most {THREADS_PER_CTA}")
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
    named = [n for n in (REQNTID, MAXNTID, MINCTASM, MAXNREG, SHARED_BYTES) if n in func.attributes]
    if not named:
        return LaunchBounds()
    if not isinstance(func, llvm.FuncOp) or KERNEL not in func.attributes:
        raise VerifyException(f"{', '.join(named)}: launch bounds belong on a kernel (an llvm.func with "
                              f"{KERNEL}); PTX has them only on .entry functions")
    bounds = LaunchBounds(_dims(func, REQNTID), _dims(func, MAXNTID), _count(func, MINCTASM, 1, 32),
                          _count(func, MAXNREG, 1, REGISTERS_PER_THREAD), _count(func, SHARED_BYTES, 0, SMEM_BYTES) or 0)
    if bounds.reqntid and bounds.maxntid:
        raise VerifyException(f"{REQNTID} and {MAXNTID} together: ptxas rejects the pair as conflicting "
                              f"directives; declare the exact count with {REQNTID} alone")
    return bounds


__all__ = ["KERNEL", "LaunchBounds", "MAXNREG", "MAXNTID", "MINCTASM", "REQNTID", "SHARED_BYTES", "launch_bounds"]
