"""The attention kernel's configuration: tile sizes per head dimension, and the tensor-map boxes the kernel and the
host share (one source of truth for both).

Tensors are viewed 3-d for TMA: q, o as (B, Sq, H * D) and k, v as (B, Sk, Hkv * D) -- layers B, rows the sequence,
columns the heads' features -- so a box of rows clips at its own batch's sequence end. Boxes are 64 columns (128
bytes of bf16/f16: one 128B swizzle row); a tile of D columns is D / 64 boxes side by side.

A GQA group's query heads may share a tile (`pack` of them, FA3's PackGQA): the tile's rows are `pack` blocks of
block_m / pack query positions, one block per head of the group, each loaded and stored as a box of its own (at least
8 rows: a 128B swizzle's 1024-byte period, so that every block starts where the swizzle does). The K and V the heads
share are then read once per tile, not once per head -- what decoding (a query or a few against long keys) is bound by.
"""

from __future__ import annotations

from dataclasses import dataclass

from mmatom.errors import api_error

BOX_COLUMNS = 64                 # 128 bytes of a 16-bit element: the 128B swizzle's row
DTYPES = ("bf16", "f16")
HEAD_DIMS = (64, 128, 256)
PRODUCER_REGISTERS = 24
# a packed tile's producer issues a Q box per head (d 256, 4 heads: 16 boxes): with 24 registers it spills
PACKED_PRODUCER_REGISTERS = 40
# one consumer's tiles (DECODE_CONFIGS) leave the register file room: at 40, d 256's packed producer spilled 8 bytes
LONE_CONSUMER_PRODUCER_REGISTERS = 56
# an entry of the kernel's walk table (walk.py; mmatom.ListedWalk): the tile's unit, its KV blocks [kv_lo, kv_hi)
# (kv_hi -1: all), and for a tile split over CTAs its group of parts' counter (-1: a whole tile), first workspace
# slot, how many parts and which this is; with several groups, the tile's counter (-1: one group), the groups' first
# slot, how many groups and which this part's is
WALK_ENTRY = ("unit", "kv_lo", "kv_hi", "counter", "first_slot", "parts", "part", "tile_counter", "group_slots",
              "groups", "group")
# adding up one part of a split tile (split_kv.py), in KV blocks' worth of the head dim's tile: fitted on decoding
# shapes of one tile cut in 16-128 parts, added up in one level (H100, records/attention-2026-11-27-h100-s24/
# parts_ab.txt: d 256's 32 chunks a thread read 15 at a time, d 128's 16 in batches of 27, d 64's 8 of 36); with two
# levels (parts_ab2.txt) the walk's choice with these was within 4% of the fastest of 16-128 parts on the 5 shapes
# where it differs
COMBINE_BLOCKS = {64: 0.25, 128: 0.35, 256: 0.86}
# the most a consumer thread asks setmaxnreg for: the ISA's 255 a thread, in its steps of 8 (a lone consumer's share
# would be more)
CONSUMER_REGISTERS_MAX = 248
REGISTER_FILE = 65536            # 32-bit registers per SM: what setmaxnreg shares out among the warpgroups
SMEM_BYTES = 232448              # the most dynamic shared memory a CTA may opt in to on sm_90 (227 KiB)
PACKED_ROWS = (8, 16, 32, 64)    # a packed head's rows: whole swizzle periods, within one consumer warpgroup's 64


