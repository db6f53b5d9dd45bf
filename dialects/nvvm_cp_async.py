"""SM80's asynchronous copies global -> SMEM of upstream MLIR's NVVM dialect, in upstream's op names and syntax:
each thread copies 4, 8 or 16 bytes without holding registers for them (`cp.async`), closes its copies into
groups and waits for all but the newest N of its groups. Registered in the nvvm dialect by `dialects/nvvm.py`.

  nvvm.cp.async.shared.global %dst, %src, 16, cache = cg, %bytes : !llvm.ptr<3>, !llvm.ptr<1>, i32
  nvvm.cp.async.commit.group
  nvvm.cp.async.wait.group 2

`%bytes` (optional: PTX's src-size) is how many of the copy's bytes are read from `%src`; the rest of the
destination is zero-filled -- 0 copies nothing and writes zeros (a row past a matrix's end).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, i32
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_operand_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from .nvvm_hopper import expect_type, parse_i32_count

SHARED = LLVMPointerType(IntAttr(3))
GLOBAL = LLVMPointerType(IntAttr(1))
COPY_BYTES = (4, 8, 16)  # cp.async's cp-size
CACHE_MODIFIERS = ("ca", "cg")  # .ca: cached in L1 too; .cg: in L2 only (16-byte copies only)


@irdl_op_definition
class CpAsyncOp(IRDLOperation):
    """`nvvm.cp.async.shared.global %dst, %src, N, cache = cg|ca (, %bytes)? : !llvm.ptr<3>, !llvm.ptr<1> (, i32)?`:
    this thread's asynchronous copy of N bytes (4, 8, 16; `cg` 16 only) from global `src` to shared `dst`, both
    N-byte aligned; with `%bytes`, only that many are read and the rest zero-filled."""

    name = "nvvm.cp.async.shared.global"
    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    cpSize = opt_operand_def(IntegerType)
    size = prop_def(IntegerAttr)
    modifier = prop_def(IntegerAttr)  # index into CACHE_MODIFIERS (upstream: #nvvm.load_cache_modifier)

    def __init__(self, dst: SSAValue, src: SSAValue, size: int = 16, cache: str = "cg",
                 src_bytes: SSAValue | None = None):
        super().__init__(operands=[dst, src, src_bytes],
                         properties={"size": IntegerAttr(size, i32),
                                     "modifier": IntegerAttr(CACHE_MODIFIERS.index(cache), i32)})

    @property
    def bytes(self) -> int:
        return self.size.value.data

    @property
    def cache(self) -> str:
        return CACHE_MODIFIERS[self.modifier.value.data]

    @classmethod
    def parse(cls, parser: Parser):
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        size = parse_i32_count(parser, lambda n: f"{cls.name}: a copy of {n} bytes; one of {COPY_BYTES}")
        parser.parse_punctuation(",")
        parser.parse_keyword("cache")
        parser.parse_punctuation("=")
        pos = parser.pos
        cache = parser.parse_identifier()
        if cache not in CACHE_MODIFIERS:
            parser.raise_error(f"{cls.name}: cache = {cache}; one of {', '.join(CACHE_MODIFIERS)}", pos, parser.pos)
        src_bytes = parser.parse_unresolved_operand() if parser.parse_optional_punctuation(",") else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types_at = parser.pos
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        operands = [dst, src] + ([src_bytes] if src_bytes is not None else [])
        if len(types) != len(operands):
            parser.raise_error(f"{cls.name}: {len(operands)} operands and {len(types)} types", types_at, parser.pos)
        resolved = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        op = cls(resolved[0], resolved[1], size, cache, resolved[2] if src_bytes is not None else None)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.dst)
        printer.print_string(", ")
        printer.print_operand(self.src)
        printer.print_string(f", {self.bytes}, cache = {self.cache}")
        if self.cpSize is not None:
            printer.print_string(", ")
            printer.print_operand(self.cpSize)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.dst.type}, {self.src.type}")
        if self.cpSize is not None:
            printer.print_string(f", {self.cpSize.type}")

    def verify_(self) -> None:
        expect_type(self, self.dst, SHARED, "the destination", " (a shared-memory pointer)")
        expect_type(self, self.src, GLOBAL, "the source", " (a global-memory pointer)")
        if self.bytes not in COPY_BYTES:
            raise VerifyException(f"{self.name}: a copy of {self.bytes} bytes; cp.async copies one of "
                                  f"{', '.join(map(str, COPY_BYTES))}")
        if self.cache == "cg" and self.bytes != 16:
            raise VerifyException(f"{self.name}: cache = cg copies 16 bytes, not {self.bytes} (ca takes 4, 8, 16)")
        if self.cpSize is not None:
            expect_type(self, self.cpSize, i32, "the source size", " (the bytes read; the rest zero-filled)")


@irdl_op_definition
class CpAsyncCommitGroupOp(IRDLOperation):
    """`nvvm.cp.async.commit.group`: this thread's cp.async copies since the last commit form a group."""

    name = "nvvm.cp.async.commit.group"
    assembly_format = "attr-dict"


@irdl_op_definition
class CpAsyncWaitGroupOp(IRDLOperation):
    """`nvvm.cp.async.wait.group N`: until at most N of this thread's newest groups are pending (0: all landed).
    Other threads' copies are theirs to wait for: a barrier after the wait makes them visible to all."""

    name = "nvvm.cp.async.wait.group"
    n = prop_def(IntegerAttr)

    def __init__(self, pending: int):
        super().__init__(properties={"n": IntegerAttr(pending, i32)})

    @property
    def pending(self) -> int:
        return self.n.value.data

    @classmethod
    def parse(cls, parser: Parser):
        pending = parse_i32_count(parser, cls.not_legal)
        op = cls(pending)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.pending}")
        printer.print_op_attributes(self.attributes)

    @classmethod
    def not_legal(cls, pending: int) -> str:
        return f"{cls.name}: {pending} pending groups is not legal; N is a non-negative i32"

    def verify_(self) -> None:
        if self.pending < 0:
            raise VerifyException(self.not_legal(self.pending))


CP_ASYNC_OPS = (CpAsyncOp, CpAsyncCommitGroupOp, CpAsyncWaitGroupOp)

__all__ = [c.__name__ for c in CP_ASYNC_OPS] + ["CP_ASYNC_OPS", "COPY_BYTES"]
