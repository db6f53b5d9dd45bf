"""kb.atomic, kb.sync.fence, kb.sync.named_barrier_any and kb.if_ with results: the ops they build (upstream's
spelling), their diagnostics, and that ptxas takes a kernel that counts finished CTAs with them."""

import pytest
from xdsl.dialects import scf

import mmatom
from mmatom.dialects import nvvm
from mmatom.dialects.llvm_atomic import AtomicRMWOp, FenceOp


def builder():
    return mmatom.KernelBuilder("k", [("p", "ptr"), ("n", "i32"), ("w", "i64"), ("x", "f32")], "sm_90a", threads=128)


def test_the_ops_and_their_spelling():
    kb = builder()
    old = kb.atomic.add(kb.param("p"), 1, index=kb.tid(), ordering="relaxed")
    was = kb.atomic.exchange(kb.param("p"), kb.param("w"), scope="sys")
    kb.sync.fence("cta", "seq_cst")
    rmw, swap = old.ssa.owner, was.ssa.owner
    assert isinstance(rmw, AtomicRMWOp) and (rmw.bin_op.data, rmw.ordering.data, rmw.scope) == \
        ("add", "monotonic", "device") and old.type == rmw.val.type
    assert (swap.bin_op.data, swap.ordering.data, swap.scope) == ("xchg", "acq_rel", "") and str(was.type) == "i64"
    fence = next(op for op in kb.block.ops if isinstance(op, FenceOp))
    assert (fence.ordering.data, fence.scope) == ("seq_cst", "block")


def test_a_barrier_that_reduces_and_an_if_with_results():
    kb = builder()
    with (branch := kb.if_(kb.tid() == 0, otherwise=[7])):
        branch.yield_(kb.param("n") + 1)
    got = branch.results[0]
    assert isinstance(got.ssa.owner, scf.IfOp) and str(got.type) == "i32"
    any_ = kb.sync.named_barrier_any(3, 128, got == 8)
    reduction = any_.ssa.owner.operands[0].owner
    assert isinstance(reduction, nvvm.BarrierOp) and reduction.reductionOp.data.value == "or"
    assert str(any_.type) == "i1"
    kb.finish()


@pytest.mark.parametrize("build, message", [
    (lambda kb: kb.atomic.add(kb.param("p"), 1, scope="device"), "atomic.add: scope 'device'; one of cta, cluster, gpu, sys"),
    (lambda kb: kb.atomic.add(kb.param("p"), 1, ordering="seq_cst"),
     "atomic.add: ordering 'seq_cst'; one of relaxed, acquire, release, acq_rel"),
    (lambda kb: kb.atomic.exchange(kb.param("p"), kb.param("x")), "atomic.exchange: the value is f32; an i32 or i64"),
    (lambda kb: kb.sync.fence("gpu", "release"), "fence: ordering 'release'; one of acq_rel, seq_cst"),
    (lambda kb: kb.sync.named_barrier_any(1, 128, kb.tid()), "named_barrier_any: the predicate .* is not an i1"),
    (lambda kb: kb.if_(kb.tid() == 0, otherwise=[1]).otherwise(), "has its else branch already"),
], ids=["scope", "ordering", "value", "fence", "predicate", "else"])
def test_diagnostics(build, message):
    with pytest.raises(mmatom.CompileError, match=message):
        build(builder())


def test_an_if_with_results_must_yield_them():
    kb = builder()
    with pytest.raises(mmatom.CompileError, match=r"an if_ with `otherwise` values must end its branch with "
                                                  r"branch.yield_"):
        with kb.if_(kb.tid() == 0, otherwise=[1]):
            pass
    with pytest.raises(mmatom.CompileError, match=r"if_ has 1 results \(its `otherwise` values\); yield_ got 2"):
        with (branch := kb.if_(kb.tid() == 0, otherwise=[1])):
            branch.yield_(1, 2)


@pytest.mark.ptxas
def test_a_kernel_that_counts_finished_ctas_assembles():
    """One thread per CTA publishes and counts; the last CTA's 128 threads learn it from bar.red and reset the
    counter -- the split-K epilogue's protocol in miniature."""
    kb = builder()
    with (counting := kb.if_(kb.tid() == 0, otherwise=[0])):
        kb.sync.fence("gpu")
        counting.yield_(kb.atomic.add(kb.param("p"), 1, ordering="relaxed") + 1)
    last = kb.sync.named_barrier_any(1, 128, counting.results[0] == kb.nctaid())
    with kb.if_(last):
        kb.sync.fence("gpu")
        kb.store_scalar(0, kb.param("p"))
    kernel = mmatom.compile(kb.finish()[0], options={"cache": False})
    assert kernel.metadata.warnings == () and kernel.metadata.spill_bytes == 0
    for text in ("atom.relaxed.gpu.global.add.u32", "bar.red.or.pred", "fence.acq_rel.gpu"):
        assert text in kernel.ptx, text


def test_a_group_counts_done_and_another_waits_for_the_count():
    """count_done: barrier, then the leader's gpu-scope fence and relaxed atomic add; wait_count: the leader's
    scf.while polling with an acquire atomic (add 0) until the count, the counter set back to 0, then the barrier."""
    kb = builder()
    kb.sync.count_done(kb.param("p"), kb.ctaid(), 2, 128, kb.tid() == 0)
    kb.sync.wait_count(kb.param("p"), 5, kb.param("n"), 3, 128, kb.tid() == 32)
    ops = list(kb.block.walk())
    rmws = [op for op in ops if isinstance(op, AtomicRMWOp)]
    assert [(r.ordering.data, r.scope) for r in rmws] == [("monotonic", "device"), ("acquire", "device")]
    spin = next(op for op in ops if isinstance(op, scf.WhileOp))
    assert rmws[1].parent_region() is spin.before_region and not list(spin.after_region.block.ops)[:-1]
    barriers = [op for op in ops if isinstance(op, nvvm.BarrierOp)]
    fence = next(op for op in ops if isinstance(op, FenceOp))
    assert ops.index(barriers[0]) < ops.index(fence) < ops.index(rmws[0])  # count_done: writes done, then published
    assert ops.index(spin) < ops.index(barriers[1])  # wait_count: the barrier hands on what the poll acquired
    stores = [op for op in ops if op.name == "llvm.store"]
    assert len(stores) == 1 and ops.index(spin) < ops.index(stores[0]) < ops.index(barriers[1])
    kb.finish()


@pytest.mark.ptxas
def test_a_kernel_that_waits_for_a_count_assembles():
    """Each group's last CTA waits for the others' counts (the split-K epilogue's hand-in in miniature): ptxas takes
    the polling loop."""
    kb = builder()
    last = kb.ctaid() % kb.param("n") == kb.param("n") - 1
    with kb.if_(last) as waiting:
        kb.sync.wait_count(kb.param("p"), kb.ctaid() // kb.param("n"), kb.param("n") - 1, 1, 128, kb.tid() == 0)
    with waiting.otherwise():
        kb.sync.count_done(kb.param("p"), kb.ctaid() // kb.param("n"), 1, 128, kb.tid() == 0)
    kernel = mmatom.compile(kb.finish()[0], options={"cache": False})
    assert kernel.metadata.warnings == () and kernel.metadata.spill_bytes == 0
    assert "atom.acquire.gpu.global.add.u32" in kernel.ptx and "$L_while" in kernel.ptx
