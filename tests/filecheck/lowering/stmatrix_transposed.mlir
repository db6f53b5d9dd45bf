// mma.stmatrix_tile transposed: a warpgroup's 64 rows x N columns land as an N-row box (row i is column i of the
// tile), one stmatrix.trans x4 per 16 columns. Lane l addresses box row 8(l/16) + l%8 (+16 per x4), 16-byte
// chunk (2 warp + (l/8)%2) ^ (l%8). A 64x32 bf16 tile: registers 0-3 then 4-7, the second x4 16 rows (2048 bytes)
// further; repeat 1 of a 128x16 tile over one warpgroup: its registers 4-7.
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --check-prefix=ROUND
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  func.func @bf16_n32(%acc: !mma.frag<D, bf16, "((4,8,4),(2,2,4)):((128,1,16),(64,8,512))">, %dst: !llvm.ptr<3>) {
    mma.stmatrix_tile %acc[0 : i32] transposed into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,4)):((128,1,16),(64,8,512))">
    func.return
  }
  func.func @f16_repeat(%acc: !mma.frag<D, f16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">, %dst: !llvm.ptr<3>) {
    mma.stmatrix_tile %acc[0 : i32] repeat 1 : i32 transposed into %dst : !mma.frag<D, f16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">
    func.return
  }
}

// ROUND: mma.stmatrix_tile %{{.*}}[0 : i32] transposed into %{{.*}} : !mma.frag<D, bf16, "((4,8,4),(2,2,4)):((128,1,16),(64,8,512))">
// ROUND: mma.stmatrix_tile %{{.*}}[0 : i32] repeat 1 : i32 transposed into %{{.*}}

// CHECK-LABEL: func.func @bf16_n32
// CHECK:     %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK:     %[[J:.*]] = arith.andi %[[LANE]], %{{.*}} : i32
// CHECK:     %[[CHUNK:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:     %[[SWZ:.*]] = arith.xori %[[CHUNK]], %[[J]] : i32
// CHECK:     %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK:     nvvm.stmatrix %[[FIRST]], %acc, %acc_1, %acc_2, %acc_3 {layout = #nvvm.mma_layout<col>}
// CHECK:     %[[C2048:.*]] = arith.constant 2048 : i32
// CHECK:     %[[WIDE:.*]] = arith.extui %[[C2048]] : i32 to i64
// CHECK:     %[[SECOND:.*]] = llvm.getelementptr %[[FIRST]][%[[WIDE]]]
// CHECK:     nvvm.stmatrix %[[SECOND]], %acc_4, %acc_5, %acc_6, %acc_7 {layout = #nvvm.mma_layout<col>}
// CHECK-NOT: nvvm.stmatrix
// CHECK-LABEL: func.func @f16_repeat
// CHECK:     %[[R4:.*]] = llvm.bitcast %acc_4 : vector<2xf16> to i32
// CHECK:     %[[R7:.*]] = llvm.bitcast %acc_7 : vector<2xf16> to i32
// CHECK:     nvvm.stmatrix %{{.*}}, %[[R4]], %{{.*}}, %{{.*}}, %[[R7]] {layout = #nvvm.mma_layout<col>}
// CHECK-NOT: nvvm.stmatrix
