// Our nvvm subset prints upstream MLIR's syntax and reads it back.
// RUN: mmatom-opt %s | filecheck %s --match-full-lines
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --match-full-lines
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s --match-full-lines

builtin.module {
  // CHECK-LABEL: llvm.func @k(%a: vector<2xf16>, %c: f32, %e: i32, %i: i32) attributes {nvvm.kernel} {
  llvm.func @k(%a: vector<2xf16>, %c: f32, %e: i32, %i: i32) attributes {nvvm.kernel} {
    // CHECK: %t = nvvm.read.ptx.sreg.laneid : i32
    %t = nvvm.read.ptx.sreg.laneid : i32
    // CHECK: %x = nvvm.read.ptx.sreg.tid.x : i32
    %x = nvvm.read.ptx.sreg.tid.x : i32
    // CHECK: %sel = arith.constant 0 : i32
    %sel = arith.constant 0 : i32
    // CHECK: %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    // CHECK: %1 = nvvm.mma.sync A[%i, %i] B[%i] C[%i, %i, %i, %i] {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<u8>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
    %1 = nvvm.mma.sync A[%i, %i] B[%i] C[%i, %i, %i, %i] {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<u8>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
    // CHECK: %2 = nvvm.mma.sp.sync A[%a, %a] B[%a, %a] C[%c, %c, %c, %c] sparseMetadata[%e] selector[%sel] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %2 = nvvm.mma.sp.sync A[%a, %a] B[%a, %a] C[%c, %c, %c, %c] sparseMetadata[%e] selector[%sel] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    // CHECK: %h2 = nvvm.convert.f32x2.to.f16x2 %c, %c {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
    %h2 = nvvm.convert.f32x2.to.f16x2 %c, %c {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
    // CHECK: %b2 = nvvm.convert.f32x2.to.bf16x2 %c, %c {relu = true, rnd = #nvvm.fp_rnd_mode<rz>, sat = #nvvm.sat_mode<satfinite>} : vector<2xbf16>
    %b2 = nvvm.convert.f32x2.to.bf16x2 %c, %c {relu = true, rnd = #nvvm.fp_rnd_mode<rz>, sat = #nvvm.sat_mode<satfinite>} : vector<2xbf16>
    // CHECK: nvvm.barrier
    nvvm.barrier
    llvm.return
  }
}
