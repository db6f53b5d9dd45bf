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

// CHECK-LABEL: llvm.func @wgmma_n8(
// CHECK:      [[SA:%.+]] = llvm.mlir.addressof @smem
// CHECK:      [[SB:%.+]] = llvm.getelementptr [[SA]]
// CHECK:      [[ZERO:%.+]] = arith.constant 0.000000e+00 : f32
// descriptors: the start address (bits 0-17 >> 4) at run time, or'd with one constant of the layout's fields
// (A: K-major no swizzle, LBO 128 B, SBO 256 B; B: MN-major 32B swizzle in bits 62-63)
// CHECK:      [[A_ADDR:%.+]] = llvm.ptrtoint [[SA]] : !llvm.ptr<3> to i64
// CHECK-NEXT: [[A_MASK:%.+]] = arith.constant 262143 : i64
// CHECK-NEXT: [[A_LOW:%.+]] = arith.andi [[A_ADDR]], [[A_MASK]]
// CHECK-NEXT: [[A_FOUR:%.+]] = arith.constant 4 : i64
// CHECK-NEXT: [[A_START:%.+]] = arith.shrui [[A_LOW]], [[A_FOUR]]
// CHECK-NEXT: [[A_FIELDS:%.+]] = arith.constant 68720001024 : i64
// CHECK-NEXT: [[DESC_A:%.+]] = arith.ori [[A_START]], [[A_FIELDS]]
// CHECK-NEXT: [[B_ADDR:%.+]] = llvm.ptrtoint [[SB]] : !llvm.ptr<3> to i64
// CHECK:      [[B_FIELDS:%.+]] = arith.constant -4611685880988368896 : i64
// CHECK-NEXT: [[DESC_B:%.+]] = arith.ori {{%.+}}, [[B_FIELDS]]
// C as a struct of its four registers, built after the kernel's fence
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: [[U:%.+]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: [[C1:%.+]] = llvm.insertvalue [[ZERO]], [[U]][0]
// CHECK-NEXT: [[C2:%.+]] = llvm.insertvalue [[ZERO]], [[C1]][1]
// CHECK-NEXT: [[C3:%.+]] = llvm.insertvalue [[ZERO]], [[C2]][2]
// CHECK-NEXT: [[C:%.+]] = llvm.insertvalue [[ZERO]], [[C3]][3]
// scale_a = -1 becomes A's <neg>; B is MN-major (<row> in upstream's spelling for B^T)
// CHECK-NEXT: [[D:%.+]] = nvvm.wgmma.mma_async [[DESC_A]], [[DESC_B]], [[C]], <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <neg>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: {{%.+}} = llvm.extractvalue [[D]][0]
// CHECK-NEXT: {{%.+}} = llvm.extractvalue [[D]][1]
// CHECK-NEXT: {{%.+}} = llvm.extractvalue [[D]][2]
// CHECK-NEXT: {{%.+}} = llvm.extractvalue [[D]][3]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// PTX:        .version 8.0
// PTX:        .target sm_90a
// PTX:        .extern .shared .align 1024 .b8 smem[];
// PTX-LABEL:  .entry wgmma_n8(
// PTX:        wgmma.fence.sync.aligned;
// scale-d 1, imm-scale-a -1, imm-scale-b 1, tnspA 0, tnspB 1
// PTX:        wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{\{}}{{(%f[0-9]+, ){3}%f[0-9]+}}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}, 1, -1, 1, 0, 1;
// PTX-NEXT:   wgmma.commit_group.sync.aligned;
// PTX-NEXT:   wgmma.wait_group.sync.aligned 0;
