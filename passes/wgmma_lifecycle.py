"""The wgmma async protocol, checked on the mma-level kernel before lowering (`verify-wgmma-lifecycle`).

PTX (ISA 9.7.15) lets a warpgroup issue wgmma.mma_async and keep going; the accumulator registers (and
an RS A fragment) belong to the tensor core until a wgmma.wait_group retires the group holding that
wgmma. In SSA the accumulator is C in and D out of `mma.wgmma`, lowered onto the same registers, so:

- a wgmma (or wgmma tile) whose C or register A was produced by an ordinary op (an RS tile's A converted from
  an accumulator, say) needs an `nvvm.wgmma.fence.aligned` between that op and itself (a D chained into the
  next wgmma's C needs none);
- `nvvm.wgmma.commit.group.sync.aligned` closes a group of the wgmma issued since the last commit;
  `nvvm.wgmma.wait.group.sync.aligned N` retires every group but the N most recent ones;
- any other use of a D, C or RS A of an in-flight wgmma is an error that names the wait it needs, and the
  kernel must not return with wgmma in flight;
- SMEM written through the generic proxy (mma.copy_to_smem, llvm.store to !llvm.ptr<3>) must be followed
  by `nvvm.fence.proxy {kind = async.shared}` and an `nvvm.barrier` before a wgmma reads SMEM.

The checks follow every path through the kernel's structured control flow (control_flow.py): a region
sees what is in flight at its op, an accumulator carried through iter_args / yields stays in flight under
its new name (as does one renamed by a role-only `mma.convert`, e.g. D -> C to carry it: no instruction reads
it), and a loop body must leave the same groups in flight as it found (or fewer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from mmatom.dialects import mma, nvvm

from .addresses import is_shared
from .control_flow import function_bodies, run_block
from .errors import LifecycleError

FENCE = "nvvm.wgmma.fence.aligned"
COMMIT = "nvvm.wgmma.commit.group.sync.aligned"
WAIT = "nvvm.wgmma.wait.group.sync.aligned"
WGMMA_OPS = (mma.WgmmaOp, mma.WgmmaTileOp)
UNCOMMITTED = -1


def _describe(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "a value"


@dataclass(frozen=True)
class Flight:
    """An mma.wgmma that may still be running, and the values that may hold its registers (its own C, D and
    RS A, and the block arguments / results they were renamed to)."""

    op: Operation
    newer_groups: int  # groups committed after its own (UNCOMMITTED: in no group yet); the least on any path
    d: frozenset
    c: frozenset
    a: frozenset

    def role_of(self, v: SSAValue) -> str | None:
        if v in self.d or v in self.c:
            return "accumulator"
        return "A fragment" if v in self.a else None

    def merge(self, other: Flight) -> Flight:
        return Flight(self.op, min(self.newer_groups, other.newer_groups), self.d | other.d, self.c | other.c,
                      self.a | other.a)


@dataclass(frozen=True)
class State:
    flights: dict = field(default_factory=dict)  # wgmma op -> Flight
    groups: int = 0  # most committed groups in flight on any path (a loop must not grow it)
    unfenced: frozenset = frozenset()  # fragments ordinary ops wrote since the last wgmma fence (on some path)
    smem_write: tuple = ()  # generic-proxy SMEM writes not yet fenced for the async proxy
    smem_unsynced: tuple = ()  # fenced, but no barrier since


def _union(a: tuple, b: tuple) -> tuple:
    return a + tuple(x for x in b if x not in a)


def _needed_wait(flight: Flight) -> str:
    if flight.newer_groups == UNCOMMITTED:
        return f"`{COMMIT}` then `{WAIT} 0`"
    return f"`{WAIT} {flight.newer_groups}`"


def _holder(state: State, v: SSAValue) -> tuple[Flight, str] | None:
    for flight in state.flights.values():
        role = flight.role_of(v)
        if role is not None:
            return flight, role
    return None


class WgmmaProtocol:
    """The wgmma protocol as a dataflow over control_flow's model (see the module docstring)."""

    def join(self, a: State, b: State) -> State:
        flights = dict(a.flights)
        for op, flight in b.flights.items():
            flights[op] = flights[op].merge(flight) if op in flights else flight
        return State(flights, max(a.groups, b.groups), a.unfenced | b.unfenced, _union(a.smem_write, b.smem_write),
                     _union(a.smem_unsynced, b.smem_unsynced))

    def bind(self, state: State, dests: Sequence[SSAValue], srcs: Sequence[SSAValue]) -> State:
        dests, srcs = list(dests), list(srcs)
        if not dests:
            return state
        gone = set(dests)  # a renamed value holds only what it is bound to now

        def renamed(values: frozenset) -> frozenset:
            return frozenset(values - gone) | {d for d, s in zip(dests, srcs) if s in values}

        flights = {op: replace(f, d=renamed(f.d), c=renamed(f.c), a=renamed(f.a)) for op, f in state.flights.items()}
        return replace(state, flights=flights, unfenced=renamed(state.unfenced))

    def no_fixed_point(self, loop: Operation, head: State, nxt: State) -> Exception:
        if nxt.groups > head.groups:
            return LifecycleError(loop, f"{loop.name}: every iteration leaves one more wgmma group in flight (its body "
                                        f"commits groups without waiting for them); add `{WAIT} N` in the body so that"
                                        f" at most N groups stay in flight")
        return LifecycleError(loop, f"{loop.name}: the wgmma groups in flight do not settle from one iteration to the "
                                    f"next")

    def transfer(self, op: Operation, state: State) -> State:
        name = op.name
        if name == FENCE:
            return replace(state, unfenced=frozenset())
        if name == COMMIT:
            flights = {w: replace(f, newer_groups=f.newer_groups + 1) for w, f in state.flights.items()}
            return replace(state, flights=flights, groups=state.groups + 1)
        if isinstance(op, nvvm.WgmmaWaitGroupSyncOp):
            n = op.pending
            flights = {w: f for w, f in state.flights.items() if f.newer_groups < n}  # the n newest groups stay
            return replace(state, flights=flights, groups=min(state.groups, n) if flights else 0)
        if isinstance(op, nvvm.FenceProxyOp):
            if op.kind.data in ("async", "async.shared") and state.smem_write:
                return replace(state, smem_unsynced=_union(state.smem_unsynced, state.smem_write), smem_write=())
            return state
        if isinstance(op, nvvm.BarrierOp):
            return replace(state, smem_unsynced=())
        if isinstance(op, mma.CopyToSmemOp) or (isinstance(op, llvm.StoreOp) and is_shared(op.ptr)):
            return replace(state, smem_write=_union(state.smem_write, (op,)))
        if isinstance(op, WGMMA_OPS):
            return _issue(op, state)
        if isinstance(op, mma.ConvertOp) and op.source.type.elem == op.res.type.elem:
            return self.bind(state, [op.res], [op.source])  # a role change only: the same registers, renamed
        for v in op.operands:
            held = _holder(state, v)
            if held is not None:
                flight, role = held
                raise LifecycleError(
                    op, f"{op.name} uses {_describe(v)}, the {role} of an mma.wgmma still in flight; retire it "
                        f"first with {_needed_wait(flight)}")
        if isinstance(op, llvm.ReturnOp) and state.flights:
            flight = min(state.flights.values(), key=lambda f: f.newer_groups)
            raise LifecycleError(op, f"the kernel returns with mma.wgmma in flight; add {_needed_wait(flight)} "
                                     f"before it")
        written = {r for r in op.results if isinstance(r.type, mma.FragmentType)}
        return replace(state, unfenced=state.unfenced | written) if written else state


