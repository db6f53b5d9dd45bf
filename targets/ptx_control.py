"""PTX for control flow: scf.for and scf.if become branches (their yields become register copies), and
llvm.return becomes ret."""

from __future__ import annotations

from xdsl.dialects import llvm, scf
from xdsl.ir import SSAValue

from .ptx_function import PRED, PTXFunction, emits, reg_class, value_bits


@emits(llvm.ReturnOp)
def return_(fn: PTXFunction, op: llvm.ReturnOp) -> None:
    fn.emit("ret;")


@emits(scf.ForOp)
def for_(fn: PTXFunction, op: scf.ForOp) -> None:
    body = op.body.block
    iv = fn.define(body.args[0])
    fn.emit(f"mov.b{value_bits(op.lb.type)} {iv}, {fn.reg(op.lb)};")
    carried = [fn.define(a) for a in body.args[1:]]
    for reg, init in zip(carried, op.iter_args):
        fn.emit(f"mov.b{reg_class(init.type).bits} {reg}, {fn.reg(init)};".replace("mov.b1 ", "mov.pred "))
    head, end = fn.label("for"), fn.label("end")
    done = fn.new(PRED)
    bits = value_bits(op.lb.type)
    fn.place(head)
    fn.emit(f"setp.ge.s{bits} {done}, {iv}, {fn.reg(op.ub)};")
    fn.emit(f"@{done} bra {end};")
    for inner in body.ops:
        if isinstance(inner, scf.YieldOp):
            _parallel_copy(fn, carried, list(inner.arguments))
            continue
        fn.emit_op(inner)
    fn.emit(f"add.s{bits} {iv}, {iv}, {fn.reg(op.step)};")
    fn.emit(f"bra.uni {head};")
    fn.place(end)
    for res, reg in zip(op.results, carried):
        fn.bind(res, reg)


def _parallel_copy(fn: PTXFunction, targets: list[str], values: list[SSAValue]) -> None:
    """targets := values all at once: a yield may pass carried registers around (yield %b, %a)."""
    sources = fn.regs(values)
    clobbered = {t for t, s in zip(targets, sources) if t != s}
    if any(s in clobbered for s in sources):
        staged = []
        for s, v in zip(sources, values):
            tmp = fn.new(reg_class(v.type))
            fn.move(reg_class(v.type), tmp, s)
            staged.append(tmp)
        sources = staged
    for t, s, v in zip(targets, sources, values):
        if t != s:
            fn.move(reg_class(v.type), t, s)


@emits(scf.IfOp)
def if_(fn: PTXFunction, op: scf.IfOp) -> None:
    outs = [fn.define(r) for r in op.results]
    other, end = fn.label("else"), fn.label("endif")
    fn.emit(f"@!{fn.reg(op.cond)} bra {other};")
    for region, label in ((op.true_region, other), (op.false_region, end)):
        if region.blocks:
            for inner in region.block.ops:
                if isinstance(inner, scf.YieldOp):
                    for reg, val in zip(outs, inner.arguments):
                        fn.emit(f"mov.b{reg_class(val.type).bits} {reg}, {fn.reg(val)};")
                    continue
                fn.emit_op(inner)
        if label is other:
            fn.emit(f"bra.uni {end};")
        fn.place(label)
