// A TMA reduce-store's diagnostics: a reduction PTX does not have, and an element type its reduction does not
// take (PTX ISA, cp.reduce.async.bulk.tensor's table). One invalid case per diagnostic, with its exact text.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%src: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<f32, 64x32, sw128>
    // expected-error@+1 {{TMA reduction 'mul' is not one of add, min, max, inc, dec, and, or, xor}}
    mma.tma_store %src into %m[%row, %col] reduce mul : !mma.tensor_map<f32, 64x32, sw128>
    llvm.return
  }
}

// -----

// 8-bit elements have no TMA reduction
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%src: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<s8, 64x128, sw128>
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: reduce add into !mma.tensor_map<s8, 64x128, sw128>: cp.reduce.async.bulk.tensor .add does not reduce s8 elements; it takes s32, f32, f16, bf16 (and PTX's u32, u64)}}
    mma.tma_store %src into %m[%row, %col] reduce add : !mma.tensor_map<s8, 64x128, sw128>
    llvm.return
  }
}

// -----

// .inc takes .u32 alone, which no tensor map here holds
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%src: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<s32, 64x32, sw128>
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: reduce inc into !mma.tensor_map<s32, 64x32, sw128>: cp.reduce.async.bulk.tensor .inc does not reduce s32 elements; it takes no element type a tensor map here holds (and PTX's u32)}}
    mma.tma_store %src into %m[%row, %col] reduce inc : !mma.tensor_map<s32, 64x32, sw128>
    llvm.return
  }
}

// -----

builtin.module {
  llvm.func @k(%map: !llvm.ptr, %src: !llvm.ptr<3>, %c: i32) {
    // expected-error@+1 {{'mul' is not one of add, min, max, inc, dec, and, or, xor}}
    nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%c, %c] {redKind = #nvvm.tma_redux_kind<mul>} : !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}

// -----

builtin.module {
  llvm.func @k(%map: !llvm.ptr, %src: !llvm.ptr<1>, %c: i32) {
    // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.reduce' op nvvm.cp.async.bulk.tensor.reduce: the source must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
    nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%c, %c] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<1>
    llvm.return
  }
}
