// arith.mului_extended (upstream MLIR's unsigned double-width product, what arith-div-strength-reduce divides
// by a constant with) is PTX's mul.lo / mul.hi; a half nothing reads is not emitted.
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @stage(%p: !llvm.ptr<1>, %it: i32, %a: i64, %b: i64) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %c6 = arith.constant 6 : i32
    %s = arith.remui %it, %c6 : i32
    llvm.store %s, %p : i32, !llvm.ptr<1>
    %lo, %hi = arith.mului_extended %a, %b : i64
    %q = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    llvm.store %lo, %q : i64, !llvm.ptr<1>
    %r = llvm.getelementptr %p[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    llvm.store %hi, %r : i64, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry stage(
// CHECK:      ld.param.u32 [[IT:%r[0-9]+]], [stage_param_1];
// it % 6 = it - 6 (mulhi(it, 0xAAAAAAAB) >> 2)
// CHECK:      mov.b32 [[M:%r[0-9]+]], 2863311531;
// CHECK-NOT:  mul.lo.u32 {{%r[0-9]+}}, [[IT]], [[M]];
// CHECK:      mul.hi.u32 [[HI:%r[0-9]+]], [[IT]], [[M]];
// CHECK:      shr.u32 [[Q:%r[0-9]+]], [[HI]], {{%r[0-9]+}};
// CHECK:      mul.lo.s32 [[BACK:%r[0-9]+]], [[Q]], {{%r[0-9]+}};
// CHECK:      sub.s32 [[S:%r[0-9]+]], [[IT]], [[BACK]];
// CHECK-NOT:  rem.u32
// CHECK:      st.global.b32 [{{%rd[0-9]+}}], [[S]];
// CHECK:      mul.lo.u64 [[LO:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}};
// CHECK-NEXT: mul.hi.u64 [[HI64:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}};
// CHECK:      st.global.b64 [{{%rd[0-9]+}}], [[LO]];
// CHECK:      st.global.b64 [{{%rd[0-9]+}}], [[HI64]];
