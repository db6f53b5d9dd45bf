"""Word-valued enum attributes in upstream NVVM's spelling, `#nvvm.<mnemonic><word>`, shared by the nvvm
dialect's modules."""

from __future__ import annotations

import sys

from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


def word_enum(name: str, words: tuple[str, ...]) -> type[StrEnum]:
    """A StrEnum whose members are named by their words, so they hash and compare like the words; it belongs
    to the calling module (where pickle looks it up: conformance runs ship atoms to worker processes)."""
    return StrEnum(name, [(w, w) for w in words], module=sys._getframe(1).f_globals["__name__"])


class WordAttr:
    """Mixin for upstream's enum attributes, `#nvvm.<mnemonic><word>`, over xDSL's EnumAttribute: a word
    outside the enum is a located error naming the legal words; the constructor takes the word."""

    def __init__(self, word: str):
        super().__init__(self.enum_type(word))  # type: ignore[attr-defined, call-arg]

    @classmethod
    def words(cls) -> tuple[str, ...]:
        return tuple(m.value for m in cls.enum_type)  # type: ignore[attr-defined]

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            pos = parser.pos
            word = parser.parse_identifier()
            if word not in cls.words():
                parser.raise_error(f"'{word}' is not one of {', '.join(cls.words())}", pos, parser.pos)
        return cls.enum_type(word)  # type: ignore[attr-defined]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")  # type: ignore[attr-defined]
