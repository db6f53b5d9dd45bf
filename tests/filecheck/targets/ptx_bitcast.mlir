// arith.bitcast between f32 and i32 (kb.bitcast; kb.ex2_fma adds round(x) to a float's exponent bits through it):
// one mov.b32 across the register classes, the bits unchanged; integer shifts and adds on the word in between.
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @bits(%p: !llvm.ptr<1>, %x: f32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %c23 = arith.constant 23 : i32
    %w = arith.bitcast %x : f32 to i32
    %s = arith.shli %w, %c23 : i32
    %t = arith.addi %w, %s : i32
    %y = arith.bitcast %t : i32 to f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry bits(
// CHECK:      ld.param.f32 [[X:%f[0-9]+]], [bits_param_1];
// CHECK:      mov.b32 [[W:%r[0-9]+]], [[X]];
// CHECK:      shl.b32 [[S:%r[0-9]+]], [[W]], {{%r[0-9]+}};
// CHECK-NEXT: add.s32 [[T:%r[0-9]+]], [[W]], [[S]];
// CHECK-NEXT: mov.b32 [[Y:%f[0-9]+]], [[T]];
// CHECK:      st.global.f32 [{{%rd[0-9]+}}], [[Y]];
