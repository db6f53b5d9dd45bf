"""One atom op, one atom: compiling a kernel builds each op's typed atom once (`Family.make`) and checks it against
the rows and the chip once (`Family.resolve_atom`); the lowering, the nvvm verifiers and the PTX target read the
atom the op carries (dialects/carried.py). Before the atom was carried, the wgmma example made 9 and resolved 4."""

from pathlib import Path

import pytest
from xdsl.dialects.builtin import StringAttr

import mmatom
from mmatom.atoms.catalogue import resolve
from mmatom.atoms.catalogue.model import Family
from mmatom.compiler import lower_for_ptx
from mmatom.conformance import register, sm120, tcgen05, wgmma
from mmatom.dialects import carried
from mmatom.dialects.atom_rules import op_atom
from mmatom.targets.ptx_emitter import emit_ptx

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def counted(monkeypatch):
    """Calls of Family.make and Family.resolve_atom from here on, nothing carried or resolved beforehand."""
    calls = {"make": 0, "resolve": 0}
    make, resolve_atom = Family.make, Family.resolve_atom

    def counting_make(self, values):
        calls["make"] += 1
        return make(self, values)

    def counting_resolve(self, atom, target=None, keys=None):
        calls["resolve"] += 1
        return resolve_atom(self, atom, target, keys)

    monkeypatch.setattr(Family, "make", counting_make)
    monkeypatch.setattr(Family, "resolve_atom", counting_resolve)
    carried.forget_all()
    resolve.cache_clear()
    return calls


@pytest.mark.parametrize("example, atom_ops", [("wgmma_m64n64k16_f16.mlir", 1), ("wgmma_tile_128x128x128_f16.mlir", 1),
                                               ("m16n8k16_kloop.mlir", 1)])
def test_compile_makes_and_resolves_each_atom_once(counted, example, atom_ops):
    kernel = mmatom.compile((ROOT / "examples" / example).read_text(), options={"cache": False})
    assert "wgmma.mma_async" in kernel.ptx or "mma.sync" in kernel.ptx
    assert counted == {"make": atom_ops, "resolve": atom_ops}


def test_an_op_read_again_is_not_rebuilt(counted):
    module = mmatom.compiler.parse((ROOT / "examples/wgmma_m64n64k16_f16.mlir").read_text())
    op = next(o for o in module.walk() if o.name == "mma.wgmma")
    assert counted == {"make": 1, "resolve": 1}
    assert op_atom(op) is op_atom(op.clone()) and counted["make"] == 1  # a clone has the same defining attributes
    op.attributes["mma.note"] = StringAttr("changed")  # another defining attribute: read afresh
    op_atom(op)
    assert counted["make"] == 2


BUILDERS = {"register": (register, "sm_80"), "wgmma": (wgmma, "sm_90a"), "sm120": (sm120, "sm_120a"),
            "tcgen05": (tcgen05, "sm_100a")}


@pytest.mark.parametrize("family", BUILDERS)
def test_the_carried_atom_is_what_the_nvvm_op_says(family):
    """The lowering hands the mma op's atom to the nvvm op; that op's own words (what upstream reads) spell the
    same atom, for a sample of every family's conformance cases."""
    builder, target = BUILDERS[family]
    cases = [c for c in builder.cases() if target in c.targets][::7][:60]
    assert cases
    module = lower_for_ptx(builder.build_module(cases, target))
    assert ".target " + target in emit_ptx(module)  # the PTX target reads the carried atoms too
    checked = 0
    for op in module.walk():
        atom_method = getattr(type(op), "atom", None)
        if atom_method is None or not hasattr(atom_method, "read"):
            continue
        assert atom_method.read(op) == op.atom(), f"{op.name}: carried {op.atom()}"
        checked += 1
    assert checked >= len(cases)
