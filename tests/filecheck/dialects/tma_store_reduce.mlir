// A TMA reduce-store prints as it is read, in the custom and the generic form: mma.tma_store's `reduce KIND`
// (a #mma.tma_reduce property) and upstream's nvvm.cp.async.bulk.tensor.reduce with its redKind.
// RUN: mmatom-opt %s | filecheck %s --match-full-lines
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --match-full-lines
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s --match-full-lines
// RUN: mmatom-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // CHECK-LABEL: llvm.func @reduce(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %src: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
  llvm.func @reduce(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %src: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %md = mma.as_tensor_map %d : !mma.tensor_map<f32, 64x32, sw128>
    // CHECK: mma.tma_store %src into %md[%row, %col] reduce add : !mma.tensor_map<f32, 64x32, sw128>
    // GENERIC: "mma.tma_store"(%src, %md, %row, %col) <{reduce = #mma.tma_reduce<add>}> : (!llvm.ptr<3>, !mma.tensor_map<f32, 64x32, sw128>, i32, i32) -> ()
    mma.tma_store %src into %md[%row, %col] reduce add : !mma.tensor_map<f32, 64x32, sw128>
    // a plain store stays plain: no property
    // CHECK-NEXT: mma.tma_store %src into %md[%row, %col] : !mma.tensor_map<f32, 64x32, sw128>
    // GENERIC-NEXT: "mma.tma_store"(%src, %md, %row, %col) : (!llvm.ptr<3>, !mma.tensor_map<f32, 64x32, sw128>, i32, i32) -> ()
    mma.tma_store %src into %md[%row, %col] : !mma.tensor_map<f32, 64x32, sw128>
    %mi = mma.as_tensor_map %d : !mma.tensor_map<s32, 64x32, sw128>
    // CHECK: mma.tma_store %src into %mi[%row, %col] reduce max : !mma.tensor_map<s32, 64x32, sw128>
    mma.tma_store %src into %mi[%row, %col] reduce max : !mma.tensor_map<s32, 64x32, sw128>
    %mb = mma.as_tensor_map %d : !mma.tensor_map<b32, 64x32, sw128>
    // CHECK: mma.tma_store %src into %mb[%row, %col] reduce xor : !mma.tensor_map<b32, 64x32, sw128>
    mma.tma_store %src into %mb[%row, %col] reduce xor : !mma.tensor_map<b32, 64x32, sw128>
    // CHECK: nvvm.cp.async.bulk.tensor.reduce %d, %src, box[%col, %row] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.tensor.reduce %d, %src, box[%col, %row] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
    // CHECK: nvvm.cp.async.bulk.tensor.reduce %d, %src, box[%col, %row, %row] {redKind = #nvvm.tma_redux_kind<min>} : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.tensor.reduce %d, %src, box[%col, %row, %row] {redKind = #nvvm.tma_redux_kind<min>} : !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}
