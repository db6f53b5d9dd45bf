"""Read an exact PTX instruction spelling (opcode and qualifiers, no operands) back into an atom's
family and dimension values, so that `mmatom-atoms check` judges it with the dialect's own rules."""

from __future__ import annotations

import re
from typing import Any

from .elements import ALL_ELEMENT_TYPES, SCALE_TYPES
from .model import AtomError
from .mma_sync import DEFAULT_SCALE_VEC

_SHAPE = re.compile(r"^m(\d+)n(\d+)k(\d+)$")
_ROUNDING = ("rn", "rz", "rm", "rp")


class SpellingError(AtomError):
    pass


def _scale_qualifier(tok: str) -> tuple[str, object] | None:
    """`.kind::X`, `.block_scale`, `.scale_vec::NX`: spelled alike by mma.sync and tcgen05.mma."""
    if tok.startswith("kind::"):
        return "kind", tok[len("kind::"):]
    if tok == "block_scale":
        return "block_scale", True
    if tok.startswith("scale_vec::"):
        return "scale_vec", tok[len("scale_vec::"):]
    return None


def _split(spelling: str) -> list[str]:
    """Qualifiers split on dots, keeping `::` groups (`kind::f8f6f4`, `sp::ordered_metadata`)."""
    return [t for t in spelling.strip().rstrip(";").split(".") if t != ""]


def parse(spelling: str) -> tuple[str, dict[str, Any]]:
    tokens = _split(spelling)
    if not tokens:
        raise SpellingError("empty instruction")
    if tokens[0] == "mma":
        return _parse_mma(spelling, tokens[1:])
    if tokens[0] == "wgmma":
        return _parse_wgmma(spelling, tokens[1:])
    if tokens[0] == "tcgen05" and len(tokens) > 1 and tokens[1] == "mma":
        return _parse_tcgen05(spelling, tokens[2:])
    raise SpellingError(f"'{spelling}': not an MMA instruction (expected mma, wgmma.mma_async or tcgen05.mma)")


def _shape(spelling: str, tok: str) -> tuple[int, int, int]:
    m = _SHAPE.match(tok)
    if not m:
        raise SpellingError(f"'{spelling}': '{tok}' is not a shape (mMnNkK)")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def _require(spelling: str, tokens: list[str], *required: str) -> None:
    for r in required:
        if r not in tokens:
            raise SpellingError(f"'{spelling}': .{r} is required")


def _parse_mma(spelling: str, toks: list[str]) -> tuple[str, dict[str, Any]]:
    values: dict[str, Any] = {}
    sparse_mode = None
    if toks and toks[0] in ("sp", "sp::ordered_metadata"):
        sparse_mode = toks.pop(0)
    _require(spelling, toks, "sync", "aligned")
    shape = layout_a = layout_b = None
    kind = scale_vec = bitop = rounding = None
    block_scale = satfinite = False
    types: list[str] = []
    for tok in toks:
        if tok in ("sync", "aligned"):
            continue
        if _SHAPE.match(tok):
            shape = _shape(spelling, tok)
        elif tok in ("row", "col"):
            if layout_a is None:
                layout_a = tok
            elif layout_b is None:
                layout_b = tok
            else:
                raise SpellingError(f"'{spelling}': more than two layouts")
        elif (q := _scale_qualifier(tok)) is not None:
            key, val = q
            if key == "kind":
                kind = val
            elif key == "block_scale":
                block_scale = True
            else:
                scale_vec = val
        elif tok == "satfinite":
            satfinite = True
        elif tok in ("xor", "and"):
            bitop = tok
        elif tok == "popc":
            continue
        elif tok in _ROUNDING:
            rounding = tok
        elif tok in ALL_ELEMENT_TYPES:
            types.append(tok)
        else:
            raise SpellingError(f"'{spelling}': unknown qualifier '.{tok}' for mma")
    if shape is None:
        raise SpellingError(f"'{spelling}': no shape")
    if layout_b is None:
        raise SpellingError(f"'{spelling}': mma needs two layouts (.row.col)")
    if block_scale:
        if len(types) != 5 or types[4] not in SCALE_TYPES:
            raise SpellingError(f"'{spelling}': block-scaled mma needs .dtype.atype.btype.ctype.stype")
        d, a, b, c, stype = types
        if kind is None:
            raise SpellingError(f"'{spelling}': .block_scale needs a .kind")
        if scale_vec is None:
            scale_vec = DEFAULT_SCALE_VEC.get(kind)
            if scale_vec is None:
                raise SpellingError(f"'{spelling}': kind::{kind} needs an explicit .scale_vec")
        if (layout_a, layout_b) != ("row", "col"):
            raise SpellingError(f"'{spelling}': block-scaled mma is .row.col only")
        values = dict(sparse_mode=sparse_mode, kind=kind, scale_vec=scale_vec, scale_type=stype, shape=shape,
                      a=a, b=b, acc=(d, c))
        return "mma.block_scale", values
    if len(types) != 4:
        raise SpellingError(f"'{spelling}': mma needs four types .dtype.atype.btype.ctype")
    d, a, b, c = types
    if scale_vec is not None:
        raise SpellingError(f"'{spelling}': .scale_vec without .block_scale")
    if sparse_mode:
        if (layout_a, layout_b) != ("row", "col"):
            raise AtomError(f"mma.sp: layouts={layout_a}/{layout_b} is not legal; legal layouts: row/col")
        if bitop or rounding:
            raise AtomError(f"mma.sp: A type={a} is not legal for sparse mma (no b1 or f64 sparse forms)")
        return "mma.sp", dict(sparse_mode=sparse_mode, shape=shape, kind=kind, a=a, b=b, acc=(d, c),
                              satfinite=satfinite)
    return "mma", dict(shape=shape, kind=kind, a=a, b=b, acc=(d, c), layout=(layout_a, layout_b),
                       satfinite=satfinite, bitop=bitop, rounding=rounding)


