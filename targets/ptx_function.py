"""What every PTX emission routine shares: register classes by IR type, a function being emitted (its
registers, SSA names, labels and lines), and the emission error. The op emitters (`ptx_emitter.py` and
the modules it dispatches to) build on it."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from mmatom.dialects.diagnostics import OpError


class PTXEmissionError(OpError):
    """An nvvm-level module the PTX target cannot print; `op` is where."""


# -- register classes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class RegClass:
    ptx_type: str  # .reg declaration type
    prefix: str
    bits: int


PRED = RegClass(".pred", "%p", 1)
B16 = RegClass(".b16", "%rs", 16)
B32 = RegClass(".b32", "%r", 32)
F32 = RegClass(".f32", "%f", 32)
B64 = RegClass(".b64", "%rd", 64)
F64 = RegClass(".f64", "%fd", 64)
CLASSES = (PRED, B16, B32, F32, B64, F64)


def reg_class(t: Attribute) -> RegClass:
    if isinstance(t, IntegerType):
        w = t.width.data
        return {1: PRED, 8: B16, 16: B16, 32: B32, 64: B64}[w]
    if isinstance(t, Float32Type):
        return F32
    if isinstance(t, Float64Type):
        return F64
    if isinstance(t, (Float16Type, BFloat16Type)):
        return B16
    if isinstance(t, VectorType) and isinstance(t.element_type, Float16Type) and tuple(t.get_shape()) == (2,):
        return B32
    if isinstance(t, llvm.LLVMPointerType):
        return B32 if addr_space(t) == 6 else B64  # a TMEM address is 32 bits
    raise KeyError(t)


def value_bits(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, VectorType):
        return 32
    return {Float16Type: 16, BFloat16Type: 16, Float32Type: 32, Float64Type: 64}.get(type(t), 64)


SPACES = {0: "", 1: ".global", 3: ".shared", 4: ".const", 5: ".local"}


@dataclass
class PTXFunction:
    name: str
    lines: list[str] = field(default_factory=list)
    counts: dict[RegClass, int] = field(default_factory=lambda: {c: 0 for c in CLASSES})
    names: dict[SSAValue, str] = field(default_factory=dict)
    labels: int = 0

    def new(self, cls: RegClass) -> str:
        self.counts[cls] += 1
        return f"{cls.prefix}{self.counts[cls]}"

    def define(self, v: SSAValue) -> str:
        try:
            cls = reg_class(v.type)
        except KeyError:
            raise PTXEmissionError(v.owner if isinstance(v.owner, Operation) else None,
                                   f"no PTX register class for type {v.type}") from None
        name = self.new(cls)
        self.names[v] = name
        return name

    def label(self, what: str) -> str:
        self.labels += 1
        return f"$L_{what}_{self.labels}"

    def emit(self, text: str) -> None:
        self.lines.append("\t" + text)


def constant_int(v: SSAValue, user: Operation) -> int:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    raise PTXEmissionError(user, f"{user.name}: the sparsity selector must be a constant (PTX takes an immediate)")


def addr_space(t: llvm.LLVMPointerType) -> int:
    return t.addr_space.data if hasattr(t.addr_space, "data") else 0
