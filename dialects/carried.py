"""What an op performs, read from the IR once: the typed atom of an MMA op, the plan of a tile op.

Every reader -- the op's verifier, the lowering, the nvvm op's verifier, the PTX target -- asks
`carried(op, read)`; `read` runs the first time an op with these defining attributes is seen, and every later
reader gets the same object. An op's defining attributes are all its atom can depend on: its class, properties
and attributes, operand and result types and the integers of constant operands (nvvm's immediates). They are
immutable and hashable, so equal ops share one entry and a rewritten op is a new key (nothing goes stale).
Lowering hands the atom on to the nvvm op it builds (`carry`), so that op's verifier and the PTX target read
the atom the mma op's verifier resolved instead of rebuilding it from the nvvm op's words."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from xdsl.dialects import arith
from xdsl.ir import Operation

T = TypeVar("T")

CAPACITY = 1 << 14  # entries kept (least recently used dropped): a large GEMM has a few hundred atom ops
_CARRIED: OrderedDict[tuple, Any] = OrderedDict()


def defining_key(op: Operation, what: str = "atom") -> tuple:
    """`what` of `op`, named by everything it can depend on."""
    constants = tuple(o.owner.value if isinstance(o.owner, arith.ConstantOp) else None for o in op.operands)
    return (what, type(op), tuple(sorted(op.properties.items())), tuple(sorted(op.attributes.items())),
            tuple(o.type for o in op.operands), constants, tuple(r.type for r in op.results))


def carried(op: Operation, read: Callable[[], T], what: str = "atom") -> T:
    """`what` `op` carries: `read()` the first time, the same value after (a failing read is not kept)."""
    key = defining_key(op, what)
    if key in _CARRIED:
        _CARRIED.move_to_end(key)
        return _CARRIED[key]
    value = read()
    carry(op, value, what)
    return value


def carry(op: Operation, value: Any, what: str = "atom") -> None:
    """Let `op` carry `value` (lowering: the atom of the op it replaces, on the nvvm op it builds)."""
    _CARRIED[defining_key(op, what)] = value
    if len(_CARRIED) > CAPACITY:
        _CARRIED.popitem(last=False)


def forget_all() -> None:
    """Drop every carried value, so that the next reader of each op reads it afresh (what a test that counts
    the reads starts from)."""
    _CARRIED.clear()


def carried_method(read: Callable[[Any], T]) -> Callable[[Any], T]:
    """An op's `atom()` method that reads its properties only when the op does not carry its atom yet."""
    def atom(self: Operation) -> T:
        return carried(self, lambda: read(self))
    atom.__doc__, atom.__name__, atom.read = read.__doc__, read.__name__, read  # type: ignore[attr-defined]
    return atom


__all__ = ["carried", "carried_method", "carry", "defining_key", "forget_all"]
