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
    (lambda kb: kb.sync.last_to_arrive(kb.param("p"), 0, 2, 1, 128, kb.tid() == 0, ask_first=True),
     "last_to_arrive: ask_first True is not an i1 kernel value"),
], ids=["scope", "ordering", "value", "fence", "predicate", "else", "ask_first"])
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


@pytest.mark.ptxas
def test_a_group_that_asks_first_is_last_without_counting_when_the_others_counted():
    """last_to_arrive(ask_first=...): the asking group's leader reads the counter with an acquire atomic (add 0)
    before its fence and increment, and skips both -- and the acquiring fence -- when every other group counted;
    without ask_first the protocol is as before (no acquire atomic)."""
    def counts(ask: bool) -> list[int]:
        kb = builder()
        ask_first = kb.ctaid() == kb.nctaid() - 1 if ask else None
        kb.sync.last_to_arrive(kb.param("p"), 0, kb.nctaid(), 1, 128, kb.tid() == 0, ask_first=ask_first)
        rmws = [op for op in kb.block.walk() if isinstance(op, AtomicRMWOp)]
        kernel = mmatom.compile(kb.finish()[0], options={"cache": False})
        assert kernel.metadata.warnings == () and kernel.metadata.spill_bytes == 0
        return [op.ordering.data for op in rmws], [kernel.ptx.count(x) for x in ("fence.acq_rel.gpu", "bar.red.or")]
    assert counts(False) == (["monotonic"], [2, 1])
    assert counts(True) == (["acquire", "monotonic"], [2, 1])


def test_the_asking_leaders_fences_are_skipped_on_an_early_finding():
    kb = builder()
    kb.sync.last_to_arrive(kb.param("p"), 0, kb.param("n"), 1, 128, kb.tid() == 0, ask_first=kb.ctaid() == 3)
    fences = [op for op in kb.block.walk() if isinstance(op, FenceOp)]
    # each fence sits in an scf.if on whether the leader found every other group counted, nested in the leader's
    # (or the last group's) scf.if -- in the plain protocol they sit one level up
    assert len(fences) == 2 and all(isinstance(f.parent_op(), scf.IfOp) and
                                    isinstance(f.parent_op().parent_op(), scf.IfOp) for f in fences)
    acquire = next(op for op in kb.block.walk() if isinstance(op, AtomicRMWOp) and op.ordering.data == "acquire")
    assert isinstance(acquire.parent_op(), scf.IfOp)  # asked only where ask_first holds
    kb.finish()
