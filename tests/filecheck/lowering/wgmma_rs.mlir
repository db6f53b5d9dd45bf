// SM90a wgmma RS (A in registers): upstream's nvvm.wgmma.mma_async takes A only as a descriptor, so the
// RS form is upstream's nvvm.inline_ptx: copy C into D's registers, wgmma.fence, then the wgmma in place
// ($0.. are D, then C, A and the B descriptor). With scale_d = 0 nothing is copied and scale-d is 0.
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @rs(%pa: !llvm.ptr<1>, %pc: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sb = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, none, "((8,1),(8,2)):((8,0),(1,64))">
    %a = mma.load_fragment %pa layout("(64,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    %c = mma.load_fragment %pc layout("(64,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n8k16> %a, %db, %c {scale_b = -1 : i32} : !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !mma.smem_desc<B, bf16, k, none, "((8,1),(8,2)):((8,0),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))"> -> !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pc layout("(64,8):(8,1)") : !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK: %d, %d_1, %d_2, %d_3 = nvvm.inline_ptx "mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $6; mov.b32 $3, $7; wgmma.fence.sync.aligned; wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, 1, 1, -1, 0;" ro(%c_{{[0-9]+}}, %c_{{[0-9]+}}, %c_{{[0-9]+}}, %c_{{[0-9]+}}, %a_{{[0-9]+}}, %a_{{[0-9]+}}, %a_{{[0-9]+}}, %a_{{[0-9]+}}, %db_{{[0-9]+}} : f32, f32, f32, f32, i32, i32, i32, i32, i64) {mma.atom = {family = "wgmma", sparse = false, a = "bf16", b = "bf16", d = "f32", m = 64 : i64, n = 8 : i64, k = 16 : i64, satfinite = false, a_residency = "register", trans_a = 0 : i64, trans_b = 0 : i64, scale_a = 1 : i64, scale_b = -1 : i64}} -> f32, f32, f32, f32
// PTX: .version 8.0
// PTX: wgmma.fence.sync.aligned;
// PTX: mov.b32 [[D0:%f[0-9]+]], %f{{[0-9]+}};
// PTX: wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {[[D0]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, -1, 0;
// PTX-NEXT: wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 0;
