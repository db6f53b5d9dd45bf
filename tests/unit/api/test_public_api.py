"""The public API a DSL uses: the surface is pinned (`__all__`), each name does what docs/api.md says, and every
error is a CompileError located at the DSL's own line."""

import inspect
import os

import pytest

import mmatom

HERE = os.path.abspath(__file__)
KERNEL = open(os.path.join(os.path.dirname(HERE), "..", "..", "..", "examples", "m16n8k16_f16_kernel.mlir")).read()


def test_the_surface_is_pinned():
    assert sorted(mmatom.__all__) == sorted([
        "Atom", "CompileError", "Kernel", "KernelBuilder", "KernelMetadata", "LaunchConfig", "Layout", "Swizzle",
        "TiledMma", "__version__", "assemble", "atom", "atoms", "compile", "complement", "composition",
        "emit_layout", "logical_divide", "logical_product", "zipped_divide",
        # the Hopper data path (issue 13)
        "TensorMapType", "device_info", "tensor_map", "compile_generated",
        # values, staged SMEM, rings and schedulers (issue 23)
        "Value", "ceil_div", "min_value", "max_value", "select", "SmemTile", "SmemTiles", "SmemRing",
        "TileScheduler", "ListedWalk", "NoDriverError",
        # a row at any alignment, a word at a time (issue 24's direct stores)
        "funnel_shift_right"])
    # the GEMM application is reachable from mmatom but not part of the compiler's surface
    assert {"gemm", "gemm_kernel", "gemm_autotune", "GemmConfig"}.isdisjoint(mmatom.__all__)
    for name in mmatom.__all__:
        obj = getattr(mmatom, name)
        if callable(obj):
            assert inspect.getdoc(obj), f"mmatom.{name} has no docstring"


def test_an_atom_from_the_shared_field_names():
    a = mmatom.atom("sm_80", "mma.sync", m=16, n=8, k=16, a="bf16", b="bf16", d="f32")
    assert a.ptx == "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    assert a.mnk == (16, 8, 16) and a.threads == 32 and "sm_80" in a.targets and "sm_75" not in a.targets
    assert str(a.tv_layout("A")) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    assert str(a.fragment_type("C")) == '!mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">'
    # the same names for wgmma, with its defaults (dense, K-major, no transpose, scales +1)
    w = mmatom.atom("sm_90a", "wgmma", m=64, n=128, k=16, a="bf16", b="bf16", d="f32")
    assert w.ptx == "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" and w.threads == 128
    assert w.fields["trans_a"] == 0 and w.fields["scale_a"] == 1 and w.residency("A") == "smem_desc"
    assert mmatom.atom("sm_100a", "tcgen05", m=128, n=256, k=16, a="bf16", b="bf16", d="f32").threads == 1
    assert mmatom.atom("sm_80", "mma.sp", m=16, n=8, k=32, a="bf16", b="bf16", d="f32").ptx.startswith(
        "mma.sp::ordered_metadata.sync.aligned.m16n8k32")


def test_atoms_lists_what_a_target_has():
    bf16 = mmatom.atoms("sm_90a", "wgmma", a="bf16", d="f32")
    assert bf16 and all(x.fields["a"] == "bf16" and x.fields["d"] == "f32" for x in bf16)
    assert {x.mnk[1] for x in bf16} == set(range(8, 257, 8))
    assert not mmatom.atoms("sm_75", "mma.sync", a="bf16")


def _line_of(fragment: str) -> int:
    return next(i for i, line in enumerate(open(HERE).read().splitlines(), 1) if fragment in line)


