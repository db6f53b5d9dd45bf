"""emit_layout computes, on runtime values, exactly what the layout computes in Python: checked by running the
emitted arith ops in xDSL's interpreter on every coordinate of each layout."""

import pytest
from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, i32, i64
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

from mmatom.layout import parse_any_layout
from mmatom.lowering.layout_arith import emit_layout

@register_impls
class UnsignedArith(InterpreterFunctions):
    """The unsigned ops emit_layout uses, which xDSL's arith interpreter lacks (coordinates are non-negative)."""

    @impl(arith.ShRUIOp)
    def run_shrui(self, interpreter, op, args):
        return (args[0] >> args[1],)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter, op, args):
        return (args[0] // args[1],)

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter, op, args):
        return (args[0] % args[1],)


LAYOUTS = ["(16,16):(16,1)", "((4,8),(2,2,2)):((32,1),(16,8,128))", "(3,5):(7,1)", "(8,(2,3)):(0,(1,16))",
           "Sw<3,4,3> o 0 o ((8,8),(8,2)):((64,512),(1,8))", "Sw<2,4,-2> o 0 o (16,16):(16,1)"]


def run(layout_text: str, int_type, per_mode: bool):
    layout = parse_any_layout(layout_text)
    modes = len(layout.shape) if per_mode else 1
    block = Block(arg_types=[int_type] * modes)
    builder = Builder(InsertPoint.at_end(block))
    coords = tuple(block.args) if per_mode else block.args[0]
    result = emit_layout(builder, layout, coords)
    builder.insert(func.ReturnOp(result))
    fn = func.FuncOp("f", ([int_type] * modes, [int_type]), Region(block))
    module = ModuleOp([fn])
    module.verify()
    interpreter = Interpreter(module)
    interpreter.register_implementations(ArithFunctions())
    interpreter.register_implementations(FuncFunctions())
    interpreter.register_implementations(UnsignedArith())
    return layout, lambda *args: interpreter.call_op("f", args)[0], sum(not isinstance(op, arith.ConstantOp) for op in block.ops)


@pytest.mark.parametrize("text", LAYOUTS)
@pytest.mark.parametrize("int_type", [i32, i64])
def test_one_runtime_index(text, int_type):
    layout, f, _ = run(text, int_type, per_mode=False)
    for i in range(layout.size()):
        assert f(i) == layout(i), f"{text} at {i}"


@pytest.mark.parametrize("text", LAYOUTS[:4])
def test_one_runtime_coordinate_per_mode(text):
    layout, f, _ = run(text, i32, per_mode=True)
    inner = layout.layout if hasattr(layout, "swizzle") else layout
    shape = inner.shape
    from itertools import product as cartesian
    from mmatom.layout import product
    for crd in cartesian(*(range(product(s)) for s in shape)):
        assert f(*crd) == layout(crd)


def test_constant_modes_cost_nothing():
    # a stride-0 mode and an extent-1 mode emit no arithmetic; power-of-two strides are shifts
    _, _, ops = run("(1,32):(5,0)", i32, per_mode=False)
    assert ops == 1  # only the return
