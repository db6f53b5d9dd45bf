// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p verify-wgmma-lifecycle
// The wgmma protocol for RS tiles (passes/wgmma_lifecycle.py): the register A is read asynchronously, so it must
// be defined before the fence that precedes the tile, and stays the tile's until the wait that retires it.

// P converted after the fence: the tile would read registers the fence did not order
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @a_after_fence(%ps: !llvm.ptr<1>, %po: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sb = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, mn, sw32, "Sw<1,4,3> o 0 o ((16,1),(8,2)):((1,1024),(16,512))">
    %s = mma.load_fragment %ps layout("(64,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    %o = mma.load_fragment %po layout("(64,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %p = mma.convert %s : !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"> -> !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{mma.wgmma_tile: operand A %p was written after the last `nvvm.wgmma.fence.aligned` (or none was issued); insert `nvvm.wgmma.fence.aligned` between its definition and this wgmma}}
    %d = mma.wgmma_tile <m64n16k16> %p, %db, %o : !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !mma.smem_desc<B, bf16, mn, sw32, "Sw<1,4,3> o 0 o ((16,1),(8,2)):((1,1024),(16,512))">, !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %po layout("(64,16):(16,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// P read by an ordinary op while the tile that reads it is in flight
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @a_read_in_flight(%ps: !llvm.ptr<1>, %po: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sb = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, mn, sw32, "Sw<1,4,3> o 0 o ((16,1),(8,2)):((1,1024),(16,512))">
    %s = mma.load_fragment %ps layout("(64,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    %o = mma.load_fragment %po layout("(64,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    %p = mma.convert %s : !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"> -> !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m64n16k16> %p, %db, %o : !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !mma.smem_desc<B, bf16, mn, sw32, "Sw<1,4,3> o 0 o ((16,1),(8,2)):((1,1024),(16,512))">, !mma.frag<C, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    // expected-error@+1 {{mma.store_fragment uses %p, the A fragment of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
    mma.store_fragment %p, %ps layout("(64,16):(16,1)") : !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %po layout("(64,16):(16,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}
