"""A pool for the ptxas gates' compiles: worker processes, not threads. Building and lowering a kernel is Python (one
thread at a time under the GIL; threads overlapped only ptxas's runs), so each of the machine's cores takes its share
of the kernels. Workers fork from the test process (its imports done) where it has no other thread, else start from a
fork server (mmatom.conformance.worker_start_method); what a job returns comes back pickled."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from mmatom.conformance import worker_start_method


def compile_pool(workers: int | None = None) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers or max(1, min(4, os.cpu_count() or 1)),
                               mp_context=multiprocessing.get_context(worker_start_method()))
