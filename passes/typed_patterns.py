"""A greedy pattern applier that tries on an op only the patterns written for its type.

xDSL's GreedyRewritePatternApplier calls every pattern on every op; a pattern made with `op_type_rewrite_pattern`
then returns at once unless the op is of its type. On a large kernel (the attention kernel: ~4300 ops, 13
conversion patterns, nine walks over the worklist) those calls and their isinstance checks are a third of the
lowering. `TypedPatternApplier` reads each pattern's op type from the decorator once, and per op type keeps an
xDSL applier over the patterns that can match it -- the same patterns in the same order, with xDSL's own dead-code
and folding steps -- so an op meets only its own. A pattern whose type it cannot read is tried on every op.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from types import UnionType
from typing import Union, get_args, get_origin

from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern


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

    def __post_init__(self) -> None:
        self._types = [op_types(p) for p in self.patterns]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        applier = self._appliers.get(type(op))
        if applier is None:
            mine = [p for p, types in zip(self.patterns, self._types) if types is None or isinstance(op, types)]
            applier = self._appliers[type(op)] = GreedyRewritePatternApplier(mine, **self.options)
        applier.match_and_rewrite(op, rewriter)


__all__ = ["TypedPatternApplier", "op_types"]
