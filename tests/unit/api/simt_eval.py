"""A small SIMT evaluator of a KernelBuilder kernel's straight-line body, every thread at once in numpy: what the
builder's warp-level API computes, checked without a GPU. A scalar is an array over threads, a fragment an array
(threads x values); shfl.sync reads across the lanes of each warp as PTX defines it (whole-warp member mask)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import Float32Type

from mmatom.dialects import nvvm
from mmatom.dialects.mma import ConvertOp, ExtractOp, FillOp, InsertOp
from mmatom.dialects.nvvm_warp import Ex2Op, RcpApproxFtzF32Op, ShflOp

_INT = {
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply, "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor, "arith.shli": np.left_shift,
    "arith.shrui": np.right_shift, "arith.divui": np.floor_divide, "arith.remui": np.remainder,
    "arith.minui": np.minimum, "arith.maxui": np.maximum,
}
_FLOAT = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.divide,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
}
_CMP = {"slt": np.less, "sle": np.less_equal, "sgt": np.greater, "sge": np.greater_equal, "eq": np.equal,
        "ne": np.not_equal, "olt": np.less, "ole": np.less_equal, "ogt": np.greater, "oge": np.greater_equal,
        "oeq": np.equal, "une": np.not_equal}


def _shfl(kind: str, x: np.ndarray, offset: np.ndarray) -> np.ndarray:
    lane = np.arange(x.shape[0]) % 32
    base = np.arange(x.shape[0]) - lane
    if kind == "bfly":
        src = lane ^ offset
    elif kind == "idx":
        src = offset & 31
    elif kind == "down":
        src = np.where(lane + offset <= 31, lane + offset, lane)
    else:
        src = np.where(lane - offset >= 0, lane - offset, lane)
    return x[base + src]


def _round(x: np.ndarray, elem: str) -> np.ndarray:
    """f32 values rounded to `elem` (f32, f16, or bf16: round to nearest even on the top 16 bits), kept as f32."""
    if elem == "f16":
        return x.astype(np.float16).astype(np.float32)
    if elem == "bf16":
        bits = x.astype(np.float32).view(np.uint32)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return bits.astype(np.uint32).view(np.float32)
    assert elem == "f32", f"simt_eval: no rounding to {elem}"
    return x.astype(np.float32)


def run(block, threads: int, seeds: dict) -> dict:
    """Evaluate `block`'s ops over `threads` threads; `seeds` maps SSA values (e.g. a fill's result) to the arrays
    they stand for. Returns every value's array."""
    env = dict(seeds)
    for op in block.ops:
        if op.results and op.results[0] in env:
            continue
        env.update(zip(op.results, _eval(op, env, threads)))
    return env


def _eval(op, env, threads):
    args = [env.get(o) for o in op.operands]
    name = op.name
    if isinstance(op, nvvm.SpecialRegisterOp) and op.register == "tid.x":
        return [np.arange(threads, dtype=np.int64)]
    if isinstance(op, arith.ConstantOp):
        dtype = np.float32 if isinstance(op.result.type, Float32Type) else np.int64
        return [np.full(threads, op.value.value.data, dtype=dtype)]
    if name in _INT:
        return [_INT[name](*args)]
    if name in _FLOAT:
        return [_FLOAT[name](*args).astype(np.float32)]
    if isinstance(op, arith.CmpiOp):
        return [_CMP[arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]](*args)]
    if isinstance(op, arith.CmpfOp):
        return [_CMP[arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]](*args)]
    if isinstance(op, arith.SelectOp):
        return [np.where(*args)]
    if isinstance(op, arith.UIToFPOp):
        return [args[0].astype(np.float32)]
    if isinstance(op, arith.BitcastOp):  # i32 lives as int64 here: its low 32 bits are the word
        if isinstance(op.result.type, Float32Type):
            return [(args[0] & 0xFFFFFFFF).astype(np.uint32).view(np.float32)]
        return [args[0].astype(np.float32).view(np.int32).astype(np.int64)]
    if name == "math.fma":  # rounded once, as fma.rn
        a, b, c = (x.astype(np.float64) for x in args)
        return [(a * b + c).astype(np.float32)]
    if isinstance(op, arith.NegfOp):
        return [-args[0]]
    if isinstance(op, ShflOp):
        return [_shfl(op.kind.data.value, env[op.val], env[op.offset])]
    if isinstance(op, nvvm.FshrOp):  # the low word of hi:lo shifted right by the amount mod 32
        hi, lo, amount = (env[x].astype(np.int64) & 0xFFFFFFFF for x in (op.hi, op.lo, op.amount))
        return [(((hi << 32) | lo) >> (amount & 31)) & 0xFFFFFFFF]
    if isinstance(op, Ex2Op):
        return [np.exp2(args[0]).astype(np.float32)]
    if isinstance(op, RcpApproxFtzF32Op):
        return [(1 / args[0]).astype(np.float32)]
    if isinstance(op, ExtractOp):
        assert args[0] is not None, "seed every mma.fill the test reads"
        return [args[0][:, op.index.value.data]]
    if isinstance(op, InsertOp):
        out = args[1].copy()
        out[:, op.index.value.data] = args[0]
        return [out]
    if isinstance(op, ConvertOp):  # value (t, v) stays (t, v): the verifier made the two layouts one map
        return [_round(args[0], op.res.type.elem.data)]
    if isinstance(op, llvm.ReturnOp):
        return []
    if isinstance(op, FillOp):
        return [None]  # its values are the test's to give (seeds)
    raise AssertionError(f"simt_eval: no rule for {name}")


__all__ = ["run"]
