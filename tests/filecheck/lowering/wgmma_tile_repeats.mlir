// mma.wgmma_tile with M repeats: a warpgroup covering more than 64 rows issues one atom per 64 of them at
// every K step (K outer, M repeat inner, as CuTe), each repeat's accumulator chained through its own struct;
// repeat i's A descriptor starts 64 * warpgroups * i rows (i * 8192 bytes per 64 rows of a 128B-swizzled
// K-major tile: +512 in the 16-byte start field) further, K step j 32 bytes (+2) further. The atoms' LBO,
// SBO and swizzle are the tile's, so each atom's descriptor is the tile's plus that offset: one add.
// @one_warpgroup: 128 rows over 1 warpgroup (2 repeats); @two_warpgroups: 256 rows over 2 (2 repeats each,
// warpgroup 1's rows 64 further: +512 from tid.x / 128, and repeat 1's 128 rows further: +1024).
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --check-prefix=ROUND
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @one_warpgroup(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 32768 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %zero = arith.constant 0.000000e+00 : f32
    %c = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),32):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),32):((64,512),1)">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m128n8k32> %da, %db, %c : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),32):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),32):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(128,8):(8,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @two_warpgroups(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 32768 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %zero = arith.constant 0.000000e+00 : f32
    %c = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,8),(2,2,2)):((512,1,16),(256,8,128))">
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),32):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),32):((64,512),1)">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m256n8k32> %da, %db, %c : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),32):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),32):((64,512),1)">, !mma.frag<C, f32, "((4,8,8),(2,2,2)):((512,1,16),(256,8,128))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,2)):((512,1,16),(256,8,128))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(256,8):(8,1)") : !mma.frag<D, f32, "((4,8,8),(2,2,2)):((512,1,16),(256,8,128))">, !llvm.ptr<1>
    llvm.return
  }
}

// ROUND: mma.wgmma_tile <m128n8k32> %{{.*}}, %{{.*}}, %{{.*}} : {{.*}} -> !mma.frag<D, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">
// ROUND: mma.wgmma_tile <m256n8k32> %{{.*}}, %{{.*}}, %{{.*}} : {{.*}} -> !mma.frag<D, f32, "((4,8,8),(2,2,2)):((512,1,16),(256,8,128))">

// CHECK-LABEL: llvm.func @one_warpgroup
// the tile descriptors (mma.make_desc: start field OR-ed with the constant fields)
// CHECK:      %[[A0:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// CHECK:      %[[B0:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// repeat 0's accumulator (values 0-3), then repeat 1's (values 4-7): two structs of four
// CHECK:      %[[ACC0:.*]] = llvm.insertvalue %zero, %{{.*}}[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:      %[[ACC1:.*]] = llvm.insertvalue %zero, %{{.*}}[3] : !llvm.struct<(f32, f32, f32, f32)>
// K step 0: repeat 0 reads the tile's own descriptors, repeat 1 A + 512 (64 rows of 128 bytes, in 16 bytes)
// CHECK-NEXT: %[[R0S0:.*]] = nvvm.wgmma.mma_async %[[A0]], %[[B0]], %[[ACC0]], <m = 64, n = 8, k = 16>
// CHECK-NEXT: %[[C512:.*]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A0]], %[[C512]] : i64
// CHECK-NEXT: %[[R1S0:.*]] = nvvm.wgmma.mma_async %[[A1]], %[[B0]], %[[ACC1]], <m = 64, n = 8, k = 16>
// K step 1 (32 bytes further: +2): each repeat chains its own accumulator, A at +2 and +514
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[B2:.*]] = arith.addi %[[B0]], %[[C2]] : i64
// CHECK-NEXT: %[[A2:.*]] = arith.addi %[[A0]], %[[C2]] : i64
// CHECK-NEXT: %[[R0S1:.*]] = nvvm.wgmma.mma_async %[[A2]], %[[B2]], %[[R0S0]], <m = 64, n = 8, k = 16>
// CHECK-NEXT: %[[C514:.*]] = arith.constant 514 : i64
// CHECK-NEXT: %[[A3:.*]] = arith.addi %[[A0]], %[[C514]] : i64
// CHECK-NEXT: %[[R1S1:.*]] = nvvm.wgmma.mma_async %[[A3]], %[[B2]], %[[R1S0]], <m = 64, n = 8, k = 16>
// D: repeat 0's registers, then repeat 1's
// CHECK-NEXT: llvm.extractvalue %[[R0S1]][0]
// CHECK:      llvm.extractvalue %[[R0S1]][3]
// CHECK-NEXT: llvm.extractvalue %[[R1S1]][0]
// CHECK-NOT:  nvvm.wgmma.mma_async
// CHECK:      nvvm.wgmma.commit.group.sync.aligned

// CHECK-LABEL: llvm.func @two_warpgroups
// warpgroup w = (tid.x / 128) % 2 starts A w * 512 further
// CHECK:      %[[TA:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// CHECK:      nvvm.read.ptx.sreg.tid.x
// CHECK:      %[[WG:.*]] = arith.constant 512 : i64
// CHECK-NEXT: %[[WGOFF:.*]] = arith.muli %{{.*}}, %[[WG]] : i64
// CHECK-NEXT: %[[WA:.*]] = arith.addi %[[TA]], %[[WGOFF]] : i64
// repeat 1 is 128 rows further (+1024), and +1026 at K step 1
// CHECK:      nvvm.wgmma.mma_async %[[WA]]
// CHECK-NEXT: %[[C1024:.*]] = arith.constant 1024 : i64
// CHECK-NEXT: arith.addi %[[WA]], %[[C1024]] : i64
// CHECK:      nvvm.wgmma.mma_async
// CHECK:      nvvm.wgmma.mma_async
// CHECK-NEXT: %[[C1026:.*]] = arith.constant 1026 : i64
// CHECK-NEXT: arith.addi %[[WA]], %[[C1026]] : i64
// CHECK:      nvvm.wgmma.mma_async
// CHECK-NOT:  nvvm.wgmma.mma_async
// CHECK:      llvm.return
