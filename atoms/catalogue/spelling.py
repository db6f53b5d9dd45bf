"""Read an exact PTX instruction spelling (opcode and qualifiers, no operands) back into an atom's
family and dimension values, so that `mmatom-atoms check` judges it with the dialect's own rules.

A spelling is read against the PTX grammar of its family: every qualifier in the grammar's order, each at
most once, no empty token. The grammar is the ISA's syntax block, plus the alternate orders that NVIDIA's
own texts write and ptxas accepts (each one checked with ptxas, tests/unit/tools/test_check_vs_ptxas.py):

- integer `.satfinite` at the end, after the types: CUTLASS's SM80 mma.sync atoms
  (`mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite`) and the ISA's own wgmma examples
  (reference A2, C3);
- the kind group `.kind::X{.block_scale{.scale_vec::NX}}` right after `.aligned`, before the shape: CUTLASS's
  SM120 atoms (`mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col...`, reference E2).

ptxas itself is looser than any grammar: it reads the qualifiers as a set, only the types keeping their
order (`mma.aligned.sync...` and `.row.col` after the types assemble), and it takes a repeated `.sync` or
`.satfinite` and a wgmma.mma_async without `.aligned`. `check` promises the exact spelling, so it follows
the grammar there; what ptxas does reject (any other repeated qualifier, a second shape, kind or scale
vector, an empty token) `check` rejects too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .elements import ALL_ELEMENT_TYPES, SCALE_TYPES
from .model import AtomError
from .mma_sync import DEFAULT_SCALE_VEC

_SHAPE = re.compile(r"^m([0-9]+)n([0-9]+)k([0-9]+)$")  # ASCII digits only, as ptxas reads them
_ROUNDING = ("rn", "rz", "rm", "rp")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


class SpellingError(AtomError):
    pass


@dataclass(frozen=True)
class _Token:
    text: str
    pos: int  # 1-based place among the dot-separated tokens; the opcode is token 1
    slot: str  # the grammar slot it fills

    def __str__(self) -> str:
        return f"'.{self.text}' (token {self.pos})"


@dataclass(frozen=True)
class _Grammar:
    """The qualifiers of one instruction family: which category each token belongs to, the slots a
    category fills in turn (layouts and types fill several; everything else one), and the slot orders
    the family may be spelled in, the ISA's first."""

    name: str  # for messages: "mma", "wgmma.mma_async", "tcgen05.mma"
    category: Callable[[str], str | None]  # None: not a qualifier of this family
    orders: tuple[tuple[str, ...], ...]
    slots: dict[str, tuple[str, ...]]
    words: dict[str, str]  # category -> what a second one is called in a message


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if n <= len(_ORDINALS) else f"{n}th"


def _tokens(spelling: str) -> tuple[str, list[str]]:
    """The spelling without a trailing `;`, and its dot-separated tokens (`::` groups such as
    `kind::f8f6f4` are one token). An empty token is an error naming what precedes it."""
    text = spelling.strip().rstrip(";").strip()
    if not text:
        raise SpellingError("empty instruction")
    parts = text.split(".")
    for i, p in enumerate(parts):
        if p == "":
            where = "at the start" if i == 0 else f"after '{'.'.join(parts[:i])}'"
            raise SpellingError(f"'{text}': empty token {where} (token {i + 1})")
    return text, parts


def _read(text: str, parts: list[str], first: int, g: _Grammar) -> dict[str, _Token]:
    """The tokens from parts[first:] in their slots: each known, each slot filled at most once, in an
    order the grammar admits. Returns slot -> token."""
    filled: dict[str, _Token] = {}
    by_category: dict[str, list[_Token]] = {}
    seq: list[_Token] = []
    for pos, t in enumerate(parts[first:], start=first + 1):
        cat = g.category(t)
        if cat is None and t in parts[:first]:
            raise SpellingError(f"'{text}': '{t}' appears twice (tokens {parts.index(t) + 1} and {pos})")
        if cat is None:
            raise SpellingError(f"'{text}': unknown qualifier '.{t}' for {g.name} (token {pos})")
        slots = g.slots.get(cat, (cat,))
        prev = by_category.setdefault(cat, [])
        if len(prev) == len(slots):
            if len(slots) == 1:
                if prev[0].text == t:
                    raise SpellingError(f"'{text}': '.{t}' appears twice (tokens {prev[0].pos} and {pos})")
                raise SpellingError(f"'{text}': '.{t}' (token {pos}) is a second {g.words.get(cat, cat)}, "
                                    f"after {prev[0]}; {g.name} takes one")
            raise SpellingError(f"'{text}': '.{t}' (token {pos}) is a {_ordinal(len(slots) + 1)} "
                                f"{g.words.get(cat, cat)}; {g.name} takes at most {len(slots)} "
                                f"({''.join('.' + s for s in slots)})")
        tok = _Token(t, pos, slots[len(prev)])
        prev.append(tok)
        filled[tok.slot] = tok
        seq.append(tok)
    _check_order(text, seq, g)
    return filled