@pytest.mark.parametrize("fields, message", [
    (dict(target="sm_80", op="mma.sync", m=16, n=8, k=12, a="bf16", b="bf16", d="f32"),
     "shape=m16n8k12 is not legal; legal shape: m16n8k128, m16n8k16"),
    (dict(target="sm_75", op="mma.sync", m=16, n=8, k=16, a="bf16", b="bf16", d="f32"),
     "target sm_75 does not support mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32; it needs sm_80 or later"),
    (dict(target="sm_80", op="mma.sync", m=16, n=8, k=16, a="bf16", b="f16", d="f32"),
     "B type=f16 is not legal for m16n8k16 bf16; legal B type: bf16"),
    (dict(target="sm_80", op="mma.syn"), "op 'mma.syn' is not an atom family; expected one of mma.sync"),
    (dict(target="sm_800", op="mma.sync"), "unknown target 'sm_800'"),
    (dict(target="sm_80", op="mma.sync", m=16, n=8, k=16, a="bf16", b="bf16", d="f32", layuot="row"),
     "no field layuot"),
    (dict(target="sm_120a", op="mma.block_scale", m=16, n=8, k=64, a="e2m1", b="e2m1", d="f32"),
     "say which"),
])
def test_an_illegal_atom_is_located_at_the_dsl_call(fields, message):
    with pytest.raises(mmatom.CompileError) as info:
        mmatom.atom(**fields)  # the line the diagnostic must name
    (d,) = info.value.diagnostics
    assert message in d.message
    assert (d.file, d.line) == (HERE, _line_of("mmatom.atom(**fields)  # the line"))
    assert str(info.value).startswith(f"{HERE}:{d.line}:")


def test_tv_layout_of_an_operand_read_from_smem_says_so():
    w = mmatom.atom("sm_90a", "wgmma", m=64, n=64, k=16, a="bf16", b="bf16", d="f32")
    with pytest.raises(mmatom.CompileError, match="operand B is read from smem_desc, not registers"):
        w.tv_layout("B")


def test_layout_algebra_is_exported():
    tile = mmatom.Layout((8, 4), (4, 1))
    assert str(mmatom.logical_divide(tile, mmatom.Layout(2, 1))) == "(2,(4,4)):(4,(8,1))"
    assert str(mmatom.composition(tile, mmatom.Layout(4, 1))) == "4:4"


def test_compile_with_target_options_cache_cubin_and_metadata(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    untargeted = KERNEL.replace(" attributes {mma.target = #mma.target<sm_80>}", "")
    kernel = mmatom.compile(untargeted, target="sm_80")
    assert ".target sm_80" in kernel.ptx
    hits = mmatom.compiler.compile_cache.CACHE.hits
    again = mmatom.compile(untargeted, target="sm_80")
    assert mmatom.compiler.compile_cache.CACHE.hits == hits + 1 and again.ptx == kernel.ptx
    assert list(tmp_path.glob("compile/*.json")), "the cache wrote no entry to disk"
    assert kernel.cubin[:4] == b"\x7fELF"
    meta = kernel.metadata
    assert (meta.name, meta.threads, meta.shared_bytes, meta.spill_bytes) == ("atom", 32, 0, 0)
    assert 16 <= meta.registers <= 255
    assert mmatom.assemble(kernel.ptx, "sm_80")[:4] == b"\x7fELF"
    with pytest.raises(mmatom.CompileError, match=r"the module is for sm_80 \(mma.target\); compile was asked for"):
        mmatom.compile(KERNEL, target="sm_90a")
    with pytest.raises(mmatom.CompileError, match="unknown compile option speed; the options are cache"):
        mmatom.compile(KERNEL, options={"speed": 3})


def test_assemble_reports_the_ptxas_log():
    ptx = mmatom.compile(KERNEL).ptx.replace("mma.sync.aligned.m16n8k16", "mma.sync.aligned.m16n8k15")
    with pytest.raises(mmatom.CompileError, match="ptxas rejected the PTX for sm_80:\n.*k.ptx, line"):
        mmatom.assemble(ptx, "sm_80")


def test_a_dsl_named_location_is_kept():
    """A DSL may locate ops with NameLoc (a name around a file:line:col) or CallSiteLoc: the diagnostic takes the
    file:line:col inside, names the op, and a bare name becomes the file at 0:0."""
    from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, IntAttr, NameLoc, StringAttr, UnknownLoc

    from mmatom.dialects.source import LocatingParser, make_context

    bad = KERNEL.replace('layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C',
                         'layout("(16,4):(4,1)") : !llvm.ptr<1> -> !mma.frag<C')
    here = FileLineColLoc(StringAttr("tile.py"), IntAttr(42), IntAttr(7))
    for loc, where in [(NameLoc(StringAttr("acc_load"), here), ("tile.py", 42, 7)),
                       (CallSiteLoc(UnknownLoc(), here), ("tile.py", 42, 7)),
                       (NameLoc(StringAttr("acc_load"), UnknownLoc()), ("acc_load", 0, 0))]:
        module = LocatingParser(make_context(), bad, "k.mlir", 0).parse_module()
        load_c = [op for op in module.walk() if op.name == "mma.load_fragment"][2]
        load_c.location = loc
        with pytest.raises(mmatom.CompileError) as info:
            mmatom.compile(module)
        (d,) = info.value.diagnostics
        assert (d.file, d.line, d.col) == where and d.op == "mma.load_fragment"


def test_processes_compiling_the_same_kernel_share_one_cache_entry(tmp_path):
    """Four processes compile the same text into one cache directory at once: each gets the PTX, the directory
    holds one whole entry (atomic renames: the record and the PTX file beside it), and a fifth process reads it
    back as a hit."""
    import json
    import subprocess
    import sys

    code = ("import sys, mmatom; k = mmatom.compile(open(sys.argv[1]).read()); "
            "print(mmatom.compiler.compile_cache.CACHE.hits, len(k.ptx))")
    src = tmp_path / "k.mlir"
    src.write_text(KERNEL)
    env = {**__import__("os").environ, "MMATOM_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-P", "-c", code, str(src)], stdout=subprocess.PIPE, env=env, text=True)
             for _ in range(4)]
    outs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs) and len({o[1] for o in outs}) == 1
    entries = list((tmp_path / "cache" / "compile").glob("*.json"))
    assert len(entries) == 1 and entries[0].with_suffix(".ptx").read_text().startswith("//")
    assert json.loads(entries[0].read_text())["ptx_file"] == entries[0].with_suffix(".ptx").name
    assert not list((tmp_path / "cache" / "compile").glob("*.tmp"))
    again = subprocess.run([sys.executable, "-P", "-c", code, str(src)], capture_output=True, env=env, text=True)
    assert again.stdout.split()[0] == "1"  # a hit from disk in a fresh process


