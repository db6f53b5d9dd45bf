// Batched (3-d) tensor maps print as they are read, in the custom and the generic form: `, batched` after the
// swizzle, and the loads' and stores' `layer %l` coordinate (a reduce-store's too); a 2-d map keeps its spelling.
// RUN: mmatom-opt %s | filecheck %s --match-full-lines
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --match-full-lines
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s --match-full-lines
// RUN: mmatom-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // CHECK-LABEL: llvm.func @layers(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32, %l: i32, %mask: i16) attributes {nvvm.kernel} {
  llvm.func @layers(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32, %l: i32, %mask: i16) attributes {nvvm.kernel} {
    // CHECK: %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128, batched>
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // CHECK: mma.tma_load %ma[%row, %col, layer %l] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // GENERIC: "mma.tma_load"(%ma, %row, %col, %l, %dst, %bar) <{tile = !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0>}> : (!mma.tensor_map<bf16, 128x64, sw128, batched>, i32, i32, i32, !llvm.ptr<3>, !llvm.ptr<3>) -> ()
    mma.tma_load %ma[%row, %col, layer %l] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // CHECK: mma.tma_load %ma[%row, %col, layer %l] into %dst barrier %bar multicast %mask as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128, batched>
    mma.tma_load %ma[%row, %col, layer %l] into %dst barrier %bar multicast %mask as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // CHECK: mma.tma_store %dst into %ma[%row, %col, layer %l] : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // GENERIC: "mma.tma_store"(%dst, %ma, %row, %col, %l) : (!llvm.ptr<3>, !mma.tensor_map<bf16, 128x64, sw128, batched>, i32, i32, i32) -> ()
    mma.tma_store %dst into %ma[%row, %col, layer %l] : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // CHECK: mma.tma_store %dst into %ma[%row, %col, layer %l] reduce add : !mma.tensor_map<bf16, 128x64, sw128, batched>
    mma.tma_store %dst into %ma[%row, %col, layer %l] reduce add : !mma.tensor_map<bf16, 128x64, sw128, batched>
    // CHECK: %m2 = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    %m2 = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    // CHECK: mma.tma_store %dst into %m2[%row, %col] : !mma.tensor_map<bf16, 128x64, sw128>
    // GENERIC: "mma.tma_store"(%dst, %m2, %row, %col) : (!llvm.ptr<3>, !mma.tensor_map<bf16, 128x64, sw128>, i32, i32) -> ()
    mma.tma_store %dst into %m2[%row, %col] : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}
