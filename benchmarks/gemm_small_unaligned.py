"""An experiment toward issue 24's item 9 (rows that are not 16-byte multiples without a per-call copy): a small
GEMM on mma.sync (m16n8k16, a 64 x 64 CTA tile of four warps) that reads A and B element by element at any row
stride and alignment -- each fragment value loaded at its coordinates (TiledMma.fragment_coords), out-of-range ones
zeroed -- and writes D (f32) the same way; M, N, K and the leading dimensions are kernel arguments. It is built on
the public API alone. Timed against mmatom.gemm (which copies such operands into 128-byte rows, launches the TMA
kernel, and copies D out of a padded matrix where N is odd too) and cuBLAS, CUDA events over 30 calls in a row.

    python -P benchmarks/gemm_small_unaligned.py

H100 (session 16), two runs: the kernel takes ~1.3 us a K step, latency-bound (issuing the next step's loads before
this step's MMAs measured the same; the SASS was not read: the 16-bit values are packed into the fragment's 32-bit
registers as they arrive, which may wait on each load) -- 9x470x322 28.8-29.1 us, 85x1697x284 25.8-26.5 us,
1x4096x4095 274-302 us, 54x347x7697 571-606 us, errors at f32 rounding. mmatom.gemm's copying path took 29-31 us on
those small shapes when the host was quick (51-53 us when it was not: it is four torch ops and a launch), cuBLAS
11-27 us. So element-wise loads are no way to item 9: rows at any alignment need vector loads into SMEM (cp.async of
the aligned words, the edges apart) or a TMA view that is aligned (eight rows as one); the copy stays. Not wired
into mmatom.gemm.
"""

from __future__ import annotations

import statistics

import torch

import mmatom
from mmatom.tools.mmatom_bench_common import timed

SHAPES = [(9, 470, 322), (1, 722, 452), (6, 8657, 268), (392, 3249, 524), (85, 1697, 284), (31, 9627, 289),
          (1, 4096, 4095), (54, 347, 7697), (256, 256, 256)]


def small_gemm(dtype: str = "bf16") -> mmatom.Kernel:
    """D (f32, M x N, `ldd` apart) = A (M x K, `lda`) . B (N x K, `ldb`)^T, any strides; grid (ceil(M/64),
    ceil(N/64)), 128 threads."""
    atom = mmatom.atom("sm_90a", "mma.sync", m=16, n=8, k=16, a=dtype, b=dtype, d="f32")
    tiled = mmatom.TiledMma(atom, atom_layout_mnk=(2, 2, 1), permutation=(64, 64, 16))
    params = [("a", "ptr"), ("b", "ptr"), ("d", "ptr"), ("m", "i32"), ("n", "i32"), ("k", "i32"), ("lda", "i32"),
              ("ldb", "i32"), ("ldd", "i32")]
    kb = mmatom.KernelBuilder("small_gemm", params, "sm_90a", threads=tiled.threads)
    m, n, k = kb.param("m"), kb.param("n"), kb.param("k")
    row0, col0 = kb.ctaid("x") * 64, kb.ctaid("y") * 64
    a_at, b_at = tiled.fragment_coords(kb, "A"), tiled.fragment_coords(kb, "B")
    operands = (("a", a_at, m, kb.param("lda"), row0), ("b", b_at, n, kb.param("ldb"), col0))
    with (loop := kb.for_range(0, k, 16, [kb.fill(0.0, tiled.fragment_type("C"))])) as (k0, (c,)):
        a, b = (_zeroed(kb, tiled, _gather(kb, tiled, role.upper(), *rest, k, k0), role.upper(), *rest, k, k0)
                for role, *rest in operands)
        loop.yield_(kb.convert(tiled.mma_tile(kb, a, b, c), tiled.fragment_type("C")))
    _store(kb, tiled, loop.results[0], m, n, row0, col0)
    module, _ = kb.finish()
    return mmatom.compile(module)


def _inside(coords, v, rows, first_row, k, k0):
    r, c = coords[v]
    row, col = first_row + r, k0 + c
    return row, col, (row < rows) & (col < k)


def _gather(kb, tiled, role: str, coords, rows, ld, first_row, k, k0):
    """`role`'s fragment for the K step at k0, each value loaded at its (row, k) where both are in range (the address
    clamped to the first element otherwise: those values are zeroed when the fragment is used, _zeroed)."""
    ftype = tiled.fragment_type(role)
    frag = kb.convert(kb.fill(0.0, type(ftype)(role, "f32", ftype.layout.data)), ftype.elem.data)
    for v in range(len(coords)):
        row, col, inside = _inside(coords, v, rows, first_row, k, k0)
        x = kb.load_scalar(kb.param(role.lower()), str(ftype.elem.data), mmatom.select(inside, row * ld + col, 0))
        frag = kb.insert(x, frag, v)
    return frag


def _zeroed(kb, tiled, frag, role: str, coords, rows, ld, first_row, k, k0):
    """The gathered fragment with its out-of-range values zeroed (through f32: 16-bit scalars have no select)."""
    wide = kb.map(kb.convert(frag, "f32"), lambda x, v: mmatom.select(_inside(coords, v, rows, first_row, k, k0)[2],
                                                                       x, 0.0))
    return kb.convert(wide, tiled.fragment_type(role).elem.data)


def _store(kb, tiled, acc, m, n, row0, col0) -> None:
    at = tiled.fragment_coords(kb, "C")
    for v in range(len(at)):
        r, c = at[v]
        row, col = row0 + r, col0 + c
        with kb.if_((row < m) & (col < n)):
            kb.store_scalar(kb.extract(acc, v), kb.param("d"), row * kb.param("ldd") + col)


def event_us(fn, calls: int = 30) -> float:
    """Microseconds a call over `calls` in a row between two CUDA events, after three warm-up calls."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    return timed(fn, calls) * 1e3


def main() -> None:
    kernel = small_gemm()
    print(f"{torch.cuda.get_device_name()}: small_gemm {kernel.metadata.registers} registers, "
          f"{kernel.metadata.spill_bytes} B spilled")
    stream = torch.cuda.current_stream().cuda_stream
    for m, n, k in SHAPES:
        a, b = (torch.randn(rows, k, device="cuda").to(torch.bfloat16) for rows in (m, n))
        d = torch.full((m, n), float("nan"), device="cuda")
        d16 = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        run = kernel.prepare(a, b, d, m, n, k, k, k, n, grid=(-(-m // 64), -(-n // 64)))
        run(stream)
        torch.cuda.synchronize()
        ref = a.double() @ b.double().T
        err = ((d.double() - ref).abs().max() / ref.abs().max()).item()
        times = [statistics.median(event_us(fn) for _ in range(3)) for fn in (
            lambda: run(stream), lambda: mmatom.gemm(a, b, out=d16), lambda: torch.matmul(a, b.T, out=d16))]
        print(f"{m}x{n}x{k}: rel err {err:.1e}, small_gemm {times[0]:.1f} us, mmatom.gemm {times[1]:.1f}, cuBLAS "
              f"{times[2]:.1f}", flush=True)


if __name__ == "__main__":
    main()