def test_a_module_changed_after_compiling_is_compiled_again(tmp_path, monkeypatch):
    """The in-memory hit for a built module is keyed by its structure: the same IR again is a hit (without
    printing), an op changed in place is not."""
    from xdsl.dialects.builtin import StringAttr

    from mmatom.dialects.source import LocatingParser, make_context

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    module = LocatingParser(make_context(), KERNEL, "k.mlir", 0).parse_module()
    first = mmatom.compile(module)
    hits = mmatom.compiler.compile_cache.CACHE.hits
    assert mmatom.compile(module.clone()).ptx == first.ptx
    store = [op for op in module.walk() if op.name == "mma.store_fragment"][0]
    store.properties["layout"] = StringAttr("(16,8):(1,16)")  # D stored column-major
    changed = mmatom.compile(module)
    assert changed.ptx != first.ptx and mmatom.compiler.compile_cache.CACHE.hits == hits


def test_a_cached_kernel_carries_its_ptx_digest(tmp_path, monkeypatch):
    """The compile record keeps the PTX's SHA-256: a kernel read from the cache hands it to its module, whose cubin
    lookup then does not hash the PTX again; a record without one (an older cache) still compiles to a kernel."""
    from mmatom.targets import runtime

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    kernel = mmatom.compile(KERNEL)
    record = kernel.record()
    assert record["ptx_sha256"] == runtime.ptx_digest(kernel.ptx)
    again = mmatom.Kernel.from_record(record)
    assert again.digest == record["ptx_sha256"] and again.ptx == kernel.ptx
    older = {k: v for k, v in record.items() if k != "ptx_sha256"}
    assert mmatom.Kernel.from_record(older).digest is None


def test_a_cache_record_reads_its_ptx_beside_it_or_inside_it(tmp_path, monkeypatch):
    """Records store their PTX in a file beside the JSON; a record written with the PTX inside (an older cache) is
    still read, and one whose PTX file is gone is a miss, not an error."""
    import json

    from mmatom import compile_cache

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    cache = compile_cache.CompileCache()
    cache.put("new", {"ptx": "// new", "target": "sm_90a"})
    assert json.loads((tmp_path / "compile" / "new.json").read_text()) == {"target": "sm_90a", "ptx_file": "new.ptx"}
    (tmp_path / "compile" / "old.json").write_text(json.dumps({"ptx": "// old", "target": "sm_90a"}))
    fresh = compile_cache.CompileCache()
    assert fresh.get("new")["ptx"] == "// new" and fresh.get("old")["ptx"] == "// old"
    (tmp_path / "compile" / "new.ptx").unlink()
    assert compile_cache.CompileCache().get("new") is None