@dataclass(frozen=True)
class AttentionConfig:
    """One kernel's tiles: `block_n` keys per KV step (K and V tiles of block_n x D in N-stage rings); the CTA's
    query tile is 64 rows per consumer warpgroup, `consumers` of them (2 or 3) taking turns on the tensor cores (1:
    decoding's packed tiles, DECODE_CONFIGS);
    `ex2_on_fma` of every 8 of a thread's scores in an unmasked block take 2^x on the FMA pipes (kb.ex2_fma), the
    rest on MUFU (ex2): where MUFU bounds the softmax (d = 64), a share of it moves to idle units (FA4's trick)."""

    head_dim: int = 128
    block_n: int = 128
    stages: int = 2
    consumers: int = 2
    ex2_on_fma: int = 0

    @property
    def block_m(self) -> int:
        return 64 * self.consumers

    @property
    def consumer_registers(self) -> int:
        """What setmaxnreg gives each consumer thread: the register file less the producer's, in steps of 8 (240
        for two consumers, 160 for three)."""
        return self.registers()[1]

    def registers(self, pack: int = 1) -> tuple[int, int]:
        """(producer, consumer) registers a thread after setmaxnreg, with `pack` heads a tile: the CTA's launch
        share (at most 168 a thread for 384 threads: 64512 of the 65536) less the producer's, in steps of 8. A lone
        consumer leaves room to spare (256 threads at 255): its producer takes LONE_CONSUMER_PRODUCER_REGISTERS."""
        producer = PRODUCER_REGISTERS if pack == 1 else PACKED_PRODUCER_REGISTERS
        if self.consumers == 1:
            producer = LONE_CONSUMER_PRODUCER_REGISTERS
        threads = 128 * (1 + self.consumers)
        launched = min(255, REGISTER_FILE // threads // 8 * 8) * threads
        return producer, min(CONSUMER_REGISTERS_MAX, (launched - 128 * producer) // (128 * self.consumers) // 8 * 8)

    @property
    def name(self) -> str:
        return f"d{self.head_dim}_{self.block_m}x{self.block_n}x{self.stages}" + \
            (f"e{self.ex2_on_fma}" if self.ex2_on_fma else "")

    @property
    def q_stages(self) -> int:
        """Two Q buffers where SMEM has room for them (the next tile's Q lands while this tile runs, and this tile's
        epilogue stages O in its own Q buffer), else one (d = 256: Q waits for the epilogue)."""
        q_bytes, kv_bytes = self.block_m * self.head_dim * 2, 2 * self.stages * self.block_n * self.head_dim * 2
        return 2 if 2 * q_bytes + kv_bytes + 1024 <= SMEM_BYTES else 1

    def packs(self, group: int) -> bool:
        """Whether a tile of this config can hold `group` query heads' rows (block_m / group of each, PACKED_ROWS)."""
        return group > 1 and self.block_m % group == 0 and self.block_m // group in PACKED_ROWS

    def check(self, dtype: str, causal: bool = False, split_kv: bool = False, pack: int = 1) -> None:
        if pack != 1 and not self.packs(pack):
            raise api_error(f"attention: config {self.name} cannot pack {pack} query heads into a tile: a tile's "
                            f"{self.block_m} rows split into {pack} blocks of one of {PACKED_ROWS} rows")
        if split_kv and causal:
            raise api_error("attention: split KV is for kernels without a mask (causal tiles run whole, balanced "
                            "by length: walk.py)")
        if dtype not in DTYPES:
            raise api_error(f"attention: dtype {dtype!r} is not one of {', '.join(DTYPES)}")
        if self.head_dim not in HEAD_DIMS:
            raise api_error(f"attention: head dim {self.head_dim} is not one of {', '.join(map(str, HEAD_DIMS))}")
        if self.block_n % 16 or not 16 <= self.block_n <= 256 or self.stages < 1 or self.consumers not in (1, 2, 3) \
                or not 0 <= self.ex2_on_fma <= 8:
            raise api_error(f"attention: block_n {self.block_n} must be a multiple of 16 in [16, 256], stages "
                            f"{self.stages} positive, consumers {self.consumers} one of 1, 2, 3 and ex2_on_fma "
                            f"{self.ex2_on_fma} in [0, 8]")

    def partial_bytes(self, slots: int) -> int:
        """Workspace bytes of `slots` parts of split tiles (walk.py): each consumer thread's O values (head_dim / 2
        f32) and its two rows' maxima and sums, in 16-byte chunks."""
        return slots * (self.head_dim // 8 + 1) * 16 * 128 * self.consumers

    def boxes(self, pack: int = 1) -> dict[str, tuple[int, int]]:
        """(rows, columns) of each tensor map's TMA box: q the CTA's query tile (with `pack` heads, one head's block
        of it), k and v a KV step's keys, o one consumer warpgroup's 64 rows (packed: one head's block)."""
        rows = self.block_m // pack
        return {"q": (rows, BOX_COLUMNS), "k": (self.block_n, BOX_COLUMNS), "v": (self.block_n, BOX_COLUMNS),
                "o": (min(rows, 64), BOX_COLUMNS)}


# the shipped configs per (head dim, causal), measured on an H100 (records/ATTENTION.md, benchmarks/attention_configs.py),
# a call taking the one its key count wastes least on (default_config): d = 128 without a mask takes 144 keys a step
# on long sequences (0.998-1.003x cuDNN where 128 keys gave 0.973-0.991x; 160 spills with the GPU machine's ptxas, 176
# leaves one Q buffer: 0.955x) and 128 where 144 would leave the last block mostly empty (1024 keys: 0.976 vs 0.911x);
# with the mask 128 (the diagonal's blocks cost less); d = 256 takes 80 keys a step to keep two stages in SMEM (FA3's
# tile; one stage and two Q buffers: 0.64-0.69x); d = 64 without a mask is softmax-bound and runs faster with three
# consumers: 192 x 128 keys, 2 stages (0.984-0.992x cuDNN at 4096-16384 keys, 0.92-0.93x at 512-1024, where 192 x 112
# with 3 stages gave 0.954-0.984x and 0.84-0.86x: session 26; 144 keys and more spill); with the causal mask two
# consumers stay ahead (8x32x1024: 0.994x against 192 x 128's 0.815x)
SHIPPED_CONFIGS = {(64, False): (AttentionConfig(64, 128, 2, consumers=3),), (64, True): (AttentionConfig(64, 128, 2),),
                   (128, False): (AttentionConfig(128, 144, 2), AttentionConfig(128, 128, 2)),
                   (128, True): (AttentionConfig(128, 128, 2),),
                   (256, False): (AttentionConfig(256, 80, 2),), (256, True): (AttentionConfig(256, 80, 2),)}
DEFAULT_CONFIGS = {key: configs[0] for key, configs in SHIPPED_CONFIGS.items()}  # the long sequences' choice
# the config a walk that splits its keys runs where the shipped one's split-KV kernel (its partial O written out)
# does not fit its registers: d 64's 192 x 128 x 2 spills 140 bytes there (ptxas 13.0), 192 x 112 x 3 none
SPLIT_KV_CONFIGS = {AttentionConfig(64, 128, 2, consumers=3): AttentionConfig(64, 112, 3, consumers=3)}
# packed tiles (choose_tiles), per head dim: two consumers (a tile of 128 rows holds 2, 4, 8 or 16 heads' blocks),
# whose 232 registers -- the packed producer's 40 taken out -- hold the step without a spill (d 128 x 144 keys spills)
PACKED_CONFIGS = {64: AttentionConfig(64, 128, 2), 128: AttentionConfig(128, 128, 2), 256: AttentionConfig(256, 80, 2)}
# packed tiles of 64 rows where each head's queries fit its 64 / group of them (decoding): one consumer, half the MMA
# work the 128-row tile spends on rows without a query; no turns to take, 248 registers (its producer 56) hold the
# step. H100, against PACKED_CONFIGS' (records/attention-2026-11-27-h100-s24/one_consumer.txt): 1x8/1 k65536 d128
# 30.2 -> 24.1 us, 2x16/2 k32768 d256 78.3 -> 73.1, 1x32/8 k65536 d128 104.1 -> 101.9; a third stage gains nothing
DECODE_CONFIGS = {d: AttentionConfig(d, config.block_n, config.stages, consumers=1)
                  for d, config in PACKED_CONFIGS.items()}
# A KV block's fixed cost (its barriers, row maxima, O's rescale, the turn handoff) in keys' worth of work: a block of
# n keys costs ~n + 51 (fitted to the H100's d 128 ratios, 128 vs 144 keys at 1024 / 4096 / 16384 keys: 7% / 1% / 3%)
BLOCK_OVERHEAD_KEYS = 51


def default_config(head_dim: int, causal: bool = False, seqlen_k: int | None = None) -> AttentionConfig:
    """The shipped config for a head dim and mask; given the key count, the one whose blocks cost least:
    ceil(seqlen_k / block_n) x (block_n + BLOCK_OVERHEAD_KEYS), the first on a tie."""
    if (head_dim, bool(causal)) not in SHIPPED_CONFIGS:
        raise api_error(f"attention: head dim {head_dim} is not one of {', '.join(map(str, HEAD_DIMS))}")
    configs = SHIPPED_CONFIGS[head_dim, bool(causal)]
    if seqlen_k is None or len(configs) == 1:
        return configs[0]
    return min(configs, key=lambda c: -(-max(seqlen_k, 1) // c.block_n) * (c.block_n + BLOCK_OVERHEAD_KEYS))


def choose_tiles(head_dim: int, causal: bool, seqlen_q: int, seqlen_k: int, group: int) -> tuple[AttentionConfig, int]:
    """(config, pack) of a call: the group's query heads packed into PACKED_CONFIGS' tiles where they can hold
    them and that computes fewer padded query rows than a tile per head -- a query shorter than a tile (decoding),
    or a tail that leaves most of the last tile empty; into DECODE_CONFIGS' 64-row tiles where those hold each head's
    every query; else default_config's, unpacked."""
    plain = default_config(head_dim, causal, seqlen_k)
    packed, decode = PACKED_CONFIGS[head_dim], DECODE_CONFIGS[head_dim]
    if not packed.packs(group):
        return plain, 1
    rows_packed = -(-seqlen_q // (packed.block_m // group)) * packed.block_m        # per KV head
    rows_plain = -(-seqlen_q // plain.block_m) * plain.block_m * group
    if rows_packed >= rows_plain:
        return plain, 1
    return (decode, group) if decode.packs(group) and seqlen_q <= decode.block_m // group else (packed, group)


__all__ = ["AttentionConfig", "BLOCK_OVERHEAD_KEYS", "BOX_COLUMNS", "COMBINE_BLOCKS", "DECODE_CONFIGS",
           "DEFAULT_CONFIGS", "DTYPES", "HEAD_DIMS", "PACKED_CONFIGS", "PACKED_ROWS", "SHIPPED_CONFIGS",
           "SPLIT_KV_CONFIGS", "WALK_ENTRY",
           "choose_tiles", "default_config"]
