"""The 32-bit `tcgen05.mma` instruction descriptor (idesc), packed from a catalogue atom.

ptxas does not look inside idesc (any 32-bit value assembles), so these bits are checked only by
decoding them back field by field in the unit tests. Bit layout: `../shared/reference/ptx-mma.md` D6
(ISA Tables 42-44; CUTLASS `UMMA::InstrDescriptor` / `InstrDescriptorBlockScaled` agree).

  unscaled kinds (f16, tf32, f8f6f4, i8)          block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4)
  0-1   sparsity selector                         0-1   reserved
  2     sparse                                    2     sparse
  3     saturate (i8)                             3     reserved
  4-5   D type                                    4-5   B scale-factor ID
  7-9   A type, 10-12 B type                      7-9   A type, 10-12 B type (mxf4 kinds: 10-11)
  13/14 negate A/B, 15/16 transpose A/B           13/14 negate A/B, 15/16 transpose A/B
  17-22 N >> 3                                    17-22 N >> 3, 23 scale type
  24-28 M >> 4                                    27-28 M >> 7, 29-30 A scale-factor ID
  30-31 .ws B-reuse shift                         31    K = 96 (mxf4 kinds)
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalogue.tcgen05 import BLOCK_SCALED as BLOCK_SCALED_KINDS

D_TYPE_CODE = {"f16": 0, "f32": 1, "s32": 2}
F8F6F4_CODE = {"e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5}
AB_TYPE_CODE = {
    "f16": {"f16": 0, "bf16": 1},
    "tf32": {"tf32": 2},
    "f8f6f4": F8F6F4_CODE,
    "i8": {"u8": 0, "s8": 1},
    "mxf8f6f4": F8F6F4_CODE,
    "mxf4": {"e2m1": 1},
    "mxf4nvf4": {"e2m1": 1},
}
SCALE_TYPE_CODE = {"ue4m3": 0, "ue8m0": 1}
WS_SHIFT_CODE = {0: 0, 8: 1, 16: 2, 32: 3}


class InstrDescError(ValueError):
    pass


@dataclass(frozen=True)
class InstrDesc:
    """Every field of an idesc, by meaning (not by bit position)."""

    kind: str
    a: str
    b: str
    m: int
    n: int
    d: str = "f32"  # unscaled kinds only; block-scaled kinds always accumulate in f32
    sparse: bool = False
    selector: int = 0  # unscaled sparse only
    saturate: bool = False  # i8 only
    negate_a: bool = False
    negate_b: bool = False
    transpose_a: bool = False  # 0 = K-major, 1 = MN-major
    transpose_b: bool = False
    ws_shift: int = 0  # .ws B-reuse shift: 0, 8, 16, 32
    scale_type: str | None = None  # block-scaled only
    sf_id_a: int = 0
    sf_id_b: int = 0
    k96: bool = False  # mxf4 kinds, dense K = 96 (sm_103a)

    @property
    def block_scaled(self) -> bool:
        return self.kind in BLOCK_SCALED_KINDS


def _code(table: dict, value, what: str) -> int:
    if value not in table:
        raise InstrDescError(f"{what} {value} has no instruction-descriptor code; legal: {', '.join(map(str, table))}")
    return table[value]


def _field(value: int, bits: int, what: str) -> int:
    if not 0 <= value < (1 << bits):
        raise InstrDescError(f"{what}={value} does not fit in {bits} bits")
    return value


def pack(f: InstrDesc) -> int:
    types = _code(AB_TYPE_CODE, f.kind, "kind")
    word = (int(f.sparse) << 2
            | _code(types, f.a, f"kind::{f.kind} A type") << 7
            | _code(types, f.b, f"kind::{f.kind} B type") << 10
            | int(f.negate_a) << 13 | int(f.negate_b) << 14
            | int(f.transpose_a) << 15 | int(f.transpose_b) << 16)
    if f.n % 8:
        raise InstrDescError(f"N={f.n} is not a multiple of 8")
    word |= _field(f.n >> 3, 6, "N >> 3") << 17
    if f.block_scaled:
        if f.m % 128:
            raise InstrDescError(f"block-scaled M={f.m} is not a multiple of 128")
        legal_ids = (0, 1, 2, 3) if f.kind == "mxf8f6f4" else (0, 2)
        for sf_id, what in ((f.sf_id_a, "A"), (f.sf_id_b, "B")):
            if sf_id not in legal_ids:
                raise InstrDescError(f"kind::{f.kind} {what} scale-factor ID {sf_id} is not one of {legal_ids}")
        word |= (f.sf_id_b << 4 | _code(SCALE_TYPE_CODE, f.scale_type, "scale type") << 23
                 | _field(f.m >> 7, 2, "M >> 7") << 27 | f.sf_id_a << 29 | int(f.k96) << 31)
    else:
        if f.m % 16:
            raise InstrDescError(f"M={f.m} is not a multiple of 16")
        word |= (_field(f.selector, 2, "sparsity selector") | int(f.saturate) << 3
                 | _code(D_TYPE_CODE, f.d, "D type") << 4 | _field(f.m >> 4, 5, "M >> 4") << 24
                 | _code(WS_SHIFT_CODE, f.ws_shift, ".ws B-reuse shift") << 30)
    return word


def unpack(word: int, kind: str) -> InstrDesc:
    """The fields of `word` read back for `kind` (the kind is in the PTX spelling, not in idesc)."""
    bits = lambda lo, n: (word >> lo) & ((1 << n) - 1)  # noqa: E731
    types = {v: k for k, v in _code(AB_TYPE_CODE, kind, "kind").items()}
    common = dict(kind=kind, sparse=bool(bits(2, 1)), negate_a=bool(bits(13, 1)), negate_b=bool(bits(14, 1)),
                  transpose_a=bool(bits(15, 1)), transpose_b=bool(bits(16, 1)), n=bits(17, 6) << 3)
    if kind in BLOCK_SCALED_KINDS:
        b_bits = 3 if kind == "mxf8f6f4" else 2
        return InstrDesc(a=types[bits(7, 3)], b=types[bits(10, b_bits)], m=bits(27, 2) << 7,
                         scale_type={v: k for k, v in SCALE_TYPE_CODE.items()}[bits(23, 1)],
                         sf_id_a=bits(29, 2), sf_id_b=bits(4, 2), k96=bool(bits(31, 1)), **common)
    return InstrDesc(a=types[bits(7, 3)], b=types[bits(10, 3)], m=bits(24, 5) << 4, selector=bits(0, 2),
                     saturate=bool(bits(3, 1)), d={v: k for k, v in D_TYPE_CODE.items()}[bits(4, 2)],
                     ws_shift={v: k for k, v in WS_SHIFT_CODE.items()}[bits(30, 2)], **common)


def for_atom(atom, *, transpose_a: bool = False, transpose_b: bool = False, negate_a: bool = False,
             negate_b: bool = False, saturate: bool = False, selector: int = 0, sf_id_a: int = 0,
             sf_id_b: int = 0) -> InstrDesc:
    """The idesc of a catalogue `tcgen05.mma` atom, given what the atom leaves to its operands."""
    kind = atom.kind
    block_scaled = kind in BLOCK_SCALED_KINDS
    return InstrDesc(kind=kind, a=atom.a, b=atom.b, m=atom.m, n=atom.n, d=atom.d,
                     sparse=bool(atom.sparse), selector=0 if block_scaled else selector, saturate=saturate,
                     negate_a=negate_a, negate_b=negate_b, transpose_a=transpose_a, transpose_b=transpose_b,
                     scale_type=atom.scale_type if block_scaled else None, sf_id_a=sf_id_a, sf_id_b=sf_id_b,
                     k96=block_scaled and atom.k == 96)
