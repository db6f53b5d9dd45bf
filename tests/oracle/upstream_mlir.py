"""Upstream MLIR as an oracle (run in a subprocess: some upstream failures abort the process).

  python upstream_mlir.py IN.mlir CPU FEATURES OUT.json

Parses our nvvm-level module with upstream MLIR's Python bindings (torch-mlir wheel), lowers it with
upstream passes, translates it to LLVM IR and compiles that with llvmlite's NVPTX backend. Writes
{"parsed": bool, "error": str, "ptx": str}. Kernels are top-level llvm.func ops, so nothing is
dropped by translate_module_to_llvmir (it ignores kernels nested in gpu.module).
"""

import json
import sys

PIPELINE = ("builtin.module(convert-scf-to-cf,convert-arith-to-llvm,convert-cf-to-llvm,convert-nvvm-to-llvm,"
            "reconcile-unrealized-casts)")


def main() -> None:
    src, cpu, features, out = sys.argv[1:5]
    result = {"parsed": False, "error": "", "ptx": ""}
    from torch_mlir import ir, passmanager
    from torch_mlir.dialects import llvm as llvm_dialect

    try:
        with ir.Context() as ctx:
            ctx.allow_unregistered_dialects = True  # the module's `mma.target = #mma.target<..>`
            module = ir.Module.parse(open(src).read())
            result["parsed"] = True
            passmanager.PassManager.parse(PIPELINE).run(module.operation)
            llvm_ir = llvm_dialect.translate_module_to_llvmir(module.operation)
        import llvmlite.binding as llvm

        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        machine = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu=cpu, features=features)
        result["ptx"] = machine.emit_assembly(llvm.parse_assembly(llvm_ir))
    except Exception as err:  # the message is the oracle's answer
        result["error"] = str(err)[:4000]
    with open(out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
