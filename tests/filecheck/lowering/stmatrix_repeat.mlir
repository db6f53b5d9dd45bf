// mma.stmatrix_tile of M repeat R stores that repeat's registers (the fragment holds repeat 0's, then
// repeat 1's): a 128x64 bf16 tile over one warpgroup is 32 registers, repeat 1's are 16-31; a 128x64 f32
// tile is 64 values, repeat 1 block 1 (columns 32-63) its values 32 + 16..31.
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --check-prefix=ROUND
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  func.func @bf16_repeat(%acc: !mma.frag<D, bf16, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">, %dst: !llvm.ptr<3>) {
    mma.stmatrix_tile %acc[0 : i32] repeat 1 : i32 into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">
    func.return
  }
  func.func @f32_repeat(%acc: !mma.frag<D, f32, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">, %dst: !llvm.ptr<3>) {
    mma.stmatrix_tile %acc[1 : i32] repeat 1 : i32 into %dst : !mma.frag<D, f32, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">
    func.return
  }
}

// ROUND: mma.stmatrix_tile %{{.*}}[0 : i32] repeat 1 : i32 into %{{.*}} : !mma.frag<D, bf16, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">

// CHECK-LABEL: func.func @bf16_repeat
// CHECK:     nvvm.stmatrix %{{.*}}, %acc_16, %acc_17, %acc_18, %acc_19 {layout = #nvvm.mma_layout<row>}
// CHECK:     nvvm.stmatrix %{{.*}}, %acc_20, %acc_21, %acc_22, %acc_23 {layout = #nvvm.mma_layout<row>}
// CHECK:     nvvm.stmatrix %{{.*}}, %acc_24, %acc_25, %acc_26, %acc_27 {layout = #nvvm.mma_layout<row>}
// CHECK:     nvvm.stmatrix %{{.*}}, %acc_28, %acc_29, %acc_30, %acc_31 {layout = #nvvm.mma_layout<row>}
// CHECK-NOT: nvvm.stmatrix
// CHECK-LABEL: func.func @f32_repeat
// CHECK:     llvm.insertelement %acc_48, %{{.*}}
// CHECK:     llvm.insertelement %acc_49, %{{.*}}
// CHECK:     llvm.insertelement %acc_50, %{{.*}}
// CHECK:     llvm.insertelement %acc_51, %{{.*}}
// CHECK:     llvm.insertelement %acc_63, %{{.*}}
// CHECK-NOT: llvm.insertelement
