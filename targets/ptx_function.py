"""What every PTX emission routine shares: register classes by IR type, the function being emitted (its
registers, SSA names, labels, lines, and the MMA atoms it issues), the per-op emission registry, and the
emission error.

Op emitters live in their own modules (ptx_arith, ptx_llvm, ptx_control, ptx_nvvm, ptx_mma, ptx_tcgen05)
and register with `@emits(OpType)`: a function `(fn: PTXFunction, op) -> None` that reads operand
registers with `fn.reg`, defines results with `fn.define` / `fn.bind`, and appends lines with `fn.emit`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import llvm
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerType, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.catalogue import Atom, AtomError, resolve
from mmatom.dialects.diagnostics import OpError
from mmatom.dialects.nvvm import constant_value


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
    if isinstance(t, VectorType) and isinstance(t.element_type, (Float16Type, BFloat16Type)) and \
            tuple(t.get_shape()) == (2,):
        return B32  # a 16-bit float pair packed in one register
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


def addr_space(t: llvm.LLVMPointerType) -> int:
    return t.addr_space.data if hasattr(t.addr_space, "data") else 0


def mov(cls: RegClass, dst: str, src: str) -> str:
    """A register copy of class `cls`."""
    return f"mov.pred {dst}, {src};" if cls is PRED else f"mov.b{cls.bits} {dst}, {src};"


# -- the emission registry -------------------------------------------------------------------------

OpEmitter = Callable[["PTXFunction", Operation], None]
_EMITTERS: dict[type[Operation], OpEmitter] = {}


def emits(*op_types: type[Operation]) -> Callable[[OpEmitter], OpEmitter]:
    """Register the decorated function as the PTX emitter of `op_types` (and their subclasses)."""
    def register(f: OpEmitter) -> OpEmitter:
        for t in op_types:
            if t in _EMITTERS:
                raise ValueError(f"{t.__name__} already has a PTX emitter ({_EMITTERS[t].__qualname__})")
            _EMITTERS[t] = f
        return f
    return register


def emitter_for(op: Operation) -> OpEmitter | None:
    for t in type(op).__mro__:
        if t in _EMITTERS:
            return _EMITTERS[t]
    return None


def _label_stem(block: Block) -> str:
    """A PTX identifier part from the block's name hint (`^for` -> $L_for_N), `bb` for a block without one."""
    hint = block.name_hint or "bb"
    return "".join(c if c.isalnum() or c in "_$" else "_" for c in hint)


# -- the function being emitted --------------------------------------------------------------------

Registers = str | list[str]  # one register, or one per element/struct member


@dataclass
class PTXFunction:
    name: str
    target: str  # the chip every MMA atom is checked against
    lines: list[str] = field(default_factory=list)
    counts: dict[RegClass, int] = field(default_factory=lambda: {c: 0 for c in CLASSES})
    names: dict[SSAValue, Registers] = field(default_factory=dict)
    labels: int = 0
    atoms: list[Atom] = field(default_factory=list)  # MMA atoms issued, in order
    versions: list[tuple[int, int]] = field(default_factory=list)  # the .version each atom needs
    block_labels: dict[Block, str] = field(default_factory=dict)  # the label of each block a branch jumps to
    next_block: Block | None = None  # the block emitted after the current one: a branch to it falls through

    # registers

    def new(self, cls: RegClass) -> str:
        """A fresh register of class `cls`."""
        self.counts[cls] += 1
        return f"{cls.prefix}{self.counts[cls]}"

    def define(self, v: SSAValue) -> str:
        """A fresh register that holds `v` from now on."""
        try:
            cls = reg_class(v.type)
        except KeyError:
            raise PTXEmissionError(v.owner if isinstance(v.owner, Operation) else None,
                                   f"no PTX register class for type {v.type}") from None
        name = self.new(cls)
        self.names[v] = name
        return name

    def bind(self, v: SSAValue, registers: Registers) -> None:
        """`v` lives in registers that already exist (an alias, or one register per element)."""
        self.names[v] = registers

    def reg(self, v: SSAValue) -> Registers:
        """The register(s) holding `v`."""
        try:
            return self.names[v]
        except KeyError:
            raise PTXEmissionError(v.owner if isinstance(v.owner, Operation) else None,
                                   "a value is used before the emitter defined it") from None

    def regs(self, values) -> list[str]:
        return [self.reg(v) for v in values]

    def bound(self, v: SSAValue) -> Registers | None:
        return self.names.get(v)

    def operand(self, v: SSAValue) -> str:
        """`v` as an immediate where it is a constant, else its register."""
        value = constant_value(v)
        return str(value) if value is not None else self.reg(v)

    def immediate(self, v: SSAValue, user: Operation, what: str) -> int:
        value = constant_value(v)
        if value is None:
            raise PTXEmissionError(user, f"{user.name}: {what} must be a constant (PTX takes an immediate)")
        return value

    # text

    def label(self, what: str) -> str:
        """A fresh label name; `place` puts it in the text."""
        self.labels += 1
        return f"$L_{what}_{self.labels}"

    def block_label(self, block: Block) -> str:
        """The label of `block` (named after its name hint), allocated on first request."""
        label = self.block_labels.get(block)
        if label is None:
            label = self.block_labels[block] = self.label(_label_stem(block))
        return label

    def place(self, label: str) -> None:
        self.lines.append(f"{label}:")

    def emit(self, text: str) -> None:
        self.lines.append("\t" + text)

    def move(self, cls: RegClass, dst: str, src: str) -> None:
        self.emit(mov(cls, dst, src))

    # ops

    def emit_op(self, op: Operation) -> None:
        emitter = emitter_for(op)
        if emitter is None:
            raise PTXEmissionError(op, f"the PTX target cannot emit '{op.name}'")
        emitter(self, op)

    def use_atom(self, op: Operation, atom: Atom | None = None) -> Atom:
        """The op's MMA atom (`op.atom()` unless given), checked against the chip; its .version is recorded."""
        try:
            atom = op.atom() if atom is None else atom
        except VerifyException as err:
            raise PTXEmissionError(op, str(err)) from None
        try:
            resolved = resolve(atom, self.target)
        except AtomError as err:
            raise PTXEmissionError(op, f"{op.name}: {err}") from None
        self.versions.append(resolved.min_version)
        self.atoms.append(atom)
        return atom