def _first_inversion(seq: list[_Token], order: tuple[str, ...]) -> tuple[int, int] | None:
    """(j, k): the first token k that an earlier token j should follow, and the earliest such j."""
    rank = {s: i for i, s in enumerate(order)}
    for k, tok in enumerate(seq):
        for j in range(k):
            if rank[seq[j].slot] > rank[tok.slot]:
                return j, k
    return None


def _check_order(text: str, seq: list[_Token], g: _Grammar) -> None:
    inversions = []
    for order in g.orders:
        inv = _first_inversion(seq, order)
        if inv is None:
            return
        inversions.append(inv)
    # name the misplaced token against the order the spelling follows longest (the ISA's on a tie)
    j, k = max(inversions, key=lambda jk: jk[1])
    raise SpellingError(f"'{text}': {seq[j]} must come after {seq[k]}")


def _require(text: str, filled: dict[str, _Token], *slots: str) -> None:
    for s in slots:
        if s not in filled:
            raise SpellingError(f"'{text}': .{s} is required")


def parse(spelling: str) -> tuple[str, dict[str, Any]]:
    odd = next((c for c in spelling if not c.isascii()), None)
    if odd is not None:  # ptxas reads ASCII; Python's int() would take '١٦' (Arabic-Indic digits) as 16
        raise SpellingError(f"'{spelling}': {odd!r} (U+{ord(odd):04X}, position {spelling.index(odd) + 1}) is not "
                            f"ASCII; PTX is spelled in ASCII")
    text, parts = _tokens(spelling)
    if parts[0] == "mma":
        return _parse_mma(text, _read(text, parts, 1, _MMA))
    if parts[0] == "wgmma" and "mma_async" in parts:
        return _parse_wgmma(text, _read(text, parts, 1, _WGMMA))
    if parts[0] == "wgmma":
        raise SpellingError(f"'{text}': expected wgmma.mma_async")
    if parts[0] == "tcgen05" and "mma" in parts:
        return _parse_tcgen05(text, _read(text, parts, 1, _TCGEN05))
    raise SpellingError(f"'{text}': not an MMA instruction (expected mma, wgmma.mma_async or tcgen05.mma)")


def _shape(text: str, tok: _Token) -> tuple[int, int, int]:
    m = _SHAPE.match(tok.text)
    if not m:
        raise SpellingError(f"'{text}': {tok} is not a shape (mMnNkK)")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def _text(filled: dict[str, _Token], slot: str) -> str | None:
    tok = filled.get(slot)
    return tok.text if tok else None


def _after(prefix: str, tok: str) -> str:
    return tok[len(prefix):]


# -- mma.sync / mma.sp / block-scaled mma.sync -------------------------------------------------------

_TYPE_SLOTS = ("dtype", "atype", "btype", "ctype", "stype")
_KIND_GROUP = ("kind", "block_scale", "scale_vec")


def _mma_category(t: str) -> str | None:
    if t in ("sp", "sp::ordered_metadata"):
        return "sparse"
    if t in ("sync", "aligned", "block_scale", "satfinite", "popc"):
        return t
    if _SHAPE.match(t):
        return "shape"
    if t in ("row", "col"):
        return "layout"
    if t.startswith("kind::"):
        return "kind"
    if t.startswith("scale_vec::"):
        return "scale_vec"
    if t in ("xor", "and"):
        return "bitop"
    if t in _ROUNDING:
        return "rounding"
    if t in ALL_ELEMENT_TYPES:
        return "type"
    return None


def _mma_orders() -> tuple[tuple[str, ...], ...]:
    """ISA: mma{.sp}.sync.aligned.shape.alayout.blayout{.kind{.block_scale{.scale_vec}}}{.satfinite}
    .dtype.atype.btype.ctype{.stype}{.bitop.popc}{.rnd}; the kind group may also stand before the
    shape (CUTLASS SM120), .satfinite at the end (CUTLASS SM80)."""
    head = ("sparse", "sync", "aligned")
    shape = ("shape", "alayout", "blayout")
    tail = _TYPE_SLOTS + ("bitop", "popc", "rounding")
    orders = []
    for kind_first in (False, True):
        for sat_last in (False, True):
            body = (_KIND_GROUP + shape) if kind_first else (shape + _KIND_GROUP)
            orders.append(head + body + (tail + ("satfinite",) if sat_last else ("satfinite",) + tail))
    return tuple(orders)


