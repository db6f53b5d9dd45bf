// SM90a sparse wgmma (SS): A holds K/2 kept values (64x16 f16 for k32), E one metadata word per thread;
// lowered as upstream's nvvm.inline_ptx like RS: D write-only, then C, the A and B descriptors, E;
// the selector is an immediate. Operand order per reference C4: d, a-desc, b-desc, sp-meta, sp-sel,
// scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @sparse(%pc: !llvm.ptr<1>, %pe: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 2048 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,1),(8,4)):((8,0),(1,64))">
    %e = mma.load_fragment %pe layout("(128,1):(1,0)") : !llvm.ptr<1> -> !mma.frag<E, b32, "(128,1):(1,0)">
    %c = mma.load_fragment %pc layout("(64,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n8k32> %da, %db, %c metadata(%e : !mma.frag<E, b32, "(128,1):(1,0)">) {selector = 1 : i32} : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,1),(8,4)):((8,0),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))"> -> !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pc layout("(64,8):(8,1)") : !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK: %d, %d_1, %d_2, %d_3 = nvvm.inline_ptx "mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $6; mov.b32 $3, $7; wgmma.fence.sync.aligned; wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, $10, 1, 1, 1, 1, 0, 0;" ro(%c_{{[0-9]+}}, %c_{{[0-9]+}}, %c_{{[0-9]+}}, %c_{{[0-9]+}}, %da_{{[0-9]+}}, %db_{{[0-9]+}}, %e_{{[0-9]+}} : f32, f32, f32, f32, i64, i64, i32) {mma.atom = {family = "wgmma", sparse = true, a = "f16", b = "f16", d = "f32", m = 64 : i64, n = 8 : i64, k = 32 : i64, satfinite = false, a_residency = "smem_desc", trans_a = 0 : i64, trans_b = 0 : i64, scale_a = 1 : i64, scale_b = 1 : i64, selector = 1 : i64}} -> f32, f32, f32, f32
// PTX: .version 8.2
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1, 1, 1, 1, 0, 0;
// PTX-NEXT: wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 0;
