"""PTX for control flow: a function body is its blocks in order, a label on each block a branch jumps to;
cf.br / cf.cond_br (and llvm.br / llvm.cond_br) become copies into the target block's arguments and `bra`,
and llvm.return becomes ret. Structured control flow (scf.for / scf.if / scf.while) reaches this module
lowered to branches by mma-scf-to-branches (lowering/scf_to_branches.py; the last step of lower-mma-to-ptx).

Layout and naming, which keep the PTX of a lowered scf kernel what the structured emitter printed:
- a branch to the next block falls through (no `bra`); a conditional branch jumps on whichever condition
  leaves the next block to fall through to (`@!%p bra else` into a then block, `@%p bra end` out of a loop);
- a block's argument registers and its label (stem: the block's name hint) are allocated at the end of the
  block that immediately dominates it, before that block's branch: so the results of an scf.if get their
  registers before its then block, and labels are numbered as the constructs open;
- `%n = arith.addi %a, %s` just before a branch that passes it only to `^b`'s argument %a itself (a loop's
  step) is not computed into a register of its own: the branch adds %s to %a's register in place, after the
  other arguments' copies.
"""

from __future__ import annotations

from xdsl.dialects import arith, cf, llvm
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from .ptx_function import PTXFunction, emits, reg_class, value_bits

BRANCHES = (cf.BranchOp, llvm.BrOp)
COND_BRANCHES = (cf.ConditionalBranchOp, llvm.CondBrOp)


@emits(llvm.ReturnOp)
def return_(fn: PTXFunction, op: llvm.ReturnOp) -> None:
    fn.emit("ret;")


def emit_body(fn: PTXFunction, region: Region) -> None:
    """Every block of `region` in order; the entry block's arguments are already defined (the parameters)."""
    blocks = list(region.blocks)
    children = dominator_children(blocks)
    after = {b: blocks[i + 1] if i + 1 < len(blocks) else None for i, b in enumerate(blocks)}
    labelled = {target for b in blocks if b.last_op is not None for target in jumps(b.last_op, after[b])}
    for i, block in enumerate(blocks):
        fn.next_block = after[block]
        if i:
            for arg in block.args:
                if fn.bound(arg) is None:
                    fn.define(arg)
            if block in labelled:
                fn.place(fn.block_label(block))
        last = block.last_op
        folded = set(in_place_increments(last).values()) if last is not None else set()
        for op in block.ops:
            if op in folded:
                continue
            if op is last and op.successors:
                for child in children.get(block, ()):  # registers and labels as the constructs open
                    for arg in child.args:
                        if fn.bound(arg) is None:
                            fn.define(arg)
                    if child in labelled:
                        fn.block_label(child)
            fn.emit_op(op)
    fn.next_block = None


def jumps(op: Operation, next_block: Block | None) -> list[Block]:
    """The blocks `op` names by label (a successor it does not fall through to), as the emitters below print it."""
    if isinstance(op, BRANCHES):
        return [] if op.successor is next_block else [op.successor]
    if isinstance(op, COND_BRANCHES):
        then, other = op.then_block, op.else_block
        if op.then_arguments or op.else_arguments:  # copies on each edge: the then edge always jumps
            return [then] + ([] if other is next_block else [other])
        if then is next_block:
            return [other]
        if other is next_block:
            return [then]
        return [then, other]
    return list(op.successors)


def dominator_children(blocks: list[Block]) -> dict[Block, list[Block]]:
    """The dominator tree of a region's blocks (entry first): block -> the blocks it immediately dominates, in
    layout order (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm"). Unreachable blocks have none."""
    if not blocks:
        return {}
    succs = {b: list(b.last_op.successors) if b.last_op is not None else [] for b in blocks}
    idom = _immediate_dominators(_reverse_postorder(blocks[0], succs), succs)
    children: dict[Block, list[Block]] = {}
    for b in blocks[1:]:
        if b in idom:
            children.setdefault(idom[b], []).append(b)
    return children


def _reverse_postorder(entry: Block, succs: dict[Block, list[Block]]) -> list[Block]:
    """The blocks reachable from `entry` in reverse postorder of a depth-first walk (iterative: no recursion)."""
    postorder: list[Block] = []
    seen = {entry}
    stack = [(entry, iter(succs[entry]))]
    while stack:
        block, it = stack[-1]
        nxt = next((s for s in it if s not in seen), None)
        if nxt is None:
            postorder.append(block)
            stack.pop()
        else:
            seen.add(nxt)
            stack.append((nxt, iter(succs[nxt])))
    return postorder[::-1]


