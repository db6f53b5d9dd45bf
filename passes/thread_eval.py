"""Values a kernel computes from constants and %tid.x alone, evaluated for one thread: which scf.if branches a
thread takes (its role: producer or consumer warpgroup), which named barrier it names. What the checkers use to
reason per thread without running the kernel."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, llvm, scf
from xdsl.ir import Operation, OpResult, SSAValue

from mmatom.dialects import nvvm

WARPGROUP = 128  # threads of a warpgroup: the unit a role (and a setmaxnreg, a named-barrier turn) is taken by
INT_OPS = {arith.AddiOp: lambda a, b: a + b, arith.SubiOp: lambda a, b: a - b, arith.MuliOp: lambda a, b: a * b,
           arith.AndIOp: lambda a, b: a & b, arith.OrIOp: lambda a, b: a | b, arith.XOrIOp: lambda a, b: a ^ b,
           arith.ShRUIOp: lambda a, b: a >> b, arith.ShLIOp: lambda a, b: a << b,
           arith.DivUIOp: lambda a, b: a // b if b else None, arith.RemUIOp: lambda a, b: a % b if b else None}
CMP = {"eq": int.__eq__, "ne": int.__ne__, "ult": int.__lt__, "ule": int.__le__, "ugt": int.__gt__,
       "uge": int.__ge__, "slt": int.__lt__, "sle": int.__le__, "sgt": int.__gt__, "sge": int.__ge__}


class ThreadEval:
    """Evaluates values and scf.if guards for one thread index at a time. Each value is compiled once into a
    function of the thread index (attribute access on the IR is what costs; a kernel's 384 threads then
    cost a call each)."""

    def __init__(self):
        self._fns: dict[SSAValue, Callable[[int], int | None]] = {}
        self._guards: dict[Operation, list | None] = {}

    def value(self, v: SSAValue, tid: int) -> int | None:
        """v for the thread `tid` when v depends only on constants and %tid.x (else None)."""
        return self._fn(v)(tid)

    def runs(self, op: Operation, tid: int) -> bool | None:
        """Whether thread `tid` reaches `op` through the scf.if guards around it (None: a guard is not known)."""
        guards = self._guards.get(op)
        if op not in self._guards:
            guards = self._guards[op] = self._guards_of(op)
        for cond, in_then in guards:
            taken = cond(tid)
            if taken is None:
                return None
            if bool(taken) != in_then:
                return False
        return True

    def _guards_of(self, op: Operation) -> list:
        guards = []
        while (parent := op.parent_op()) is not None and not isinstance(parent, llvm.FuncOp):
            if isinstance(parent, scf.IfOp):
                guards.append((self._fn(parent.cond), op.parent_region() is parent.true_region))
            op = parent
        return guards

    def _fn(self, v: SSAValue) -> Callable[[int], int | None]:
        found = self._fns.get(v)
        if found is None:
            found = self._fns[v] = self._compile(v)
        return found

    def _compile(self, v: SSAValue) -> Callable[[int], int | None]:
        op = v.op if isinstance(v, OpResult) else None
        if isinstance(op, arith.ConstantOp):
            value = getattr(op.value.value, "data", None)
            return lambda tid: value
        if isinstance(op, nvvm.SREG_OPS["tid.x"]):
            return lambda tid: tid
        if type(op) in INT_OPS or isinstance(op, arith.CmpiOp):
            lhs, rhs = self._fn(op.lhs), self._fn(op.rhs)
            if isinstance(op, arith.CmpiOp):
                compare = CMP[arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]]
                combine = lambda a, b: int(compare(a, b))  # noqa: E731
            else:
                combine = INT_OPS[type(op)]

            def apply(tid: int) -> int | None:
                a, b = lhs(tid), rhs(tid)
                return None if a is None or b is None else combine(a, b)
            return apply
        return lambda tid: None


__all__ = ["WARPGROUP", "ThreadEval"]
