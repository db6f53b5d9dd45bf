"""PTX for the nvvm MMA ops: mma.sync / mma.sp.sync / block-scaled mma.sync, wgmma.mma_async, and
nvvm.inline_ptx (the forms upstream has no op for). Each op's atom comes from the op (`op.atom()`), is
checked against the chip (`fn.use_atom`), and is spelled by the catalogue with the family's operand order
(atoms/catalogue/operand_order.py)."""

from __future__ import annotations

import re

from mmatom.atoms.catalogue.operand_order import instruction
from mmatom.dialects import nvvm

from .ptx_function import PTXFunction, emits, reg_class


@emits(nvvm.MmaOp, nvvm.MmaSpOp, nvvm.MmaBlockScaleOp, nvvm.MmaSpBlockScaleOp)
def mma_sync(fn: PTXFunction, op: nvvm.MmaOp) -> None:
    atom = fn.use_atom(op)
    out = [fn.new(reg_class(t)) for t in op.res.type.types.data]
    fn.bind(op.res, out)  # extractvalue picks registers from this list
    extra = {}
    if isinstance(op, (nvvm.MmaSpOp, nvvm.MmaSpBlockScaleOp)):
        extra["e"] = fn.reg(op.sparseMetadata)
    if isinstance(op, (nvvm.MmaBlockScaleOp, nvvm.MmaSpBlockScaleOp)):
        extra.update(sfa=fn.reg(op.scaleAData), sfb=fn.reg(op.scaleBData), byte_id_b=fn.immediate(op.byteIdB, op, "byte-id-b"))
    fn.emit(instruction(atom, d=out, a=fn.regs(op.operandA), b=fn.regs(op.operandB), c=fn.regs(op.operandC),
                        **extra))


@emits(nvvm.WgmmaMmaAsyncOp)
def wgmma(fn: PTXFunction, op: nvvm.WgmmaMmaAsyncOp) -> None:
    atom = fn.use_atom(op)
    acc = list(fn.reg(op.inouts))
    if len(list(op.inouts.uses)) != 1:  # D overwrites its registers: keep a C that is still used elsewhere
        fresh = [fn.new(reg_class(t)) for t in op.inouts.type.types.data]
        for dst, src, t in zip(fresh, acc, op.inouts.type.types.data):
            fn.move(reg_class(t), dst, src)
        acc = fresh
    fn.bind(op.res, acc)
    fn.emit(instruction(atom, d=acc, a=fn.reg(op.descriptorA), b=fn.reg(op.descriptorB),
                        scale_d="0" if op.scaleD.data == "zero" else "1"))


@emits(nvvm.InlinePtxOp)
def inline_ptx(fn: PTXFunction, op: nvvm.InlinePtxOp) -> None:
    """Upstream's numbering: $0.. the results, then the read-only operands. The MMA atom its `mma.atom`
    attribute names is checked against the chip like any atom (and sets .version)."""
    names = [fn.define(r) for r in op.res] + fn.regs(op.readOnlyArgs)
    text = re.sub(r"\$(\d+)", lambda m: names[int(m.group(1))], op.ptxCode.data)
    if nvvm.ATOM_ATTR in op.attributes:
        fn.use_atom(op)
    for statement in filter(None, (t.strip() for t in text.split(";"))):
        fn.emit(statement + ";")