_MMA = _Grammar("mma", _mma_category, _mma_orders(),
                slots={"layout": ("alayout", "blayout"), "type": _TYPE_SLOTS},
                words={"sparse": "sparsity qualifier", "layout": "layout", "type": "type", "kind": ".kind",
                       "scale_vec": ".scale_vec", "bitop": "bit operation", "rounding": "rounding modifier"})


def _parse_mma(text: str, f: dict[str, _Token]) -> tuple[str, dict[str, Any]]:
    _require(text, f, "sync", "aligned")
    if "shape" not in f:
        raise SpellingError(f"'{text}': no shape")
    shape = _shape(text, f["shape"])
    if "blayout" not in f:
        raise SpellingError(f"'{text}': mma needs two layouts (.row.col)")
    if ("bitop" in f) != ("popc" in f):
        tok = f.get("bitop") or f["popc"]
        need = "'.popc' after it" if "bitop" in f else "'.xor' or '.and' before it"
        raise SpellingError(f"'{text}': {tok} needs {need}")
    kind = _after("kind::", f["kind"].text) if "kind" in f else None
    scale_vec = _after("scale_vec::", f["scale_vec"].text) if "scale_vec" in f else None
    types = [f[s].text for s in _TYPE_SLOTS if s in f]
    if "block_scale" in f:
        return "mma.block_scale", _block_scaled_mma(text, f, shape, types, kind, scale_vec)
    return _plain_mma(text, f, shape, types, kind, scale_vec)


def _block_scaled_mma(text: str, f: dict[str, _Token], shape, types: list[str], kind: str | None,
                      scale_vec: str | None) -> dict[str, Any]:
    """An mma...block_scale spelling's values: five types, a kind, the scale vector (its default per kind)."""
    for s in ("satfinite", "bitop", "rounding"):
        if s in f:
            raise SpellingError(f"'{text}': {f[s]} is not a qualifier of block-scaled mma")
    if len(types) != 5:
        raise SpellingError(f"'{text}': block-scaled mma needs .dtype.atype.btype.ctype.stype")
    if types[4] not in SCALE_TYPES:
        raise SpellingError(f"'{text}': {f['stype']} is not a scale type (.ue8m0 or .ue4m3)")
    d, a, b, c, stype = types
    if kind is None:
        raise SpellingError(f"'{text}': .block_scale needs a .kind")
    if scale_vec is None:
        scale_vec = DEFAULT_SCALE_VEC.get(kind)
        if scale_vec is None:
            raise SpellingError(f"'{text}': kind::{kind} needs an explicit .scale_vec")
    if (f["alayout"].text, f["blayout"].text) != ("row", "col"):
        raise SpellingError(f"'{text}': block-scaled mma is .row.col only")
    return dict(sparse_mode=_text(f, "sparse"), kind=kind, scale_vec=scale_vec, scale_type=stype, shape=shape,
                a=a, b=b, acc=(d, c))


def _plain_mma(text: str, f: dict[str, _Token], shape, types: list[str], kind: str | None,
               scale_vec: str | None) -> tuple[str, dict[str, Any]]:
    """A dense or sparse mma.sync spelling's family and values: four types, no scale qualifiers."""
    if "stype" in f:
        tok = f["stype"]
        if tok.text in SCALE_TYPES:
            raise SpellingError(f"'{text}': {tok}: a scale type needs .block_scale")
        raise SpellingError(f"'{text}': {tok} is a fifth type; mma takes four (.dtype.atype.btype.ctype)")
    if len(types) != 4:
        raise SpellingError(f"'{text}': mma needs four types .dtype.atype.btype.ctype")
    d, a, b, c = types
    if scale_vec is not None:
        raise SpellingError(f"'{text}': {f['scale_vec']} without .block_scale")
    layout_a, layout_b = f["alayout"].text, f["blayout"].text
    satfinite, sparse_mode = "satfinite" in f, _text(f, "sparse")
    bitop, rounding = _text(f, "bitop"), _text(f, "rounding")
    if sparse_mode:
        if (layout_a, layout_b) != ("row", "col"):
            raise AtomError(f"mma.sp: layouts={layout_a}/{layout_b} is not legal; legal layouts: row/col")
        if bitop or rounding:
            raise AtomError(f"mma.sp: A type={a} is not legal for sparse mma (no b1 or f64 sparse forms)")
        return "mma.sp", dict(sparse_mode=sparse_mode, shape=shape, kind=kind, a=a, b=b, acc=(d, c),
                              satfinite=satfinite)
    return "mma", dict(shape=shape, kind=kind, a=a, b=b, acc=(d, c), layout=(layout_a, layout_b),
                       satfinite=satfinite, bitop=bitop, rounding=rounding)


