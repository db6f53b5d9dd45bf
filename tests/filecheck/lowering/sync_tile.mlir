// mma.sync_tile: one warp's 32x16x32 tile of m16n8k16 atoms (2 along M, 2 along N, 2 K steps) as one op; it
// lowers to 8 nvvm.mma.sync, each accumulator chained through the two K steps (the second atom's C is the
// first one's D), atoms in (M repeat, N repeat) order with their registers contiguous in the tile fragments.
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --check-prefix=ROUND
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  func.func @tile(%a: !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">, %b: !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">, %c: !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">) -> !mma.frag<D, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))"> {
    %d = mma.sync_tile <m32n16k32> atom <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">, !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">, !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))"> -> !mma.frag<D, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
    func.return %d : !mma.frag<D, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
  }
}

// ROUND: mma.sync_tile <m32n16k32> atom <m16n8k16> %{{.*}}, %{{.*}}, %{{.*}} : !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">

// CHECK-LABEL: func.func @tile
// atom (M 0, N 0), K step 0: A registers 0-3, B 0-1, C 0-3
// CHECK:      %[[D00:.*]] = nvvm.mma.sync A[%a, %a_1, %a_2, %a_3] B[%b, %b_1] C[%c, %c_1, %c_2, %c_3]
// CHECK-NEXT: %[[E0:.*]] = llvm.extractvalue %[[D00]][0]
// CHECK-NEXT: %[[E1:.*]] = llvm.extractvalue %[[D00]][1]
// CHECK-NEXT: %[[E2:.*]] = llvm.extractvalue %[[D00]][2]
// CHECK-NEXT: %[[E3:.*]] = llvm.extractvalue %[[D00]][3]
// K step 1: A registers 8-11 (the second K repeat), B 4-5, and the first step's D as C
// CHECK-NEXT: nvvm.mma.sync A[%a_8, %a_9, %a_10, %a_11] B[%b_4, %b_5] C[%[[E0]], %[[E1]], %[[E2]], %[[E3]]]
// atom (M 1, N 0): A registers 4-7, B 0-1 again, C 4-7
// CHECK:      nvvm.mma.sync A[%a_4, %a_5, %a_6, %a_7] B[%b, %b_1] C[%c_4, %c_5, %c_6, %c_7]
// CHECK-COUNT-5: nvvm.mma.sync
// CHECK-NOT:     nvvm.mma.sync
