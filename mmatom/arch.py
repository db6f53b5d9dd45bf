"""The hardware units a kernel drives, one namespace each, named as the PTX instructions they emit:

    kb.mbarrier.init / arrive / arrive_expect_tx / wait / fence_init     mbarrier.*, fence.mbarrier_init
    kb.tma.load / copy / store / commit_group / wait_group               cp.async.bulk(.tensor), cp.async.bulk.*_group
    kb.cp_async.copy / commit_group / wait_group                         cp.async (SM80), cp.async.*_group
    kb.wgmma.fence / commit_group / wait_group                           wgmma.fence, wgmma.commit_group, wait_group
    kb.sync.barrier / named_barrier / named_barrier_any / _arrive         bar.sync 0, bar.sync id, bar.red.or, bar.arrive
    kb.sync.fence_proxy_async / fence / elect / setmaxnreg               fence.proxy.async, fence.acq_rel, elect.sync, setmaxnreg
    kb.sync.wait_prior_grids / launch_dependents                          griddepcontrol.wait / .launch_dependents
    kb.atomic.add / exchange                                             atom.global.add / exch (the old value)
    kb.cluster.rank / id / count / sync / map_shared                     %cluster_ctarank, %clusterid, barrier.cluster, mapa

Every op is located at the DSL's line like the rest of the builder; operands are Values, SSAValues or Python ints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerType

from mmatom.dialects import nvvm, nvvm_cp_async, nvvm_hopper
from mmatom.dialects.llvm_atomic import AtomicRMWOp, FenceOp
from mmatom.dialects.mma import TmaLoadOp, TmaStoreOp
from mmatom.dialects.mma_types import TensorMapType, TmaReduceAttr
from mmatom.dialects.nvvm_warp import SyncWarpOp

from .errors import api_error
from .smem import SmemTile
from .values import Value, select

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder

WAIT_TICKS = 10_000_000  # try_wait's time hint (ns) before it returns false and the loop retries


class _Unit:
    def __init__(self, kb: KernelBuilder):
        self.kb = kb

    def _insert(self, op):
        return self.kb.builder.insert(op)


class Mbarrier(_Unit):
    """mbarrier.*: SMEM barriers that count thread arrivals and the bytes of asynchronous copies (TMA)."""

    def init(self, bar, count: int) -> None:
        """mbarrier.init: the barrier completes a phase after `count` arrivals (and the bytes posted to it)."""
        self._insert(nvvm.MBarrierInitOp.build(operands=[self.kb.ssa(bar), self.kb.ssa(count)]))

    def fence_init(self) -> None:
        """fence.mbarrier_init: after the inits, before another thread or the TMA unit uses the barriers (then a
        CTA or cluster barrier)."""
        self._insert(nvvm_hopper.FenceMbarrierInitOp())

    def arrive(self, bar, scope: str | None = None) -> None:
        """This thread's arrival (release at CTA scope; `scope="cluster"` also publishes its earlier writes to the
        peer CTA that waits on a remote barrier -- costly: ptxas fences the GPU's memory first)."""
        self._insert(nvvm_hopper.MBarrierArriveOp(self.kb.ssa(bar), scope))

    def arrive_expect_tx(self, bar, nbytes) -> None:
        """An arrival that also posts `nbytes` the barrier's current phase waits to see land (on a peer's barrier,
        cluster.map_shared's: a remote arrival released at cluster scope, the bytes its cluster.store_async sends)."""
        self._insert(nvvm_hopper.MBarrierArriveExpectTxOp(self.kb.ssa(bar), self.kb.ssa(nbytes)))

    def wait(self, bar, parity, scope: str | None = None) -> None:
        """mbarrier.try_wait.parity in a loop: until the barrier's phase of this parity (0/1) has completed;
        `scope="cluster"` acquires what a peer CTA released to it (its cluster.store_async words)."""
        kb = self.kb
        if scope not in (None, "cta", "cluster"):
            raise api_error(f"mbarrier.wait: scope {scope!r}; 'cta' or 'cluster'")
        props = {"scope": nvvm_hopper.MemScopeAttr(scope)} if scope else {}
        self._insert(nvvm.MBarrierTryWaitParityOp.build(
            operands=[kb.ssa(bar), kb.ssa(parity), kb.ssa(WAIT_TICKS)], properties=props))


