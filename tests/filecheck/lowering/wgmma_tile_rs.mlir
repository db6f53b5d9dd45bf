// SM90a RS wgmma tiles (A in registers): per M repeat of each warpgroup, ONE nvvm.inline_ptx holds the whole
// K chain -- C copied into D's registers, one wgmma.fence, then K/16 wgmma.mma_async on D in place, step j
// with the A registers of step j (the fragment's atom values, then K step, then M repeat) and the B
// descriptor advanced to its window. With scale_d = 0 nothing is copied and only step 0's scale-d is 0.
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

// 64x16x32, one warpgroup, two K steps; B (16 x 32) N-major sw32: wgmma reads it transposed (imm-trans-b 1)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @rs_k_chain(%pa: !llvm.ptr<1>, %pc: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sb = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, mn, sw32, "Sw<1,4,3> o 0 o ((16,1),(8,4)):((1,2048),(16,512))">
    %a = mma.load_fragment %pa layout("(64,32):(32,1)") : !llvm.ptr<1> -> !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((128,1,16),(64,8,512,1024))">
    %c = mma.load_fragment %pc layout("(64,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m64n16k32> %a, %db, %c : !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((128,1,16),(64,8,512,1024))">, !mma.smem_desc<B, bf16, mn, sw32, "Sw<1,4,3> o 0 o ((16,1),(8,4)):((1,2048),(16,512))">, !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pc layout("(64,16):(16,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @rs_k_chain
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 128 : i64
// CHECK-NEXT: %[[B1:.*]] = arith.addi %[[B0:.*]], %[[STEP]] : i64
// CHECK-NEXT: nvvm.inline_ptx "mov.b32 $0, $8; mov.b32 $1, $9; mov.b32 $2, $10; mov.b32 $3, $11; mov.b32 $4, $12; mov.b32 $5, $13; mov.b32 $6, $14; mov.b32 $7, $15; wgmma.fence.sync.aligned; wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, 1, 1, 1, 1; wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$21, $22, $23, $24}, $25, 1, 1, 1, 1;" ro({{(%c_[0-9]+, ){8}(%a_[0-9]+, ){3}%a_[0-9]+}}, %[[B0]], {{(%a_[0-9]+, ){3}%a_[0-9]+}}, %[[B1]] : {{(f32, ){8}(i32, ){3}i32}}, i64, {{(i32, ){3}i32}}, i64)
// CHECK-SAME: a_residency = "register"
// CHECK-SAME: trans_b = 1
// CHECK-NOT: nvvm.inline_ptx
// CHECK: llvm.return
// PTX-LABEL: .entry rs_k_chain(
// PTX: wgmma.fence.sync.aligned;
// PTX: mov.b32 [[D0:%f[0-9]+]], %f{{[0-9]+}};
// PTX-COUNT-7: mov.b32 %f{{[0-9]+}}, %f{{[0-9]+}};
// PTX-NEXT: wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {[[D0]], {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[DB0:%rd[0-9]+]], 1, 1, 1, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {[[D0]], {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[DB1:%rd[0-9]+]], 1, 1, 1, 1;
// PTX-NEXT: wgmma.commit_group.sync.aligned;

// -----

// 128x8x16 on one warpgroup: two M repeats, one inline_ptx each; scale_d = 0: no copies, scale-d 0
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @rs_repeats(%pa: !llvm.ptr<1>, %pc: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sb = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, none, "Sw<0,4,3> o 0 o ((8,1),(8,2)):((8,512),(1,512))">
    %a = mma.load_fragment %pa layout("(128,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">
    %c = mma.load_fragment %pc layout("(128,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m128n8k16> %a, %db, %c {scale_d = 0 : i32} : !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">, !mma.smem_desc<B, bf16, k, none, "Sw<0,4,3> o 0 o ((8,1),(8,2)):((8,512),(1,512))">, !mma.frag<C, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pc layout("(128,8):(8,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,2)):((256,1,16),(128,8,64))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @rs_repeats
// CHECK: nvvm.inline_ptx "wgmma.fence.sync.aligned; wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$4, $5, $6, $7}, $8, 0, 1, 1, 0;" ro({{(%a_[0-9]+, ){3}%a_[0-9]+}}, %[[B:[a-z0-9_]+]] : i32, i32, i32, i32, i64)
// CHECK-NEXT: nvvm.inline_ptx "wgmma.fence.sync.aligned; wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$4, $5, $6, $7}, $8, 0, 1, 1, 0;" ro({{(%a_[0-9]+, ){3}%a_[0-9]+}}, %[[B]] : i32, i32, i32, i32, i64)
// PTX-LABEL: .entry rs_repeats(
// PTX: wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {{.*}}, [[DB:%rd[0-9]+]], 0, 1, 1, 0;
// PTX-NEXT: wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {{.*}}, [[DB]], 0, 1, 1, 0;
// PTX-NEXT: wgmma.commit_group.sync.aligned;
