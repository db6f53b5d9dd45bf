// A TMA box of a K x N tensor (K down the box, 64 N-columns across) lands as an MN-major SMEM tile: the verifier
// checks the box against the tile's layout read transposed, element by element (the GEMM's `a @ b` path).
// RUN: mmatom-opt %s | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // CHECK-LABEL: llvm.func @n_major_box
  llvm.func @n_major_box(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    // CHECK: mma.tma_load %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}} barrier %{{.*}} as !mma.smem_desc<B, bf16, mn, sw128, "Sw<3,4,3> o 0 o ((64,1),(8,8)):((1,4096),(64,512))">
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<B, bf16, mn, sw128, "Sw<3,4,3> o 0 o ((64,1),(8,8)):((1,4096),(64,512))"> : !mma.tensor_map<bf16, 64x64, sw128>
    llvm.return
  }
}