# -- wgmma.mma_async ------------------------------------------------------------------------------

def _wgmma_category(t: str) -> str | None:
    if t in ("mma_async", "sync", "aligned", "satfinite", "popc"):
        return t
    if t == "sp":
        return "sparse"
    if _SHAPE.match(t):
        return "shape"
    if t in ("and", "xor"):
        return "bitop"
    if t in ALL_ELEMENT_TYPES:
        return "type"
    return None


# ISA: wgmma.mma_async{.sp}.sync.aligned.shape{.satfinite}.dtype.atype.btype{.bitop.popc}; the ISA's
# examples write .satfinite at the end
_WG_HEAD = ("mma_async", "sparse", "sync", "aligned", "shape")
_WG_TAIL = ("dtype", "atype", "btype", "bitop", "popc")
_WGMMA = _Grammar("wgmma.mma_async", _wgmma_category,
                  (_WG_HEAD + ("satfinite",) + _WG_TAIL, _WG_HEAD + _WG_TAIL + ("satfinite",)),
                  slots={"type": ("dtype", "atype", "btype")},
                  words={"sparse": "sparsity qualifier", "type": "type", "bitop": "bit operation"})


def _parse_wgmma(text: str, f: dict[str, _Token]) -> tuple[str, dict[str, Any]]:
    _require(text, f, "sync", "aligned")
    if "shape" not in f or "btype" not in f:
        raise SpellingError(f"'{text}': wgmma.mma_async needs a shape and .dtype.atype.btype")
    if ("bitop" in f) != ("popc" in f):
        tok = f.get("bitop") or f["popc"]
        need = "'.popc' after it" if "bitop" in f else "'.and' before it"
        raise SpellingError(f"'{text}': {tok} needs {need}")
    m, n, k = _shape(text, f["shape"])
    return "wgmma", dict(sparse="sparse" in f, a=f["atype"].text, b=f["btype"].text, d=f["dtype"].text,
                         m=m, n=n, k=k, satfinite="satfinite" in f, bitop=_text(f, "bitop"))


# -- tcgen05.mma ----------------------------------------------------------------------------------

def _tcgen05_category(t: str) -> str | None:
    if t in ("mma", "block_scale"):
        return t
    if t == "sp":
        return "sparse"
    if t.startswith("cta_group::"):
        return "cta_group"
    if t.startswith("kind::"):
        return "kind"
    if t.startswith("scale_vec::") or t in ("block16", "block32"):
        return "scale_vec"
    return None


# ISA: tcgen05.mma{.sp}.cta_group.kind{.block_scale{.scale_vectorsize}}
_TCGEN05 = _Grammar("tcgen05.mma", _tcgen05_category,
                    (("mma", "sparse", "cta_group", "kind", "block_scale", "scale_vec"),),
                    slots={}, words={"sparse": "sparsity qualifier", "cta_group": ".cta_group", "kind": ".kind",
                                     "scale_vec": "scale-vector qualifier"})

_BLOCK_SCALED_KINDS = ("mxf8f6f4", "mxf4", "mxf4nvf4")


def _parse_tcgen05(text: str, f: dict[str, _Token]) -> tuple[str, dict[str, Any]]:
    if "cta_group" not in f:
        raise SpellingError(f"'{text}': .cta_group is required for tcgen05.mma")
    try:
        cta_group = int(_after("cta_group::", f["cta_group"].text))
    except ValueError:
        raise SpellingError(f"'{text}': bad {f['cta_group']}") from None
    if "kind" not in f:
        raise SpellingError(f"'{text}': .kind is required for tcgen05.mma")
    kind = _after("kind::", f["kind"].text)
    scale_vec = None
    if "scale_vec" in f:
        vec = f["scale_vec"].text
        scale_vec = _after("scale_vec::", vec) if vec.startswith("scale_vec::") else vec
        if "block_scale" not in f and kind in _BLOCK_SCALED_KINDS:
            raise SpellingError(f"'{text}': {f['scale_vec']} without .block_scale")
    block_scale = "block_scale" in f
    if kind in _BLOCK_SCALED_KINDS and not block_scale:
        raise AtomError(f"sm100 tcgen05.mma: kind::{kind} needs .block_scale")
    if kind not in _BLOCK_SCALED_KINDS and (block_scale or scale_vec):
        raise AtomError(f"sm100 tcgen05.mma: kind::{kind} cannot be combined with .block_scale; "
                        "block scaling needs kind::mxf8f6f4, mxf4 or mxf4nvf4")
    return "tcgen05.mma", dict(sparse="sparse" in f, cta_group=cta_group, kind=kind, scale_vec=scale_vec)
