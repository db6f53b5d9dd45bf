"""What every `mmatom-bench` subcommand times and records with: the SM clock and power sampler (nvidia-smi), one
burst of calls between two CUDA events, the device's description for a record, and the command line's value
parsers. Shared by the GEMM bench (mmatom_bench.py) and the attention bench (mmatom_bench_attention.py)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time

from mmatom.targets import runtime


class Sampler:
    """nvidia-smi every 100 ms while a system runs: SM clock (MHz) and power (W); no samples where nvidia-smi is
    not installed."""

    def __enter__(self):
        self.clocks, self.power = [], []
        self.proc = None
        if shutil.which("nvidia-smi"):
            self.proc = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm,power.draw",
                                          "--format=csv,noheader,nounits", "-lms", "100"],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return self

    def __exit__(self, *exc):
        if self.proc is None:
            return
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=5)
        for line in out.splitlines():
            try:
                c, p = (float(x) for x in line.split(","))
            except ValueError:
                continue
            self.clocks.append(c)
            self.power.append(p)


def timed(fn, burst: int) -> float:
    """Mean milliseconds of one call over a burst between two CUDA events."""
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(burst):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / burst


def call_us(fn, reps: int = 20) -> float:
    """Median microseconds of `reps` single calls, each between two CUDA events: a call's host time and GPU time
    whole (a host-bound call reads its host time)."""
    import statistics

    import torch
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times)


def interleaved_us(fns: dict, rounds: int = 5, reps: int = 20) -> dict:
    """{name: median call_us over `rounds`}: each function called once first, then the functions taking turns."""
    import statistics
    for fn in fns.values():
        fn()
    times: dict = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            times[name].append(call_us(fn, reps))
    return {name: statistics.median(ts) for name, ts in times.items()}


def burst_us(fn, ms: float = 30.0, max_calls: int = 1 << 16) -> float:
    """Microseconds per call of `fn` (after one warm-up call) over a burst doubled until it lasts `ms`."""
    fn()
    calls = 4
    while True:
        per_call_ms = timed(fn, calls)
        if per_call_ms * calls >= ms or calls >= max_calls:
            return per_call_ms * 1e3
        calls *= 2


def kernel_us(fn, calls: int = 40, warmup: int = 5) -> dict[str, float]:
    """GPU microseconds per call of each kernel `fn` launches (torch.profiler's CUDA kernel records over `calls`
    calls after `warmup`), by kernel name: what a call costs the GPU, apart from its host time -- a call that
    copies its operands first shows the copy's kernel beside the GEMM's."""
    from collections import defaultdict

    import torch
    from torch.profiler import ProfilerActivity, profile
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    per: dict[str, float] = defaultdict(float)
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            per[event.name] += event.device_time / calls
    return dict(per)


def device_record() -> dict:
    import torch
    dev = runtime.device()
    return {"device": dev.name(), "chip": dev.chip, "driver": dev.driver_version, "torch": torch.__version__,
            "date": time.strftime("%Y-%m-%d %H:%M")}


def comma_list(legal, what: str):
    def parse(text: str) -> tuple[str, ...]:
        items = tuple(x for x in text.split(",") if x)
        bad = [x for x in items if x not in legal]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"{what} {','.join(bad) or repr(text)}; a comma list of "
                                             f"{', '.join(legal)}")
        return items
    return parse


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}; a positive integer")
    return int(text)


__all__ = ["Sampler", "burst_us", "comma_list", "device_record", "kernel_us", "positive", "timed"]
