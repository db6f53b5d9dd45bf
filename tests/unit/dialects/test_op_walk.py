"""nested_ops: xDSL's walk() order, collected as a list (dialects/op_walk.py)."""

from mmatom.dialects.op_walk import nested_ops
from mmatom.kernels.gemm import CONFIGS, build_gemm


def test_nested_ops_is_the_walk_from_any_root():
    module = build_gemm("bf16", "sm_90a", CONFIGS[0], "bf16")[0]
    func = module.body.block.last_op
    for root in (module, module.body, module.body.block, func, func.body):
        assert nested_ops(root) == list(root.walk())
        assert nested_ops(root)[::-1] == list(root.walk(reverse=True, region_first=True))
