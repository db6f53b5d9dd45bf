"""`nested_ops`: every op in a piece of IR, in xDSL's `walk()` order, as a list.

xDSL's walk() chains a generator per op, block and region (`yield from` three levels deep for each op); collecting
the same ops with plain loops costs several times less. The compile walks the whole kernel (~4300 ops on the
attention kernel) many times over: each lowering sweep fills its worklist from a walk, each verifier pass looks for
its functions and ops, the module verifier visits every op. Where the caller does not change the IR while it
iterates, the list is the walk.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region


def nested_ops(root: Operation | Region | Block) -> list[Operation]:
    """The ops in `root` (an op itself first) in the order of xDSL's `root.walk()`: each op, then the ops of its
    regions, blocks and ops in order. `reversed(nested_ops(root))` is `root.walk(reverse=True, region_first=True)`."""
    found: list[Operation] = []

    def collect(block: Block) -> None:
        inner = block.first_op
        while inner is not None:
            found.append(inner)
            for region in inner.regions:
                for nested in region.blocks:
                    collect(nested)
            inner = inner.next_op

    if isinstance(root, Block):
        collect(root)
        return found
    if isinstance(root, Operation):
        found.append(root)
    for region in root.regions if isinstance(root, Operation) else (root,):
        for block in region.blocks:
            collect(block)
    return found


__all__ = ["nested_ops"]
