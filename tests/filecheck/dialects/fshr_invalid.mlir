// llvm.intr.fshr is PTX's shf.r.wrap.b32: every operand and the result i32, else a located error.
// RUN: mmatom-opt %s --verify-diagnostics

builtin.module {
  llvm.func @wide(%lo: i64, %hi: i64, %n: i64) {
    // expected-error@+1 {{llvm.intr.fshr: operands and result are i32 (PTX shf.r.wrap.b32); got i64, i64, i64 -> i64}}
    %w = llvm.intr.fshr %hi, %lo, %n : (i64, i64, i64) -> i64
    llvm.return
  }
}
