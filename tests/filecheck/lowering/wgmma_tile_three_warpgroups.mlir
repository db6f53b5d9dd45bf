// An SM90a wgmma tile over three warpgroups (M = 192: 64 rows each, as the accumulator's TV layout places them;
// the attention kernel's d = 64 consumers): each warpgroup issues its own m64 atom, its A window starting
// (tid.x / 128 mod 3) x 64 rows (8 KiB of a 128B-swizzled K-major tile) into A; B is shared.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @three_warpgroups(%pc: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 384>} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[24576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,24),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,2),16):((64,512),1)">
    %zero = arith.constant 0.000000e+00 : f32
    %c = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,12),(2,2,2)):((384,1,16),(192,8,1536))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m192n16k16> %da, %db, %c : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,24),16):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,2),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,12),(2,2,2)):((384,1,16),(192,8,1536))"> -> !mma.frag<D, f32, "((4,8,12),(2,2,2)):((384,1,16),(192,8,1536))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pc layout("(192,16):(16,1)") : !mma.frag<D, f32, "((4,8,12),(2,2,2)):((384,1,16),(192,8,1536))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @three_warpgroups
// CHECK:       %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:       %[[WGS:.*]] = arith.constant 3 : i32
// CHECK-NEXT:  %[[WG:.*]] = arith.remui %{{.*}}, %[[WGS]] : i32
// CHECK-NEXT:  %[[WG64:.*]] = arith.extui %[[WG]] : i32 to i64
// the warpgroup's 64 rows of A: 64 x 128 bytes = 512 x 16 bytes (the descriptor's start-address unit)
// CHECK-NEXT:  %[[ROWS:.*]] = arith.constant 512 : i64
// CHECK-NEXT:  %[[OFF:.*]] = arith.muli %[[WG64]], %[[ROWS]] : i64
// CHECK-NEXT:  %{{.*}} = arith.addi %{{.*}}, %[[OFF]] : i64
// CHECK:       nvvm.wgmma.mma_async {{.*}}<m = 64, n = 16, k = 16>
// CHECK-NOT:   nvvm.wgmma.mma_async
// CHECK:       llvm.return
// PTX-LABEL: .entry three_warpgroups(
// PTX:       rem.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX:       wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// PTX-NOT:   wgmma.mma_async
