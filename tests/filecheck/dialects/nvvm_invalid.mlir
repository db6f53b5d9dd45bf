// One case per nvvm-dialect diagnostic.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

llvm.func @mixed_group(%a: vector<2xf16>, %i: i32, %c: f32) {
  // expected-error@+1 {{nvvm.mma.sync: the A group mixes types}}
  %0 = "nvvm.mma.sync"(%a, %i, %a, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>, operandSegmentSizes = array<i32: 2, 1, 4>}> : (vector<2xf16>, i32, vector<2xf16>, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @mixed_result(%a: vector<2xf16>, %c: f32) {
  // expected-error@+1 {{nvvm.mma.sync: result struct elements must share one type}}
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, i32)>
  llvm.return
}

// -----

llvm.func @bad_layout(%a: vector<2xf16>, %c: f32) {
  // expected-error@+1 {{'diag' is not one of row, col}}
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<diag>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}
