"""The PTX target emits functions of several blocks, and structured control flow through mma-scf-to-branches.

The PTX of each kernel below runs on a small interpreter of the instructions it uses (registers, setp, bra,
st.global), on several inputs, against the same computation in Python: loops with carried values that swap
(a parallel copy through temporaries), nested scf.if with results, scf.while with an scf.if inside, and
hand-written cf / llvm branches (a conditional branch with arguments on both edges, a step that cannot be
added in place). ptxas accepts each."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import scf

from mmatom.compiler import parse
from mmatom.lowering.scf_to_branches import ScfToBranches
from mmatom.targets import ptxas
from mmatom.targets.ptx_control import dominator_children
from mmatom.targets.ptx_emitter import emit_ptx
from mmatom.targets.ptx_function import PTXEmissionError

HEAD = "builtin.module attributes {mma.target = #mma.target<sm_80>} {\n"

FOR_SWAP = HEAD + """
  llvm.func @k(%out: !llvm.ptr<1>, %out2: !llvm.ptr<1>, %n: i32, %x: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %c3, %s = %c0) -> (i32, i32, i32) : i32 {
      %t = arith.muli %a, %i : i32
      %s2 = arith.addi %s, %t : i32
      scf.yield %b, %a, %s2 : i32, i32, i32
    }
    llvm.store %r#2, %out : i32, !llvm.ptr<1>
    llvm.store %r#0, %out2 : i32, !llvm.ptr<1>
    llvm.return
  }
}
"""


def for_swap(n, x):
    a, b, s = x, 3, 0
    for i in range(n):
        a, b, s = b, a, s + a * i
    return s, a


NESTED_IF = HEAD + """
  llvm.func @k(%out: !llvm.ptr<1>, %out2: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel} {
    %c = arith.cmpi slt, %x, %y : i32
    %d = arith.cmpi eq, %x, %y : i32
    %c7 = arith.constant 7 : i32
    %r = scf.if %c -> (i32) {
      %s = arith.addi %x, %y : i32
      scf.if %d {
        llvm.store %c7, %out2 : i32, !llvm.ptr<1>
      }
      scf.yield %s : i32
    } else {
      %t = scf.if %d -> (i32) {
        %m = arith.muli %x, %c7 : i32
        scf.yield %m : i32
      } else {
        %u = arith.subi %x, %y : i32
        scf.yield %u : i32
      }
      scf.yield %t : i32
    }
    llvm.store %r, %out : i32, !llvm.ptr<1>
    llvm.return
  }
}
"""


def nested_if(x, y):
    return (x + y if x < y else x * 7 if x == y else x - y), None


WHILE = HEAD + """
  llvm.func @k(%out: !llvm.ptr<1>, %out2: !llvm.ptr<1>, %x: i32, %unused: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %r:2 = scf.while (%v = %x, %steps = %c0) : (i32, i32) -> (i32, i32) {
      %go = arith.cmpi ne, %v, %c1 : i32
      scf.condition(%go) %v, %steps : i32, i32
    } do {
    ^bb0(%w: i32, %k: i32):
      %odd = arith.remsi %w, %c2 : i32
      %is_odd = arith.cmpi ne, %odd, %c0 : i32
      %next = scf.if %is_odd -> (i32) {
        %m = arith.muli %w, %c3 : i32
        %p = arith.addi %m, %c1 : i32
        scf.yield %p : i32
      } else {
        %h = arith.divsi %w, %c2 : i32
        scf.yield %h : i32
      }
      %k2 = arith.addi %k, %c1 : i32
      scf.yield %next, %k2 : i32, i32
    }
    llvm.store %r#1, %out : i32, !llvm.ptr<1>
    llvm.store %r#0, %out2 : i32, !llvm.ptr<1>
    llvm.return
  }
}
"""


def collatz(x, _):
    steps = 0
    while x != 1:
        x = 3 * x + 1 if x % 2 else x // 2
        steps += 1
    return steps, x


CF_ROTATE = HEAD + """
  llvm.func @k(%out: !llvm.ptr<1>, %out2: !llvm.ptr<1>, %n: i32, %x: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^head(%x, %c1, %c0 : i32, i32, i32)
  ^head(%a: i32, %b: i32, %k: i32):
    %go = arith.cmpi slt, %k, %n : i32
    cf.cond_br %go, ^body, ^exit
  ^exit:
    llvm.store %a, %out : i32, !llvm.ptr<1>
    llvm.store %k, %out2 : i32, !llvm.ptr<1>
    llvm.return
  ^body:
    %k2 = arith.addi %k, %b : i32
    cf.br ^head(%b, %a, %k2 : i32, i32, i32)
  }
}
"""


def cf_rotate(n, x):
    a, b, k = x, 1, 0
    while k < n:
        a, b, k = b, a, k + b
    return a, k


LLVM_EDGES = HEAD + """
  llvm.func @k(%out: !llvm.ptr<1>, %out2: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel} {
    %c = arith.cmpi slt, %x, %y : i32
    llvm.cond_br %c, ^join(%x, %y : i32, i32), ^join(%y, %x : i32, i32)
  ^join(%lo: i32, %hi: i32):
    %d = arith.subi %hi, %lo : i32
    llvm.store %d, %out : i32, !llvm.ptr<1>
    llvm.store %lo, %out2 : i32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
"""


def llvm_edges(x, y):
    lo, hi = (x, y) if x < y else (y, x)
    return hi - lo, lo


CASES = {
    "for_swap": (FOR_SWAP, for_swap, [(0, 5), (1, 5), (4, 2), (7, -3)]),
    "nested_if": (NESTED_IF, nested_if, [(1, 2), (2, 2), (5, 2), (-4, -4)]),
    "while": (WHILE, collatz, [(1, 0), (6, 0), (27, 0)]),
    "cf_rotate": (CF_ROTATE, cf_rotate, [(0, 9), (5, 9), (6, 2)]),
    "llvm_edges": (LLVM_EDGES, llvm_edges, [(1, 9), (9, 1), (3, 3)]),
}


# -- a small interpreter of the PTX these kernels use ------------------------------------------------------

OUT, OUT2 = 0x1000, 0x2000
_CMP = {"lt": int.__lt__, "le": int.__le__, "gt": int.__gt__, "ge": int.__ge__, "eq": int.__eq__, "ne": int.__ne__}


def _s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def run_ptx(ptx: str, args: tuple[int, int]) -> tuple[int | None, int | None]:
    body = ptx[ptx.index("{\n") + 2:ptx.rindex("}")]
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith(".reg")]
    labels = {ln[:-1]: i for i, ln in enumerate(lines) if ln.endswith(":")}
    params = [OUT, OUT2, *args]
    regs: dict[str, int | bool] = {}
    memory: dict[int, int] = {}

    def val(tok: str) -> int:
        return regs[tok] if tok.startswith("%") else int(tok)

    pc, steps = 0, 0
    while True:
        steps += 1
        assert steps < 100_000, "the kernel does not terminate"
        ln = lines[pc]
        pc += 1
        if ln.endswith(":"):
            continue
        guard = re.match(r"@(!?)(%p\d+) ", ln)
        if guard:
            ln = ln[guard.end():]
            if bool(regs[guard.group(2)]) == (guard.group(1) == "!"):
                continue
        op, _, rest = ln.rstrip(";").partition(" ")
        ops = [o.strip() for o in rest.split(",")]
        if op == "ret":
            return memory.get(OUT), memory.get(OUT2)
        if op in ("bra", "bra.uni"):
            pc = labels[ops[0]]
        elif op.startswith("ld.param"):
            regs[ops[0]] = params[int(re.search(r"_param_(\d+)\]", ops[1]).group(1))]
        elif op.startswith(("cvta", "mov")):
            regs[ops[0]] = val(ops[1])
        elif op.startswith("setp."):
            regs[ops[0]] = _CMP[op.split(".")[1]](val(ops[1]), val(ops[2]))
        elif op.startswith("st.global"):
            memory[regs[ops[0].strip("[]")]] = val(ops[1])
        else:
            a, b = val(ops[1]), val(ops[2])
            name = op.split(".")[0]
            if name == "add":
                r = a + b
            elif name == "sub":
                r = a - b
            elif name == "mul":
                r = a * b
            elif name == "div":
                r = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            elif name == "rem":
                r = a - b * (abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1))
            else:
                raise AssertionError(f"the interpreter does not know {ln!r}")
            regs[ops[0]] = _s32(r)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_branches_compute_what_the_program_says(name):
    text, reference, inputs = CASES[name]
    ptx = ptx_of((text))
    for args in inputs:
        got = run_ptx(ptx, args)
        want = reference(*args)
        assert got == want, f"{name}{args}: PTX gives {got}, Python {want}\n{ptx}"


@pytest.mark.ptxas
@pytest.mark.parametrize("name", sorted(CASES))
def test_ptxas_accepts_the_branches(name):
    result = ptxas.assemble(ptx_of((CASES[name][0])), "sm_80")
    assert result.ok, result.log[:2000]


def ptx_of(text: str) -> str:
    """-p mma-scf-to-branches -t ptx: the PTX target prints branches and runs no pass itself."""
    module = parse(text)
    ScfToBranches().apply(None, module)
    return emit_ptx(module)


@pytest.mark.parametrize("name", ["for_swap", "nested_if", "while"])
def test_the_target_refuses_scf_and_names_the_pass_that_lowers_it(name):
    module = parse(CASES[name][0])
    with pytest.raises(PTXEmissionError, match="run mma-scf-to-branches first"):
        emit_ptx(module)
    ScfToBranches().apply(None, module)
    assert not any(isinstance(op, (scf.ForOp, scf.IfOp, scf.WhileOp)) for op in module.walk())
    assert emit_ptx(module) == ptx_of(CASES[name][0])


def test_labels_are_named_after_the_blocks():
    ptx = ptx_of((CASES["while"][0]))
    assert re.findall(r"^(\$L_[a-z]+)_\d+:", ptx, re.M) == ["$L_while", "$L_else", "$L_endif", "$L_endwhile"]
    ptx = ptx_of((CF_ROTATE))
    assert re.findall(r"^(\$L_[a-z]+)_\d+:", ptx, re.M) == ["$L_head", "$L_body"]


def test_a_step_is_added_in_place_only_where_the_copies_leave_it_alone():
    # ^head(%a, %b, %k): %k2 = %k + %b, passed as (%b, %a, %k2): %b is overwritten by the copies, so %k2 gets
    # its own register; a for loop's step adds into the induction variable's register
    rotate = ptx_of((CF_ROTATE))
    assert not re.search(r"add\.s32 (%r\d+), \1,", rotate)
    loop = ptx_of((FOR_SWAP))
    assert len(re.findall(r"add\.s32 (%r\d+), \1,", loop)) == 1


def test_dominator_children_in_layout_order():
    module = parse(CF_ROTATE)
    func = next(op for op in module.walk() if op.name == "llvm.func")
    entry, head, exit_, body = func.body.blocks
    children = dominator_children(list(func.body.blocks))
    assert children == {entry: [head], head: [exit_, body]}