class Tma(_Unit):
    """cp.async.bulk.tensor: boxes of a tensor map between global memory and SMEM, and their bulk groups."""

    def load(self, tensor_map, row, col, dst: SmemTile, bar, multicast: Value | int | None = None,
             layer: Value | int | None = None) -> None:
        """The box of `tensor_map` whose first element is (row, col) into the SMEM tile `dst` (the verifier checks
        that the box lands exactly as its layout says), completing bytes on `bar`; `multicast` a CTA mask (a
        constant, or an integer Value computed from the CTA's rank: its low 16 bits): the box lands at the same
        offset in each of those CTAs of the cluster; `layer` the layer of a batched map's 3-d
        tensor (required there, refused for a 2-d map)."""
        kb = self.kb
        if not isinstance(dst, SmemTile) or dst.desc_type is None:
            raise api_error(f"tma.load: the destination {dst!r} is not an SMEM tile with a layout (index a ring's "
                            f"staged tile, or kb.smem_tile(...))")
        tensor_map = kb.ssa(tensor_map)
        if not isinstance(tensor_map.type, TensorMapType):
            raise api_error(f"tma.load: {tensor_map.type} is not a tensor map (declare the parameter with "
                            f"mmatom.TensorMapType(...))")
        if isinstance(multicast, Value) and not isinstance(multicast.type, IntegerType):
            raise api_error(f"tma.load: the multicast mask is {multicast.type}; a CTA mask is an integer (a "
                            f"constant, or an integer Value such as one computed from the CTA's cluster rank)")
        mask = None if multicast is None else kb.int_cast(multicast, "i16").ssa if isinstance(multicast, Value) \
            else kb.ssa(multicast, IntegerType(16))
        self._insert(TmaLoadOp(tensor_map, kb.ssa(row), kb.ssa(col), dst.ptr.ssa, kb.ssa(bar), dst.desc_type, mask,
                               None if layer is None else kb.ssa(layer)))

    def copy(self, dst, src, nbytes, bar) -> None:
        """A bulk copy without a tensor map (cp.async.bulk): `nbytes` (a multiple of 16, a runtime value) from
        global `src` to shared `dst`, both 16-byte aligned, completing its bytes on `bar` -- e.g. a row whose start
        a tensor map cannot address, one copy each."""
        kb = self.kb
        dst, src = kb.ssa(dst), kb.ssa(src)
        if dst.type != nvvm_cp_async.SHARED or src.type != nvvm_cp_async.GLOBAL:
            raise api_error(f"tma.copy: from {src.type} to {dst.type}; a global pointer to a shared one")
        self._insert(nvvm_hopper.CpAsyncBulkSharedClusterGlobalOp(dst, src, kb.ssa(bar), kb.ssa(nbytes, IntegerType(32))))

    def store(self, src: SmemTile | Value, tensor_map, row, col, layer: Value | int | None = None,
              reduce: str | None = None) -> None:
        """The box at `src` in SMEM to `tensor_map` at (row, col) -- of layer `layer` for a batched map -- in the
        current bulk group (elements outside the tensor are not written); `reduce="add"` (or min, max, inc, dec,
        and, or, xor) combines the box with what the tensor holds there instead (cp.reduce.async.bulk.tensor; the
        verifier checks the element type)."""
        kb = self.kb
        if reduce is not None and reduce not in TmaReduceAttr.words():
            raise api_error(f"tma.store: reduce={reduce!r} is not a TMA reduction; one of "
                            f"{', '.join(TmaReduceAttr.words())}")
        ptr = src.ptr if isinstance(src, SmemTile) else src
        self._insert(TmaStoreOp(kb.ssa(ptr), kb.ssa(tensor_map), kb.ssa(row), kb.ssa(col), reduce,
                                None if layer is None else kb.ssa(layer)))

    def commit_group(self) -> None:
        """cp.async.bulk.commit_group: this thread's bulk stores since the last commit form a group."""
        self._insert(nvvm_hopper.CpAsyncBulkCommitGroupOp())

    def wait_group(self, pending: int = 0, read: bool = False) -> None:
        """cp.async.bulk.wait_group: at most `pending` of this thread's bulk groups in flight (`read`: only their
        SMEM reads are done, so their source boxes may be written again)."""
        self._insert(nvvm_hopper.CpAsyncBulkWaitGroupOp(pending, read))