def _immediate_dominators(rpo: list[Block], succs: dict[Block, list[Block]]) -> dict[Block, Block]:
    """block -> its immediate dominator (the entry its own), iterated to the fixed point over `rpo`."""
    index = {b: i for i, b in enumerate(rpo)}
    preds: dict[Block, list[Block]] = {b: [] for b in rpo}
    for b in rpo:
        for s in succs[b]:
            preds[s].append(b)
    idom: dict[Block, Block] = {rpo[0]: rpo[0]}

    def intersect(a: Block, b: Block) -> Block:
        while a is not b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            done = [p for p in preds[b] if p in idom]
            new = done[0]
            for p in done[1:]:
                new = intersect(p, new)
            if idom.get(b) is not new:
                idom[b] = new
                changed = True
    return idom


def in_place_increments(op: Operation) -> dict[int, arith.AddiOp]:
    """Argument position -> the `arith.addi %a, %s` just before an unconditional branch to `^b`, when its only use
    is that position and %a is `^b`'s argument there (a loop's step, which mma-scf-to-branches puts last): the
    branch adds in place. Not where %s is another argument of `^b` (the copies before the add change it)."""
    if not isinstance(op, BRANCHES) or not isinstance(inc := op.prev_op, arith.AddiOp):
        return {}
    target = op.successor
    for i, (value, arg) in enumerate(zip(op.arguments, target.args)):
        if value is inc.result:
            if (inc.lhs is arg and value.has_one_use()
                    and not (isinstance(inc.rhs, BlockArgument) and inc.rhs.block is target and inc.rhs is not arg)):
                return {i: inc}
            break
    return {}


def _copy_into(fn: PTXFunction, target: Block, values, skip=()) -> None:
    """The target block's arguments := `values` (a parallel copy), but for the positions in `skip`."""
    regs, sources = [], []
    for i, (arg, value) in enumerate(zip(target.args, values)):
        if i in skip:
            continue
        regs.append(fn.bound(arg) or fn.define(arg))
        sources.append(value)
    _parallel_copy(fn, regs, sources)


def _parallel_copy(fn: PTXFunction, targets: list[str], values: list[SSAValue]) -> None:
    """targets := values all at once: a back edge may pass carried registers around (yield %b, %a)."""
    sources = fn.regs(values)
    clobbered = {t for t, s in zip(targets, sources) if t != s}
    if any(s in clobbered for s in sources):
        staged = []
        for s, v in zip(sources, values):
            tmp = fn.new(reg_class(v.type))
            fn.move(reg_class(v.type), tmp, s)
            staged.append(tmp)
        sources = staged
    for t, s, v in zip(targets, sources, values):
        if t != s:
            fn.move(reg_class(v.type), t, s)


def _jump(fn: PTXFunction, target: Block) -> None:
    if target is not fn.next_block:
        fn.emit(f"bra.uni {fn.block_label(target)};")


@emits(*BRANCHES)
def branch(fn: PTXFunction, op: cf.BranchOp | llvm.BrOp) -> None:
    target = op.successor
    increments = in_place_increments(op)
    _copy_into(fn, target, op.arguments, skip=increments)
    for i, inc in increments.items():
        arg = fn.reg(target.args[i])
        fn.emit(f"add.s{value_bits(inc.result.type)} {arg}, {arg}, {fn.reg(inc.rhs)};")
    _jump(fn, target)


@emits(*COND_BRANCHES)
def cond_branch(fn: PTXFunction, op: cf.ConditionalBranchOp | llvm.CondBrOp) -> None:
    cond, then, other = fn.reg(op.cond), op.then_block, op.else_block
    if op.then_arguments or op.else_arguments:
        skip = fn.label("cond")
        fn.emit(f"@!{cond} bra {skip};")
        _copy_into(fn, then, op.then_arguments)
        fn.emit(f"bra.uni {fn.block_label(then)};")
        fn.place(skip)
        _copy_into(fn, other, op.else_arguments)
        _jump(fn, other)
    elif then is fn.next_block:
        fn.emit(f"@!{cond} bra {fn.block_label(other)};")
    elif other is fn.next_block:
        fn.emit(f"@{cond} bra {fn.block_label(then)};")
    else:
        fn.emit(f"@{cond} bra {fn.block_label(then)};")
        fn.emit(f"bra.uni {fn.block_label(other)};")
