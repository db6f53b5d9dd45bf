"""Lowered ops keep the source location of the op they came from, so an error found later (in a later pass, in
PTX emission, by ptxas) is reported at the line the user wrote, not at 0:0."""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriterListener

from mmatom.passes.typed_patterns import TypedPatternApplier, TypedPatternWalker


def inherit_location(op: Operation) -> None:
    """Give `op` (and the ops in its regions) the location of the op it is inserted before, which is the op being
    rewritten (patterns insert their replacement ahead of it), or else of the nearest located enclosing op. The
    unlocated ops met on the way were inserted by the same rewrite and get the same location (so a batch of n
    inserted ops costs O(n), not O(n^2))."""
    if isinstance(op.location, FileLineColLoc):
        _locate_nested(op, op.location)
        return
    chain: list[Operation] = []
    source: Operation | None = op
    while source is not None and not isinstance(source.location, FileLineColLoc):
        chain.append(source)
        source = source.next_op
    if source is None:
        source = op.parent_op()
        while source is not None and not isinstance(source.location, FileLineColLoc):
            source = source.parent_op()
    if source is None:
        return
    for new in chain:
        new.location = source.location
        _locate_nested(new, source.location)


def _locate_nested(op: Operation, location: FileLineColLoc) -> None:
    for region in op.regions:
        for inner in region.walk():
            if not isinstance(inner.location, FileLineColLoc):
                inner.location = location


def located_walker(pattern: TypedPatternApplier, **options) -> TypedPatternWalker:
    """A walker (xDSL's, visiting only the ops the applier can act on) whose inserted ops inherit their location."""
    return TypedPatternWalker(pattern, listener=PatternRewriterListener(operation_insertion_handler=[inherit_location]),
                              **options)


__all__ = ["inherit_location", "located_walker"]
