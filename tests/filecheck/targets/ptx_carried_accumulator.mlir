// A loop-carried accumulator register goes into the wgmma's struct without a copy when nothing reads it again
// before the loop's next trip (then the wgmma accumulates in the loop's own registers and the back edge copies
// nothing, so a wgmma kept in flight across the back edge is not serialized by ptxas); a carried register that
// is read after the wgmma (here %c0, stored) is copied into a fresh slot first, so the wgmma cannot clobber it.
// RUN: mmatom-opt %s -p mma-scf-to-branches -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @carry(%p: !llvm.ptr<1>, %da: i64, %db: i64) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %z = arith.constant 0.000000e+00 : f32
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %r:4 = scf.for %i = %lo to %hi step %one iter_args(%c0 = %z, %c1 = %z, %c2 = %z, %c3 = %z) -> (f32, f32, f32, f32) : i32 {
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      %s0 = llvm.insertvalue %c0, %u[0] : !llvm.struct<(f32, f32, f32, f32)>
      %s1 = llvm.insertvalue %c1, %s0[1] : !llvm.struct<(f32, f32, f32, f32)>
      %s2 = llvm.insertvalue %c2, %s1[2] : !llvm.struct<(f32, f32, f32, f32)>
      %s3 = llvm.insertvalue %c3, %s2[3] : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %d = nvvm.wgmma.mma_async %da, %db, %s3, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      llvm.store %c0, %p : f32, !llvm.ptr<1>
      %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
      %d1 = llvm.extractvalue %d[1] : !llvm.struct<(f32, f32, f32, f32)>
      %d2 = llvm.extractvalue %d[2] : !llvm.struct<(f32, f32, f32, f32)>
      %d3 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32)>
      scf.yield %d0, %d1, %d2, %d3 : f32, f32, f32, f32
    }
    llvm.return
  }
}

// the carried registers, then the loop: only %c0's copy precedes the wgmma, which writes %c1..%c3 in place
// CHECK-LABEL: .entry carry(
// CHECK:      mov.b32 [[C0:%f[0-9]+]], [[Z:%f[0-9]+]];
// CHECK-NEXT: mov.b32 [[C1:%f[0-9]+]], [[Z]];
// CHECK-NEXT: mov.b32 [[C2:%f[0-9]+]], [[Z]];
// CHECK-NEXT: mov.b32 [[C3:%f[0-9]+]], [[Z]];
// CHECK:      mov.b32 [[S0:%f[0-9]+]], [[C0]];
// CHECK-NEXT: wgmma.fence.sync.aligned;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {[[S0]], [[C1]], [[C2]], [[C3]]},
// CHECK:      st.global.f32 [{{%rd[0-9]+}}], [[C0]];
// the back edge copies only the fresh slot into %c0
// CHECK-NEXT: mov.b32 [[C0]], [[S0]];
// CHECK-NOT:  mov.b32
// CHECK:      bra.uni