class CpAsync(_Unit):
    """cp.async (SM80 on): a thread's 16-byte copies global -> SMEM that hold no registers while in flight, for
    what TMA cannot address (rows whose starts are not 16-byte aligned); its groups, and the wait for them. A
    thread waits for its own copies only: a barrier after the wait shows every thread's to all of them."""

    def copy(self, dst, src, src_bytes: Value | int | None = None) -> None:
        """cp.async.cg: the 16 bytes at global `src` to shared `dst` (both 16-byte aligned); `src_bytes` (0 to 16,
        a runtime value) reads only that many and zero-fills the rest -- 0 reads nothing (a row past the end)."""
        kb = self.kb
        dst, src = kb.ssa(dst), kb.ssa(src)
        if dst.type != nvvm_cp_async.SHARED or src.type != nvvm_cp_async.GLOBAL:
            raise api_error(f"cp_async.copy: from {src.type} to {dst.type}; a global pointer (a kernel's pointer "
                            f"parameter, offset) to a shared one (kb.smem, a tile's .ptr)")
        size = None if src_bytes is None else kb.ssa(src_bytes, IntegerType(32))
        self._insert(nvvm_cp_async.CpAsyncOp(dst, src, 16, "cg", size))

    def commit_group(self) -> None:
        """cp.async.commit_group: this thread's copies since the last commit form a group (an empty one too)."""
        self._insert(nvvm_cp_async.CpAsyncCommitGroupOp())

    def wait_group(self, pending: int = 0) -> None:
        """cp.async.wait_group: until at most `pending` of this thread's newest groups are in flight."""
        if not isinstance(pending, int) or pending < 0:
            raise api_error(f"cp_async.wait_group: pending={pending!r}; a non-negative Python int")
        self._insert(nvvm_cp_async.CpAsyncWaitGroupOp(pending))


class Wgmma(_Unit):
    """wgmma.*: the warpgroup's asynchronous MMA protocol (the MMAs themselves: TiledMma.mma_smem)."""

    def fence(self) -> None:
        """wgmma.fence: before the first wgmma that reads registers (accumulators) written since."""
        self._insert(nvvm.WgmmaFenceAlignedOp())

    def commit_group(self) -> None:
        """wgmma.commit_group: the wgmmas issued since the last commit form a group."""
        self._insert(nvvm.WgmmaGroupSyncAlignedOp())

    def wait_group(self, pending: int = 0) -> None:
        """wgmma.wait_group: until at most `pending` committed groups are in flight."""
        self._insert(nvvm.WgmmaWaitGroupSyncOp(pending))


