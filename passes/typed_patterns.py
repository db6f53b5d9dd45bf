"""A greedy pattern applier that tries on an op only the patterns written for its type.

xDSL's GreedyRewritePatternApplier calls every pattern on every op; a pattern made with `op_type_rewrite_pattern`
then returns at once unless the op is of its type. On a large kernel (the attention kernel: ~4300 ops, 13
conversion patterns, nine walks over the worklist) those calls and their isinstance checks are a third of the
lowering. `TypedPatternApplier` reads each pattern's op type from the decorator once, and per op type keeps an
xDSL applier over the patterns that can match it -- the same patterns in the same order, with xDSL's own dead-code
and folding steps -- so an op meets only its own. A pattern whose type it cannot read is tried on every op.

`TypedPatternWalker` goes one step further. Where the applier does nothing else (dead-code elimination and folding
off), only the ops some pattern is written for enter its worklist -- on any other op the applier would do nothing.
Where dead-code elimination is on, every op enters it (one whose use goes away before its visit is erased then), but
the walker passes over, when it comes to it, an op no pattern is written for and whose result is used: its visit
would do nothing (a sweep that confirms the fixed point visits ~4300 ops of the attention kernel, and acts on none).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from types import UnionType
from typing import Union, get_args, get_origin

from xdsl.ir import Operation
from xdsl.ir import Block, Region
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.utils.worklist import Worklist

from mmatom.dialects.op_walk import nested_ops


def op_types(pattern: RewritePattern) -> tuple[type[Operation], ...] | None:
    """The op types `pattern` rewrites, as its `op_type_rewrite_pattern` decorator checks them; None when the
    pattern is not written that way (it may match any op)."""
    method = getattr(type(pattern), "match_and_rewrite", None)
    try:
        expected = inspect.getclosurevars(method).nonlocals.get("expected_type")
    except TypeError:  # not a Python function: no closure to read
        return None
    if expected is None:
        return None
    types = get_args(expected) if get_origin(expected) in (Union, UnionType) else (expected,)
    return types if all(isinstance(t, type) and issubclass(t, Operation) for t in types) else None


@dataclass(eq=False, repr=False)
class TypedPatternApplier(RewritePattern):
    """GreedyRewritePatternApplier(patterns, **options), each op meeting only the patterns for its type."""

    patterns: list[RewritePattern]
    options: dict = field(default_factory=dict)
    _types: list = field(init=False, default_factory=list)
    _appliers: dict = field(init=False, default_factory=dict)
    _targeted: dict = field(init=False, default_factory=dict)  # op type -> whether some pattern is tried on it

    def __post_init__(self) -> None:
        self._types = [op_types(p) for p in self.patterns]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        applier = self._appliers.get(type(op))
        if applier is None:
            mine = [p for p, types in zip(self.patterns, self._types) if types is None or isinstance(op, types)]
            applier = self._appliers[type(op)] = GreedyRewritePatternApplier(mine, **self.options)
        applier.match_and_rewrite(op, rewriter)

    def idle(self, op: Operation) -> bool:
        """Whether a visit of `op`, as the IR stands, would do nothing: no pattern is tried on its type, folding is
        off, and dead-code elimination is off or would keep it (a result of it is used: xDSL's is_trivially_dead
        answers False on that alone)."""
        targeted = self._targeted.get(type(op))
        if targeted is None:
            targeted = self._targeted[type(op)] = any(types is None or isinstance(op, types) for types in self._types)
        if targeted or self.options.get("folding_enabled", False):
            return False
        if not self.options.get("dce_enabled", True):
            return True
        return any(result.first_use is not None for result in op.results)

    def acting_on(self) -> tuple[type[Operation], ...] | None:
        """The op types this applier can change, or None when it may change any op (a pattern of unknown type, or
        xDSL's dead-code elimination or folding, which visit every op: both on unless the options say otherwise)."""
        if any(t is None for t in self._types) or self.options.get("dce_enabled", True) \
                or self.options.get("folding_enabled", False):
            return None
        return tuple({t: None for types in self._types for t in types})


class IdleSkippingWorklist(Worklist):
    """xDSL's worklist that drops each op whose visit would do nothing (`idle`) as it comes to the top -- when the
    walker asks whether the worklist is empty or pops it, right where it would have visited that op -- so the walker
    visits the others in the same order."""

    def __init__(self, idle: Callable[[Operation], bool]) -> None:
        super().__init__()
        self._idle = idle

    def __bool__(self) -> bool:
        while super().__bool__():
            if not self._idle(self._stack[-1]):
                return True
            super().pop()
        return False

    def pop(self) -> Operation:
        self.__bool__()  # past the idle ops on top
        return super().pop()


@dataclass(eq=False, repr=False)
class TypedPatternWalker(PatternRewriteWalker):
    """xDSL's PatternRewriteWalker over a TypedPatternApplier that visits only the ops the applier can act on, in
    the same order: the others' visits did nothing. Where the applier acts only on its patterns' op types, only
    those enter the worklist at the start of each sweep; ops that rewrites insert or touch still enter through the
    rewriter's listener, as in xDSL's walker. Any op the worklist holds is passed over if it is idle when its turn
    comes (TypedPatternApplier.idle)."""

    pattern: TypedPatternApplier

    def __post_init__(self) -> None:
        self._worklist = IdleSkippingWorklist(self.pattern.idle)

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        acting_on = self.pattern.acting_on()
        for sub_op in self._sweep_order(op):
            if acting_on is None or isinstance(sub_op, acting_on):
                self._worklist.push(sub_op)

    def _sweep_order(self, root: Operation | Region | Block):
        """The ops under `root` in the order xDSL's walker pushes them at the start of a sweep."""
        if self.walk_reverse or self.walk_regions_first:
            return root.walk(reverse=not self.walk_reverse, region_first=not self.walk_regions_first)
        return reversed(nested_ops(root))  # walk(reverse=True, region_first=True): the pre-order walk, backwards


__all__ = ["IdleSkippingWorklist", "TypedPatternApplier", "TypedPatternWalker", "op_types"]
