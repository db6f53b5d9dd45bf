"""Structured control flow for KernelBuilder: `scf.for` loops that carry values, `scf.if` with an optional else.

    with (loop := kb.for_range(0, k_tiles, 1, [it, acc])) as (kt, (it_k, c)):
        ...
        loop.yield_(it_k + 1, d)
    it_next, acc = loop.results
    with kb.if_(kb.tid() == 0) as branch: ...
    with branch.otherwise(): ...
    with (found := kb.if_(kb.tid() == 0, otherwise=[0])):  # a value out of one branch, the defaults out of the other
        found.yield_(kb.atomic.add(counter, 1))
    old = found.results[0]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import Block
from xdsl.rewriter import InsertPoint

from .errors import api_error
from .values import Value

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder


@dataclass
class Loop:
    """`scf.for` being built: `with loop as (i, carried): ...; loop.yield_(*values)`; then `loop.results`."""

    kb: KernelBuilder
    op: scf.ForOp
    _outer: InsertPoint | None = field(default=None, repr=False)
    _yielded: bool = False

    def __enter__(self) -> tuple[Value, tuple[Value, ...]]:
        self._outer = self.kb.builder.insertion_point
        self.kb.builder.insertion_point = InsertPoint.at_end(self.op.body.block)
        args = [self.kb.wrap(a) for a in self.op.body.block.args]
        return args[0], tuple(args[1:])

    def yield_(self, *values) -> None:
        carried = self.op.body.block.args[1:]
        if len(values) != len(carried):
            raise api_error(f"for_range carries {len(carried)} values; yield_ got {len(values)}")
        self.kb.builder.insert(scf.YieldOp(*(self.kb.ssa(v, a.type) for v, a in zip(values, carried))))
        self._yielded = True

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None and not self._yielded:
            if len(self.op.body.block.args) > 1:
                raise api_error("a for_range that carries values must end with loop.yield_(...)")
            self.kb.builder.insert(scf.YieldOp())
        self.kb.builder.insertion_point = self._outer

    @property
    def results(self) -> tuple[Value, ...]:
        return tuple(self.kb.wrap(r) for r in self.op.results)


@dataclass
class If:
    """`scf.if` being built: `with kb.if_(cond) as branch: ...` then, optionally, `with branch.otherwise(): ...`;
    one with `otherwise` values (kb.if_(cond, otherwise=[...])) has results: its branch ends with
    `branch.yield_(...)`, values of the same types, and the else branch yields the `otherwise` values."""

    kb: KernelBuilder
    op: scf.IfOp
    _outer: InsertPoint | None = field(default=None, repr=False)
    _yielded: bool = False

    def __enter__(self) -> If:
        self._outer = self.kb.builder.insertion_point
        self.kb.builder.insertion_point = InsertPoint.at_end(self.op.true_region.block)
        return self

    def yield_(self, *values) -> None:
        types = [r.type for r in self.op.results]
        if not types or len(values) != len(types):
            raise api_error(f"if_ has {len(types)} results (its `otherwise` values); yield_ got {len(values)}")
        self.kb.builder.insert(scf.YieldOp(*(self.kb.ssa(v, t) for v, t in zip(values, types))))
        self._yielded = True

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None and not self._yielded:
            if self.op.results:
                raise api_error("an if_ with `otherwise` values must end its branch with branch.yield_(...)")
            self.kb.builder.insert(scf.YieldOp())
        self.kb.builder.insertion_point = self._outer

    def otherwise(self) -> Else:
        if self.op.results:
            raise api_error("an if_ with `otherwise` values has its else branch already: it yields those values")
        return Else(self)

    @property
    def results(self) -> tuple[Value, ...]:
        return tuple(self.kb.wrap(r) for r in self.op.results)


@dataclass
class Else:
    """The else branch of an If (`with branch.otherwise(): ...`)."""

    branch: If
    _outer: InsertPoint | None = None

    def __enter__(self) -> None:
        kb = self.branch.kb
        self._outer = kb.builder.insertion_point
        region = self.branch.op.false_region
        if not region.blocks:
            region.add_block(Block())
        elif region.block.ops:
            raise api_error("this if already has an otherwise() branch")
        kb.builder.insertion_point = InsertPoint.at_end(region.block)

    def __exit__(self, kind, value, traceback) -> None:
        kb = self.branch.kb
        kb.builder.insert(scf.YieldOp())
        kb.builder.insertion_point = self._outer


__all__ = ["Else", "If", "Loop"]
