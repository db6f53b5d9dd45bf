// SM90a wgmma SS: the descriptor packed from the layout (start address at run time, LBO/SBO/swizzle as
// one constant), C as a struct of its registers, upstream's nvvm.wgmma.mma_async between the fence and
// commit/wait the kernel spells, D unpacked. Then the PTX for the same kernel.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma_n8(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 2048 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %zero = arith.constant 0.000000e+00 : f32
    %c = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, mn, sw32, "Sw<1,4,3> o 0 o ((8,1),(8,2)):((1,256),(16,256))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n8k16> %da, %db, %c {scale_a = -1 : i32} : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, mn, sw32, "Sw<1,4,3> o 0 o ((8,1),(8,2)):((1,256),(16,256))">, !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))"> -> !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(64,8):(8,1)") : !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:      builtin.module attributes {mma.target = "sm_90a"} {
// CHECK-NEXT: llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.func @wgmma_n8(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK-NEXT: %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
// CHECK-NEXT: %b_at = arith.constant 2048 : i64
// CHECK-NEXT: %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %da = llvm.ptrtoint %sa : !llvm.ptr<3> to i64
// CHECK-NEXT: %da_1 = arith.constant 262143 : i64
// CHECK-NEXT: %da_2 = arith.andi %da, %da_1 : i64
// CHECK-NEXT: %da_3 = arith.constant 4 : i64
// CHECK-NEXT: %da_4 = arith.shrui %da_2, %da_3 : i64
// CHECK-NEXT: %da_5 = arith.constant 68720001024 : i64
// CHECK-NEXT: %da_6 = arith.ori %da_4, %da_5 : i64
// CHECK-NEXT: %db = llvm.ptrtoint %sb : !llvm.ptr<3> to i64
// CHECK-NEXT: %db_1 = arith.constant 262143 : i64
// CHECK-NEXT: %db_2 = arith.andi %db, %db_1 : i64
// CHECK-NEXT: %db_3 = arith.constant 4 : i64
// CHECK-NEXT: %db_4 = arith.shrui %db_2, %db_3 : i64
// CHECK-NEXT: %db_5 = arith.constant -4611685880988368896 : i64
// CHECK-NEXT: %db_6 = arith.ori %db_4, %db_5 : i64
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %d = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_1 = llvm.insertvalue %zero, %d[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_2 = llvm.insertvalue %zero, %d_1[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_3 = llvm.insertvalue %zero, %d_2[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_4 = llvm.insertvalue %zero, %d_3[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_5 = nvvm.wgmma.mma_async %da_6, %db_6, %d_4, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <neg>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_6 = llvm.extractvalue %d_5[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_7 = llvm.extractvalue %d_5[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_8 = llvm.extractvalue %d_5[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_9 = llvm.extractvalue %d_5[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// PTX: .version 8.0
// PTX: .target sm_90a
// PTX: .extern .shared .align 1024 .b8 smem[];
// PTX: mov.u64 %rd3, smem;
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f2, %f3, %f4, %f5}, %rd11, %rd17, 1, -1, 1, 0, 1;
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 0;
