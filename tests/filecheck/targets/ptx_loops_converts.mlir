// PTX for loop-carried values and conversions: a yield that swaps carried registers copies through
// temporaries (a parallel copy), and each float conversion is one cvt with its rounding.
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @swap(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = arith.constant 1 : i32
    %b = arith.constant 2 : i32
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 3 : i32
    %x, %y = scf.for %k = %k0 to %k1 step %a iter_args(%u = %a, %v = %b) -> (i32, i32) : i32 {
      scf.yield %v, %u : i32, i32
    }
    llvm.store %x, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry swap(
// CHECK:      $L_for_1:
// CHECK-NEXT: setp.ge.s32 %p1, %r5, %r4;
// CHECK-NEXT: @%p1 bra $L_end_2;
// CHECK-NEXT: mov.b32 %r8, %r7;
// CHECK-NEXT: mov.b32 %r9, %r6;
// CHECK-NEXT: mov.b32 %r6, %r8;
// CHECK-NEXT: mov.b32 %r7, %r9;
// CHECK-NEXT: add.s32 %r5, %r5, %r1;
// CHECK-NEXT: bra.uni $L_for_1;
// CHECK-NEXT: $L_end_2:

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @converts(%pc: !llvm.ptr<1>, %ph: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pi: !llvm.ptr<1>, %pf: !llvm.ptr<1>, %pg: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %h = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))">
    %bf = mma.convert %h : !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))">
    %i = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))">
    %f = mma.convert %i : !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %wide = mma.convert %f : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f64, "((4,8),(2,2)):((32,1),(16,8))">
    %back = mma.convert %wide : !mma.frag<C, f64, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %bf32 = mma.convert %bf : !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %bf32, %pg layout("(16,8):(8,1)") : !mma.frag<A, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %h, %ph layout("(16,8):(8,1)") : !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %bf, %pb layout("(16,8):(8,1)") : !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %i, %pi layout("(16,8):(8,1)") : !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %back, %pf layout("(16,8):(8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry converts(
// CHECK: cvt.rn.f16.f32 %rs1, %f1;
// CHECK-NEXT: cvt.rn.f16.f32 %rs2, %f2;
// CHECK-NEXT: cvt.rn.f16.f32 %rs3, %f3;
// CHECK-NEXT: cvt.rn.f16.f32 %rs4, %f4;
// CHECK: shl.b32 %r24, %r22, %r23;
// CHECK: shl.b32 %r28, %r27, %r23;
// CHECK: cvt.f32.f16 %f5, %rs5;
// CHECK-NEXT: cvt.rn.bf16.f32 %rs9, %f5;
// CHECK-NEXT: cvt.f32.f16 %f6, %rs6;
// CHECK-NEXT: cvt.rn.bf16.f32 %rs10, %f6;
// CHECK-NEXT: cvt.f32.f16 %f7, %rs7;
// CHECK-NEXT: cvt.rn.bf16.f32 %rs11, %f7;
// CHECK-NEXT: cvt.f32.f16 %f8, %rs8;
// CHECK-NEXT: cvt.rn.bf16.f32 %rs12, %f8;
// CHECK: shl.b32 %r35, %r34, %r30;
// CHECK: shl.b32 %r39, %r38, %r30;
// CHECK: cvt.rzi.s32.f32 %r41, %f1;
// CHECK-NEXT: cvt.rzi.s32.f32 %r42, %f2;
// CHECK-NEXT: cvt.rzi.s32.f32 %r43, %f3;
// CHECK-NEXT: cvt.rzi.s32.f32 %r44, %f4;
// CHECK-NEXT: cvt.rn.f32.s32 %f9, %r41;
// CHECK-NEXT: cvt.rn.f32.s32 %f10, %r42;
// CHECK-NEXT: cvt.rn.f32.s32 %f11, %r43;
// CHECK-NEXT: cvt.rn.f32.s32 %f12, %r44;
// CHECK-NEXT: cvt.f64.f32 %fd1, %f9;
// CHECK-NEXT: cvt.f64.f32 %fd2, %f10;
// CHECK-NEXT: cvt.f64.f32 %fd3, %f11;
// CHECK-NEXT: cvt.f64.f32 %fd4, %f12;
// CHECK-NEXT: cvt.rn.f32.f64 %f13, %fd1;
// CHECK-NEXT: cvt.rn.f32.f64 %f14, %fd2;
// CHECK-NEXT: cvt.rn.f32.f64 %f15, %fd3;
// CHECK-NEXT: cvt.rn.f32.f64 %f16, %fd4;
// CHECK: shl.b32 %r49, %r48, %r45;
// CHECK-NEXT: mov.b32 %f17, %r49;
// CHECK: shl.b32 %r51, %r50, %r45;
// CHECK-NEXT: mov.b32 %f18, %r51;
// CHECK: shl.b32 %r53, %r52, %r45;
// CHECK-NEXT: mov.b32 %f19, %r53;
// CHECK: shl.b32 %r55, %r54, %r45;
// CHECK-NEXT: mov.b32 %f20, %r55;