class Sync(_Unit):
    """Barriers, fences and warp roles: bar.sync / bar.arrive, fence.proxy.async, elect.sync, setmaxnreg, and a
    programmatic dependent launch's griddepcontrol."""

    def barrier(self) -> None:
        """bar.sync 0: every thread of the CTA."""
        self._insert(nvvm.BarrierOp())

    def named_barrier(self, barrier_id, threads: int) -> None:
        """bar.sync id, threads: `threads` threads (a multiple of 32) arriving at barrier `id` (1..15; 0 is
        barrier()'s) wait for each other."""
        self._insert(nvvm.BarrierOp(self.kb.ssa(barrier_id), self.kb.ssa(threads)))

    def named_barrier_any(self, barrier_id, threads: int, predicate) -> Value:
        """bar.red.or.pred: named_barrier(barrier_id, threads), returning an i1 that is true in every one of the
        threads when `predicate` (an i1) held in any of them -- one thread's finding (an atomic's result) handed
        to the others without a trip through SMEM."""
        kb = self.kb
        if not isinstance(predicate, Value) or predicate.type != IntegerType(1):
            raise api_error(f"named_barrier_any: the predicate {predicate!r} is not an i1 kernel value (a comparison)")
        word = select(predicate, 1, 0)
        op = nvvm.BarrierOp(kb.ssa(barrier_id), kb.ssa(threads), "or", kb.ssa(word))
        return kb.wrap(self._insert(op).res) != 0

    def warp(self, lanes: int = 0xFFFFFFFF) -> None:
        """bar.warp.sync: the warp's lanes in the mask `lanes` (all 32 by default) wait for each other, and their
        memory accesses before it are ordered before theirs after it -- enough where the lanes that hand each other
        data are one warp's (a CTA barrier also waits for the other warps)."""
        self._insert(SyncWarpOp(self.kb.ssa(lanes & 0xFFFFFFFF, IntegerType(32))))

    def named_barrier_arrive(self, barrier_id, threads: int) -> None:
        """bar.arrive id, threads: this thread counts towards named barrier `id` of `threads` threads and goes on
        (the threads that must wait use named_barrier on the same id and count)."""
        self._insert(nvvm.BarrierArriveOp(self.kb.ssa(barrier_id), self.kb.ssa(threads)))

    def fence_proxy_async(self) -> None:
        """fence.proxy.async: generic-proxy SMEM writes (st.shared, stmatrix) become visible to TMA and wgmma."""
        self._insert(nvvm.FenceProxyOp())

    def fence(self, scope: str = "gpu", ordering: str = "acq_rel") -> None:
        """fence.acq_rel.<scope> (`ordering="seq_cst"`: fence.sc): this thread's memory accesses before it are
        ordered against those after it for every thread of `scope` ("cta", "cluster", "gpu", "sys"). One thread's
        fence after a CTA barrier, then its atomic, publishes what the CTA wrote before the barrier (a release);
        the thread that reads the atomic's result fences, then a barrier shows the others' writes to its CTA."""
        self._insert(FenceOp(_ordering(ordering, ("acq_rel", "seq_cst"), "fence"), _syncscope(scope, "fence")))

    def last_to_arrive(self, counters, index, parties, barrier_id, threads: int, leader, ask_first=None) -> Value:
        """A group of `threads` threads (named barrier `barrier_id`; `leader` an i1 true in one of them), one of
        `parties` groups -- CTAs that each wrote a share of one result to global memory -- counts itself done on
        the i32 counter at `counters` + `index` words: an i1, true in every thread of the group that counted last.
        That group then sees every group's writes (the leader's gpu-scope fence before its atomic releases its
        group's, the last leader's fence after it acquires the others', the barriers hand both on), and sets the
        counter back to 0 for the next launch (which the stream orders after this one). Split-K's and stream-K's
        partial sums and split-KV attention's partial rows are added up that way.

        `ask_first` (an i1, the same in every thread of the group): such a group's leader first reads the counter
        (an acquire atomic); if every other group counted already, this group is last without its fences and
        count -- what a group expected to finish last (one given more work) saves. Otherwise it counts as above.
        No group ever waits for another."""
        kb = self.kb
        if ask_first is not None and (not isinstance(ask_first, Value) or ask_first.type != IntegerType(1)):
            raise api_error(f"last_to_arrive: ask_first {ask_first!r} is not an i1 kernel value (a comparison)")
        self.named_barrier(barrier_id, threads)  # every thread's writes done
        if ask_first is not None:
            return self._last_unless_asked(counters, index, parties, barrier_id, threads, leader, ask_first)
        with (counting := kb.if_(leader, otherwise=[0])):
            self.fence("gpu")  # releases them (the barrier made them this thread's to publish)
            done = kb.atomic.add(counters, 1, index=index, ordering="relaxed")
            counting.yield_(done + 1)
        last = counting.results[0] == parties
        with kb.if_(last):  # the leader of the last group
            self.fence("gpu")  # acquires the other groups' writes; the barrier below hands them on
            kb.store_scalar(0, counters, index)  # ready for the next launch
        return self.named_barrier_any(barrier_id, threads, last)

    def _last_unless_asked(self, counters, index, parties, barrier_id, threads: int, leader, ask_first) -> Value:
        """last_to_arrive's count after its barrier, where an `ask_first` group's leader may find every other
        group counted already (_others_counted): then last without its fences and atomic increment."""
        kb = self.kb
        with (counting := kb.if_(leader, otherwise=[0, 0])):
            early = self._others_counted(counters, index, parties, ask_first)
            with (counted := kb.if_(early == 0, otherwise=[parties])):
                self.fence("gpu")  # releases the group's writes
                counted.yield_(kb.atomic.add(counters, 1, index=index, ordering="relaxed") + 1)
            counting.yield_(counted.results[0], early)
        last = counting.results[0] == parties
        with kb.if_(last):
            with kb.if_(counting.results[1] == 0):  # an early finding's atomic acquired the writes itself
                self.fence("gpu")
            kb.store_scalar(0, counters, index)
        return self.named_barrier_any(barrier_id, threads, last)

    def _others_counted(self, counters, index, parties, ask_first) -> Value:
        """An i32, 1 where `ask_first` holds and the counter says every other party counted (read with an acquire
        atomic that adds 0), else 0."""
        kb = self.kb
        with (asking := kb.if_(ask_first, otherwise=[-1])):
            asking.yield_(kb.atomic.add(counters, 0, index=index, ordering="acquire"))
        return select(asking.results[0] == parties - 1, 1, 0)

    def elect(self) -> Value:
        """elect.sync: an i1, true in one lane of the warp."""
        return self.kb.wrap(self._insert(nvvm_hopper.ElectSyncOp()).pred)

    def wait_prior_grids(self) -> None:
        """griddepcontrol.wait: until the grids this one was launched dependent on (a programmatic dependent
        launch) have completed and their writes are visible; at once in a grid launched without such a dependence.
        In a kernel launched so, every read of what an earlier kernel writes, and every write of what it reads,
        comes after it: what goes before is set-up (barriers, SMEM, tensor-map prefetches) that then runs while the
        earlier grid finishes."""
        self._insert(nvvm_hopper.GriddepcontrolWaitOp())

    def launch_dependents(self) -> None:
        """griddepcontrol.launch_dependents: this CTA lets the grid launched dependent on this one start (once every
        CTA has said so or exited); that grid still waits for this one's completion at its wait_prior_grids. Its
        CTAs take SMs as this grid's leave them."""
        self._insert(nvvm_hopper.GriddepcontrolLaunchDependentsOp())

    def setmaxnreg(self, action: str, count: int) -> None:
        """setmaxnreg: this warpgroup's registers per thread become `count` (`"increase"` or `"decrease"`; a
        multiple of 8 in [24, 256]); the kernel needs `min_ctas_per_sm=1` for ptxas to honour it."""
        if action not in nvvm_hopper.SETMAXNREG_ACTIONS:
            raise api_error(f"setmaxnreg: action {action!r} is not one of increase, decrease")
        self._insert(nvvm_hopper.SetMaxRegisterOp(action, count))


