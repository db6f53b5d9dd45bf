// mma.stmatrix_tile row_bytes 64: a 16-bit tile whose N is an odd multiple of 32 (here 64x96) is staged in boxes of
// 32 columns, 64-byte rows swizzled as TMA's 64B mode -- two stmatrix x4 per box (16 columns each), the lane's row
// at row x 64 bytes and its 16-byte chunk XOR-ed with (row / 2) % 4 (a 128B box: row x 128, chunk ^ row % 8).
// Block 2 is columns 64..95: value pairs 32..47, registers 16..23.
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --check-prefix=ROUND
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  func.func @narrow_box(%acc: !mma.frag<D, bf16, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">, %dst: !llvm.ptr<3>) {
    mma.stmatrix_tile %acc[2 : i32] row_bytes 64 : i32 into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">
    func.return
  }
  func.func @wide_box(%acc: !mma.frag<D, bf16, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, %dst: !llvm.ptr<3>) {
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    func.return
  }
}

// ROUND: mma.stmatrix_tile %{{.*}}[2 : i32] row_bytes 64 : i32 into %{{.*}} : !mma.frag<D, bf16, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">
// ROUND: mma.stmatrix_tile %{{.*}}[0 : i32] into %{{.*}} : !mma.frag<D, bf16

// CHECK-LABEL: func.func @narrow_box
// CHECK:      %[[THREE:.*]] = arith.constant 3 : i32
// CHECK:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:      %[[HALF:.*]] = arith.shrui %[[ROW:.*]], %[[ONE]] : i32
// CHECK-NEXT: %[[PHASE:.*]] = arith.andi %[[HALF]], %[[THREE]] : i32
// CHECK:      %[[SIX:.*]] = arith.constant 6 : i32
// CHECK-NEXT: arith.shli %[[ROW]], %[[SIX]] : i32
// CHECK:      arith.xori %{{.*}}, %[[PHASE]] : i32
// CHECK:      nvvm.stmatrix %{{.*}}, %acc_16, %acc_17, %acc_18, %acc_19 {layout = #nvvm.mma_layout<row>}
// CHECK:      arith.xori %{{.*}}, %[[PHASE]] : i32
// CHECK:      nvvm.stmatrix %{{.*}}, %acc_20, %acc_21, %acc_22, %acc_23 {layout = #nvvm.mma_layout<row>}
// CHECK-NOT:  nvvm.stmatrix
// CHECK-LABEL: func.func @wide_box
// CHECK:      %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK:      arith.shli %{{.*}}, %[[SEVEN]] : i32
// CHECK-COUNT-4: nvvm.stmatrix
// CHECK-NOT:  nvvm.stmatrix