def _issue(op: Operation, state: State) -> State:
    """Check a wgmma's operands against what is in flight and fenced, then put it in flight (uncommitted)."""
    chained = {v for f in state.flights.values() for v in f.d}
    for role, v in (("C", op.c), ("A", op.a)):
        if not isinstance(v.type, mma.FragmentType):
            continue
        if role == "C" and v in chained:
            continue  # accumulating into an earlier wgmma's D: ordered by the hardware
        held = _holder(state, v)
        if held is not None:
            raise LifecycleError(op, f"{op.name}: operand {role} {_describe(v)} belongs to an mma.wgmma still in "
                                     f"flight; retire it first with {_needed_wait(held[0])}")
        if v in state.unfenced:
            raise LifecycleError(op, f"{op.name}: operand {role} {_describe(v)} was written after the last `{FENCE}`"
                                     f" (or none was issued); insert `{FENCE}` between its definition and this wgmma")
    if isinstance(op.b.type, mma.SmemDescType) or isinstance(op.a.type, mma.SmemDescType):
        if state.smem_write:
            raise LifecycleError(op, f"{op.name} reads SMEM that {state.smem_write[0].name} wrote through the generic "
                                     f"proxy; insert `nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, "
                                     f"space = #nvvm.shared_space<cta>}}` and `nvvm.barrier` before it")
        if state.smem_unsynced:
            raise LifecycleError(op, f"{op.name} reads SMEM that other threads wrote ({state.smem_unsynced[0].name}); "
                                     f"insert `nvvm.barrier` after the proxy fence")
    a = frozenset({op.a}) if isinstance(op.a.type, mma.FragmentType) else frozenset()
    flight = Flight(op, UNCOMMITTED, frozenset({op.d}), frozenset({op.c}), a)
    earlier = state.flights.get(op)  # the same op issued on an earlier trip round a loop
    if earlier is not None:
        flight = replace(earlier.merge(flight), newer_groups=UNCOMMITTED)
    return replace(state, flights={**state.flights, op: flight})


def check_function(body: Block) -> None:
    run_block(WgmmaProtocol(), body, State())


class VerifyWgmmaLifecycle(ModulePass):
    name = "verify-wgmma-lifecycle"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for body in function_bodies(op, self.name, ("mma.", "nvvm.wgmma")):
            check_function(body)
