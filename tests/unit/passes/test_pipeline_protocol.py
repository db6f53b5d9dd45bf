"""verify-pipeline on the shipped GEMM (every config passes) and on the GEMM with one protocol bug planted:
each bug is the diagnostic a user would need (the lit cases in tests/filecheck/passes pin the texts)."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32

from mmatom.dialects import nvvm, nvvm_hopper
from mmatom.dialects.launch_bounds import MINCTASM
from mmatom.dialects.mma import TmaLoadOp
from mmatom.kernels.gemm import CONFIGS, build_gemm
from mmatom.passes.errors import LifecycleError
from mmatom.passes.pipeline_protocol import VerifyPipeline


def _gemm(dtype="bf16", config=CONFIGS[0]):
    module, _ = build_gemm(dtype, config=config)
    return module


def _verify(module):
    VerifyPipeline().apply(Context(), module)


def _ops(module, kind):
    return [op for op in module.walk() if isinstance(op, kind)]


@pytest.mark.parametrize("dtype", ["bf16", "e4m3"])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.block_m}x{c.block_n}x{c.stages}")
def test_shipped_gemm_configs_pass(config, dtype):
    _verify(_gemm(dtype, config))


def test_expect_tx_bytes_must_equal_the_boxes():
    module = _gemm()
    expect = _ops(module, nvvm_hopper.MBarrierArriveExpectTxOp)[0]
    wrong = arith.ConstantOp(IntegerAttr(32768, i32))
    expect.parent_block().insert_op_before(wrong, expect)
    expect.operands[1] = wrong.result
    with pytest.raises(LifecycleError, match=r"posts 32768 bytes on barrier @smem \+ \d+ \+ 8\*%stage, .* land 49152: 16384 .* \+ 32768 .*completes before the data lands"):
        _verify(module)


def test_load_without_expect_tx():
    module = _gemm()
    _ops(module, nvvm_hopper.MBarrierArriveExpectTxOp)[0].detach()
    with pytest.raises(LifecycleError, match="no nvvm.mbarrier.arrive.expect_tx on its barrier"):
        _verify(module)


def test_consumer_must_wait_full_before_the_wgmma():
    module = _gemm()
    waits = _ops(module, nvvm.MBarrierTryWaitParityOp)
    waits[1].detach()  # [0] is the producer's empty wait, [1] the consumers' full wait
    with pytest.raises(LifecycleError, match="operand A reads a TMA-filled stage whose full barrier"):
        _verify(module)


def test_release_before_the_wgmma_wait():
    module = _gemm()
    release = _ops(module, nvvm_hopper.MBarrierArriveOp)[0]
    wait = _ops(module, nvvm.WgmmaWaitGroupSyncOp)[0]
    release.detach()
    wait.parent_block().insert_op_before(release, wait)
    with pytest.raises(LifecycleError, match=r"releases the stage .* may still read it.*wait.group.sync.aligned 0"):
        _verify(module)


def test_setmaxnreg_needs_minctasm():
    module = _gemm()
    func = next(op for op in module.ops if op.name == "llvm.func")
    del func.attributes[MINCTASM]
    with pytest.raises(LifecycleError, match="C7508"):
        _verify(module)


def test_setmaxnreg_budget():
    module = _gemm()
    grow = next(op for op in _ops(module, nvvm_hopper.SetMaxRegisterOp) if op.increase)
    grow.properties["regCount"] = IntegerAttr(256, 32)
    with pytest.raises(LifecycleError, match=r"warpgroup 0: 40, warpgroup 1: 256, warpgroup 2: 256.*65536"):
        _verify(module)


def test_misaligned_tma_destination():
    module = _gemm()
    load = _ops(module, TmaLoadOp)[0]
    moved = llvm.GEPOp(load.dst, [512], pointee_type=IntegerType(8), result_type=load.dst.type)
    load.parent_block().insert_op_before(moved, load)
    load.operands[3] = moved.result
    with pytest.raises(LifecycleError, match="not 1024-byte aligned"):
        _verify(module)


PINGPONG = next(c for c in CONFIGS if c.pingpong and c.block_m == 128)


def test_pingpong_consumers_without_turns_race_on_the_parity():
    """The first ping-pong kernel (session 10): each consumer warpgroup takes every other tile's ring
    iterations, and without the named-barrier turns warpgroup 1's first wait for fill n passed on fill n - 2
    (NaNs on the H100). The check sees the skipping counter and no turns around the K loop."""
    module = _gemm(config=PINGPONG)
    for op in _ops(module, nvvm.BarrierArriveOp) + [op for op in _ops(module, nvvm.BarrierOp)
                                                    if op.numberOfThreads is not None and op.barrierId is not None
                                                    and _constant(op.numberOfThreads) == 256]:
        op.detach()
    with pytest.raises(LifecycleError, match=r"the ring counter of barrier @smem .* is carried round the enclosing "
                                             r"loop as [^,]*%k_tiles[^,]*, not the count the inner loop reached, so it skips the "
                                             r"fills between; a parity wait cannot tell a phase from the one two"):
        _verify(module)


def test_pingpong_turns_must_pair_the_two_warpgroups():
    """Turns on one barrier id each warpgroup both syncs and arrives on order nothing between the two."""
    module = _gemm(config=PINGPONG)
    arrive = _ops(module, nvvm.BarrierArriveOp)[0]
    sync = next(op for op in _ops(module, nvvm.BarrierOp) if op.numberOfThreads is not None
                and _constant(op.numberOfThreads) == 256)
    arrive.operands[0] = sync.barrierId
    with pytest.raises(LifecycleError, match="order this loop after the consumer that waits the skipped fills"):
        _verify(module)


def test_consumer_counter_must_step_by_one():
    module = _gemm()
    wait = _ops(module, nvvm.MBarrierTryWaitParityOp)[1]
    k_loop = wait.parent_op()
    yield_ = k_loop.body.block.last_op
    two = arith.ConstantOp(IntegerAttr(2, i32))
    step = arith.AddiOp(k_loop.body.block.args[1], two.result)
    yield_.parent_block().insert_ops_before([two, step], yield_)
    yield_.operands[0] = step.result
    with pytest.raises(LifecycleError, match=r"advances by 2 per trip, not 1"):
        _verify(module)


def test_producer_counter_must_not_restart_per_tile():
    module = _gemm()
    wait = _ops(module, nvvm.MBarrierTryWaitParityOp)[0]  # the producer's empty wait
    k_loop = wait.parent_op()
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    k_loop.parent_block().insert_op_before(zero, k_loop)
    k_loop.operands[3] = zero.result  # the K loop's iter_arg init: 0 on every tile
    with pytest.raises(LifecycleError, match="restarts at 0 at every trip of an enclosing loop.*walk every iteration"):
        _verify(module)


def _constant(v):
    return v.op.value.value.data if isinstance(v.op, arith.ConstantOp) else None


# -- the attention kernel's K and V rings: a prologue's wait, then loops that carry each ring's count
#    (passes/ring_phases.py walks a trip's waits in program order)

def _attention(head_dim=128, causal=False):
    from mmatom.kernels.attention.config import default_config
    from mmatom.kernels.attention.kernel import build_attention
    module, _ = build_attention("bf16", default_config(head_dim, causal), causal)
    return module


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128, 256])
def test_shipped_attention_configs_pass(head_dim, causal):
    _verify(_attention(head_dim, causal))


def test_a_loop_entered_past_a_fill_no_wait_took_skips_it():
    """The consumer's prologue waits on K's first fill, then its KV loops carry the count on from there; a loop
    entered one fill further on than the thread waited skips a fill (planted: K's count enters at + 2)."""
    from xdsl.dialects import scf
    module = _attention()
    consumer_loop = [op for op in _ops(module, scf.ForOp) if len(op.iter_args) == 3][-1]  # (q, k, v) counters
    kv_loop = next(op for op in consumer_loop.body.block.ops if isinstance(op, scf.ForOp))
    two = arith.ConstantOp(IntegerAttr(2, i32))
    skipped = arith.AddiOp(kv_loop.iter_args[0].owner.lhs, two.result)
    consumer_loop.body.block.insert_ops_before([two, skipped], kv_loop)
    kv_loop.operands[3] = skipped.result  # (lb, ub, step, then the carried values: K's count first)
    with pytest.raises(LifecycleError, match=r"the ring counter of barrier @smem .* advances on paths that do not "
                                             r"wait \(a wait under scf.for that does not carry the count\)"):
        _verify(module)


def _kv_step_loop(module):
    """The consumer's first KV loop (carrying the K and V counts) and its K wait."""
    from xdsl.dialects import scf
    consumer_loop = [op for op in _ops(module, scf.ForOp) if len(op.iter_args) == 3][-1]  # (q, k, v) counters
    kv_loop = next(op for op in consumer_loop.body.block.ops if isinstance(op, scf.ForOp))
    k_wait = next(op for op in kv_loop.body.block.ops if isinstance(op, nvvm.MBarrierTryWaitParityOp))
    return kv_loop, k_wait


def test_a_fill_waited_twice_is_one_the_count_already_passed():
    module = _attention()
    _, k_wait = _kv_step_loop(module)
    k_wait.parent_block().insert_op_after(k_wait.clone(), k_wait)  # the same fill again, after the count moved on
    with pytest.raises(LifecycleError, match=r"the ring counter of barrier @smem .* waits on fill 1\*\(a block "
                                             r"argument\) where the thread's waits reached 1 \+ 1\*\(a block argument\)"):
        _verify(module)


def test_a_loop_that_carries_the_count_on_past_its_waits_skips_fills():
    """K's count is yielded two fills on per KV step that waits one: the next loop and tile start past a fill."""
    module = _attention()
    kv_loop, _ = _kv_step_loop(module)
    step = kv_loop.body.block.last_op.operands[0].owner  # k_it + 1
    two = arith.ConstantOp(IntegerAttr(2, i32))
    skipped = arith.AddiOp(step.lhs, two.result)
    kv_loop.body.block.insert_ops_before([two, skipped], kv_loop.body.block.last_op)
    kv_loop.body.block.last_op.operands[0] = skipped.result
    with pytest.raises(LifecycleError, match=r"the ring counter of barrier @smem .* is carried round a loop inside as "
                                             r"2 \+ 1\*\(a block argument\), not where its waits walk it \(1 \+ 1\*"):
        _verify(module)
