// A TMA reduce-store lowers to upstream's nvvm.cp.async.bulk.tensor.reduce (coordinates innermost first, the
// reduction as its redKind), then to PTX's cp.reduce.async.bulk.tensor in tile mode and the bulk group; a plain
// store next to it stays the bulk tensor copy.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @reduce(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %row: i32, %col: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>, mma.shared_bytes = 8192 : i32} {
    %src = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %md = mma.as_tensor_map %d : !mma.tensor_map<f32, 64x32, sw128>
    mma.tma_store %src into %md[%row, %col] reduce add : !mma.tensor_map<f32, 64x32, sw128>
    mma.tma_store %src into %md[%row, %col] : !mma.tensor_map<f32, 64x32, sw128>
    nvvm.cp.async.bulk.commit.group
    nvvm.cp.async.bulk.wait_group 0
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @reduce(
// CHECK:      nvvm.cp.async.bulk.tensor.reduce %d, %{{.*}}, box[%col, %row] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %d, %{{.*}}, box[%col, %row] : !llvm.ptr, !llvm.ptr<3>

// PTX-LABEL: .entry reduce(
// PTX-DAG:   ld.param.u32 [[ROW:%r[0-9]+]], [reduce_param_1];
// PTX-DAG:   ld.param.u32 [[COL:%r[0-9]+]], [reduce_param_2];
// PTX:       cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [[[MAP:%rd[0-9]+]], {[[COL]], [[ROW]]}], [[[SRC:%rd[0-9]+]]];
// PTX-NEXT:  cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [[[MAP]], {[[COL]], [[ROW]]}], [[[SRC]]];
// PTX-NEXT:  cp.async.bulk.commit_group;
