"""Read CuTe notation: `((4,8),(2,2)):((32,1),(16,8))` and `Sw<3,4,3> o 0 o (8,64):(64,1)`.

CuTe prints static integers with a leading underscore (`_8`); both spellings are accepted.
"""

from __future__ import annotations

import re

from .int_tuple import IntTuple
from .layout import Layout, LayoutError
from .swizzle import ComposedLayout, Swizzle

_TOKEN = re.compile(r"\s*(?:(?P<num>-?_?\d+)|(?P<sym>[(),:]))")
_SWIZZLE = re.compile(r"^\s*Sw<\s*(\d+)\s*,\s*(\d+)\s*,\s*(-?\d+)\s*>\s*o\s*(?:_?(\d+)\s*o\s*)?(.*)$", re.S)


class NotationError(ValueError):
    pass


# far more than a 64-bit extent or stride needs (a wider one gets its own error later); past 4300 digits Python
# refuses to convert a number at all
MAX_DIGITS = 100


def _int(digits: str, text: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise NotationError(f"a number of {len(digits.lstrip('-'))} digits in layout {text[:40]!r}...; a layout's "
                            f"numbers have at most {MAX_DIGITS}")
    return int(digits)


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise NotationError(f"unexpected character {text[pos:].strip()[0]!r} in layout {text!r}")
        out.append(m.group("num").replace("_", "") if m.group("num") else m.group("sym"))
        pos = m.end()
    return out


# CuTe layouts nest a few levels (a hierarchical mode of modes); a deeper text is a mistake, and reading it
# recursively must not exhaust Python's stack.
MAX_NESTING = 32


def _parse_tuple(tokens: list[str], pos: int, text: str, depth: int = 0) -> tuple[IntTuple, int]:
    if pos >= len(tokens):
        raise NotationError(f"layout {text!r} ends early")
    tok = tokens[pos]
    if tok == "(":
        if depth >= MAX_NESTING:
            raise NotationError(f"layout {text[:40]!r}... nests deeper than {MAX_NESTING} levels")
        items: list[IntTuple] = []
        pos += 1
        while True:
            item, pos = _parse_tuple(tokens, pos, text, depth + 1)
            items.append(item)
            if pos >= len(tokens):
                raise NotationError(f"unbalanced parentheses in layout {text!r}")
            if tokens[pos] == ",":
                pos += 1
                continue
            if tokens[pos] == ")":
                return tuple(items), pos + 1
            raise NotationError(f"expected ',' or ')' in layout {text!r}")
    if tok in "(),:":
        raise NotationError(f"unexpected {tok!r} in layout {text!r}")
    return _int(tok, text), pos + 1


def parse_int_tuple(text: str) -> IntTuple:
    tokens = _tokens(text)
    value, pos = _parse_tuple(tokens, 0, text)
    if pos != len(tokens):
        raise NotationError(f"trailing text in {text!r}")
    return value


def parse_layout(text: str) -> Layout:
    """`shape:stride` in CuTe notation."""
    tokens = _tokens(text)
    shape, pos = _parse_tuple(tokens, 0, text)
    if pos >= len(tokens) or tokens[pos] != ":":
        raise NotationError(f"layout {text!r} needs shape:stride")
    stride, pos = _parse_tuple(tokens, pos + 1, text)
    if pos != len(tokens):
        raise NotationError(f"trailing text in layout {text!r}")
    try:
        return Layout(shape, stride)
    except LayoutError as err:
        raise NotationError(str(err)) from err


def parse_any_layout(text: str) -> Layout | ComposedLayout:
    """A plain layout, or `Sw<B,M,S> o [offset o] shape:stride`."""
    m = _SWIZZLE.match(text)
    if m:
        bits, base, shift, offset, rest = m.groups()
        try:
            swizzle = Swizzle(_int(bits, text), _int(base, text), _int(shift, text))
        except NotationError:
            raise
        except ValueError as err:
            raise NotationError(str(err)) from err
        return ComposedLayout(swizzle, _int(offset or "0", text), parse_layout(rest))
    return parse_layout(text)
