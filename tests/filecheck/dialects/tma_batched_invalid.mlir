// Batched (3-d) tensor maps' diagnostics: the spelling after the swizzle, a batched map's box needs its layer, a
// 2-d map's refuses one, the layer is i32. One invalid case per diagnostic, with its exact text.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

builtin.module {
  // expected-error@+1 {{Expected 'batched' after the swizzle (a map of a 3-d tensor, L x rows x cols)}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128, layered>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128, batched>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: !mma.tensor_map<bf16, 64x64, sw128, batched> is batched (a 3-d tensor, L x rows x cols): the box needs its layer, `[%row, %col, layer %l]`}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128, batched>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%src: !llvm.ptr<3>, %row: i32, %col: i32, %l: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: a layer coordinate on !mma.tensor_map<bf16, 64x64, sw128>, a 2-d map; only a batched map (`!mma.tensor_map<..., batched>`, of a 3-d tensor) has layers}}
    mma.tma_store %src into %m[%row, %col, layer %l] : !mma.tensor_map<bf16, 64x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%src: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128, batched>
    %l = "test.op"() : () -> i64
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: the layer coordinate must be i32, not i64}}
    "mma.tma_store"(%src, %m, %row, %col, %l) : (!llvm.ptr<3>, !mma.tensor_map<bf16, 64x64, sw128, batched>, i32, i32, i64) -> ()
    llvm.return
  }
}