PTX_SCOPES = {"cta": "block", "cluster": "cluster", "gpu": "device", "sys": ""}  # PTX scope -> NVPTX syncscope
ATOMIC_ORDERINGS = {"relaxed": "monotonic", "acquire": "acquire", "release": "release", "acq_rel": "acq_rel"}


def _syncscope(scope: str, who: str) -> str:
    if scope not in PTX_SCOPES:
        raise api_error(f"{who}: scope {scope!r}; one of {', '.join(PTX_SCOPES)}")
    return PTX_SCOPES[scope]


def _ordering(ordering: str, legal, who: str) -> str:
    if ordering not in legal:
        raise api_error(f"{who}: ordering {ordering!r}; one of {', '.join(legal)}")
    return ordering


class Atomic(_Unit):
    """atom.global: one thread's read-modify-write of a global word that every other thread of the scope sees
    whole, returning the word it replaced -- e.g. a per-tile counter whose last incrementer knows it is last."""

    def add(self, ptr, value, index=0, ordering: str = "acq_rel", scope: str = "gpu") -> Value:
        """atom.<ordering>.<scope>.global.add: `value` (an i32 or i64 Value or a Python int: i32) added to the
        word at `ptr` + `index` words; the word before the add."""
        return self._rmw("add", ptr, value, index, ordering, scope)

    def exchange(self, ptr, value, index=0, ordering: str = "acq_rel", scope: str = "gpu") -> Value:
        """atom.<ordering>.<scope>.global.exch: `value` written to the word at `ptr` + `index` words; the word it
        replaced."""
        return self._rmw("xchg", ptr, value, index, ordering, scope)

    def _rmw(self, op: str, ptr, value, index, ordering: str, scope: str) -> Value:
        kb, who = self.kb, f"atomic.{'add' if op == 'add' else 'exchange'}"
        order = ATOMIC_ORDERINGS[_ordering(ordering, ATOMIC_ORDERINGS, who)]
        value = kb.ssa(value)
        if not isinstance(value.type, IntegerType) or value.type.width.data not in (32, 64):
            raise api_error(f"{who}: the value is {value.type}; an i32 or i64")
        address = kb.wrap(kb.ssa(ptr)) + index * (value.type.width.data // 8)
        return kb.wrap(self._insert(AtomicRMWOp(op, address.ssa, value, order, _syncscope(scope, who))).res)


class Cluster(_Unit):
    """Thread-block clusters: the CTA's place in its cluster, the cluster barrier, peers' shared memory."""

    def rank(self) -> Value:
        """This CTA's rank in its cluster (`%cluster_ctarank`), i32."""
        return self.kb.special_register("cluster.ctarank")

    def id(self, dim: str = "x") -> Value:
        """The cluster's index in the grid (`%clusterid.x`), i32."""
        return self.kb.special_register(f"clusterid.{dim}")

    def count(self, dim: str = "x") -> Value:
        """The grid's extent in clusters (`%nclusterid.x`), i32."""
        return self.kb.special_register(f"nclusterid.{dim}")

    def sync(self) -> None:
        """Every thread of every CTA of the cluster meets (barrier.cluster arrive.release + wait.acquire): after
        mbarrier inits before a peer may signal them, and before exit while a peer may still write here."""
        self._insert(nvvm_hopper.ClusterArriveOp())
        self._insert(nvvm_hopper.ClusterWaitOp())

    def map_shared(self, ptr, rank) -> Value:
        """mapa: the address of the same shared variable in CTA `rank` of the cluster (`!llvm.ptr<7>`); an
        mbarrier arrive on it is a remote arrival."""
        return self.kb.wrap(self._insert(nvvm_hopper.MapaOp(self.kb.ssa(ptr), self.kb.ssa(rank))).res)

    def store_async(self, words, ptr, bar) -> None:
        """st.async: four i32 words into 16 bytes of a peer CTA's shared memory (`ptr` and `bar` map_shared's),
        counted on that CTA's barrier `bar` as 16 transaction bytes: a peer waiting there (scope "cluster") then
        reads them -- a register-to-register hand-over between CTAs with no global memory and no fence."""
        kb = self.kb
        if len(words) != 4:
            raise api_error(f"cluster.store_async: {len(words)} words; a store is four 32-bit words (16 bytes)")
        self._insert(nvvm_hopper.StAsyncOp(kb.ssa(ptr), [kb.ssa(w) for w in words], kb.ssa(bar)))


__all__ = ["Atomic", "Cluster", "Mbarrier", "Sync", "Tma", "Wgmma"]