def _parse_wgmma(spelling: str, toks: list[str]) -> tuple[str, dict[str, Any]]:
    if not toks or toks[0] != "mma_async":
        raise SpellingError(f"'{spelling}': expected wgmma.mma_async")
    toks = toks[1:]
    sparse = bool(toks) and toks[0] == "sp"
    if sparse:
        toks = toks[1:]
    _require(spelling, toks, "sync", "aligned")
    shape = None
    satfinite = False
    bitop = None
    types: list[str] = []
    for tok in toks:
        if tok in ("sync", "aligned", "popc"):
            continue
        if _SHAPE.match(tok):
            shape = _shape(spelling, tok)
        elif tok == "satfinite":
            satfinite = True
        elif tok in ("and", "xor"):
            bitop = tok
        elif tok in ALL_ELEMENT_TYPES:
            types.append(tok)
        else:
            raise SpellingError(f"'{spelling}': unknown qualifier '.{tok}' for wgmma.mma_async")
    if shape is None or len(types) != 3:
        raise SpellingError(f"'{spelling}': wgmma.mma_async needs a shape and .dtype.atype.btype")
    d, a, b = types
    m, n, k = shape
    return "wgmma", dict(sparse=sparse, a=a, b=b, d=d, m=m, n=n, k=k, satfinite=satfinite, bitop=bitop)


def _parse_tcgen05(spelling: str, toks: list[str]) -> tuple[str, dict[str, Any]]:
    sparse = bool(toks) and toks[0] == "sp"
    if sparse:
        toks = toks[1:]
    cta_group = kind = scale_vec = None
    block_scale = False
    for tok in toks:
        if tok.startswith("cta_group::"):
            try:
                cta_group = int(tok[len("cta_group::"):])
            except ValueError:
                raise SpellingError(f"'{spelling}': bad .{tok}") from None
        elif (q := _scale_qualifier(tok)) is not None:
            key, val = q
            if key == "kind":
                kind = val
            elif key == "block_scale":
                block_scale = True
            else:
                scale_vec = val
        elif tok in ("block16", "block32"):
            scale_vec = tok
        else:
            raise SpellingError(f"'{spelling}': unknown qualifier '.{tok}' for tcgen05.mma")
    if cta_group is None:
        raise SpellingError(f"'{spelling}': .cta_group is required for tcgen05.mma")
    if kind is None:
        raise SpellingError(f"'{spelling}': .kind is required for tcgen05.mma")
    if kind in ("mxf8f6f4", "mxf4", "mxf4nvf4") and not block_scale:
        raise AtomError(f"sm100 tcgen05.mma: kind::{kind} needs .block_scale")
    if kind not in ("mxf8f6f4", "mxf4", "mxf4nvf4") and (block_scale or scale_vec):
        raise AtomError(f"sm100 tcgen05.mma: kind::{kind} cannot be combined with .block_scale; "
                        "block scaling needs kind::mxf8f6f4, mxf4 or mxf4nvf4")
    return "tcgen05.mma", dict(sparse=sparse, cta_group=cta_group, kind=kind, scale_vec=scale_vec)
