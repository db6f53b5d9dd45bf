// A batched map's box names its layer: the loads, stores and reduce-stores lower to upstream's bulk tensor ops
// with three coordinates, innermost first (column, row, layer), then to PTX's .3d forms.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @layers(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %row: i32, %col: i32, %l: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>, mma.shared_bytes = 16392 : i32} {
    %tile = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %bar = llvm.getelementptr %tile[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bytes = arith.constant 16384 : i32
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128, batched>
    nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    mma.tma_load %ma[%row, %col, layer %l] into %tile barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128, batched>
    mma.tma_store %tile into %ma[%row, %col, layer %l] : !mma.tensor_map<bf16, 128x64, sw128, batched>
    mma.tma_store %tile into %ma[%row, %col, layer %l] reduce add : !mma.tensor_map<bf16, 128x64, sw128, batched>
    nvvm.cp.async.bulk.commit.group
    nvvm.cp.async.bulk.wait_group 0
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @layers(
// CHECK:      nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %a, %{{.*}}, box[%col, %row, %l] : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %a, %{{.*}}, box[%col, %row, %l] : !llvm.ptr, !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %a, %{{.*}}, box[%col, %row, %l] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>

// PTX-LABEL: .entry layers(
// PTX-DAG:   ld.param.u32 [[ROW:%r[0-9]+]], [layers_param_1];
// PTX-DAG:   ld.param.u32 [[COL:%r[0-9]+]], [layers_param_2];
// PTX-DAG:   ld.param.u32 [[L:%r[0-9]+]], [layers_param_3];
// PTX:       cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [[[TILE:%rd[0-9]+]]], [[[MAP:%rd[0-9]+]], {[[COL]], [[ROW]], [[L]]}], [{{%rd[0-9]+}}];
// PTX-NEXT:  cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [[[MAP]], {[[COL]], [[ROW]], [[L]]}], [[[TILE]]];
// PTX-NEXT:  cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [[[MAP]], {[[COL]], [[ROW]], [[L]]}], [[[TILE]]];
// PTX-NEXT:  cp.async.bulk.commit_group;
