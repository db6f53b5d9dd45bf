// Valid kernels with structured control flow that both lifecycle checkers (passes/control_flow.py's model)
// must accept: waits inside loop bodies, accumulators carried in flight through iter_args, a group
// committed on one branch and retired after the scf.if, TMEM freed on every branch or inside the loop
// body that allocated it. The whole lowering runs on each (the flat cases are the examples and conformance).
// RUN: mmatom-opt %s --split-input-file -p verify-wgmma-lifecycle,verify-tmem-lifecycle | filecheck %s
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm | filecheck %s --check-prefix=LOWERED

// CHECK: llvm.func @k_loop_wait0(
// CHECK: llvm.func @k_loop_pipelined(
// CHECK: llvm.func @if_then_wait(
// CHECK: llvm.func @fence_in_body(
// CHECK: llvm.func @tmem_both_branches(
// CHECK: llvm.func @tmem_loop_body(
// CHECK: llvm.func @tmem_loop_waited(
// LOWERED-COUNT-4: nvvm.wgmma.mma_async
// LOWERED-COUNT-4: nvvm.tcgen05.mma

// a wait inside the loop body retires what the body committed
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k_loop_wait0(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %res = scf.for %i = %lo to %hi step %one iter_args(%acc = %c) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
      %d = mma.wgmma <m64n64k16> %da, %db, %acc : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      scf.yield %d : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    }
    mma.store_fragment %res, %pd layout("(64,64):(64,1)") : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// pipelined: `wait 1` keeps one group in flight across trips (the next wgmma accumulates into it,
// ordered by the hardware); `wait 0` after the loop retires it before D is read
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k_loop_pipelined(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %res = scf.for %i = %lo to %hi step %one iter_args(%acc = %c) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
      %d = mma.wgmma <m64n64k16> %da, %db, %acc : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %d : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %res, %pd layout("(64,64):(64,1)") : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// a branch issues and commits; the wait after the scf.if retires it, whichever branch ran
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @if_then_wait(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %r = scf.if %flag -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) {
      %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      scf.yield %d : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    } else {
      scf.yield %c : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %r, %pd layout("(64,64):(64,1)") : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// C loaded and fenced inside the loop body: every trip fences its own C
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @fence_in_body(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    scf.for %i = %lo to %hi step %one : i32 {
      %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.fence.aligned
      %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    }
    llvm.return
  }
}


// -----

// freed on both branches of an scf.if: freed on every path
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @tmem_both_branches(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    scf.if %flag {
      mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    } else {
      mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    }
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// allocated and freed inside the loop body: each trip frees its own allocation
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @tmem_loop_body(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    scf.for %i = %lo to %hi step %one : i32 {
      %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
      mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
      mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
      nvvm.tcgen05.fence <after>
      %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
      nvvm.tcgen05.wait <load>
      mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
      mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    }
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// the next MMA issued in the loop body, committed and waited on before the next trip's load
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @tmem_loop_waited(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %flag = arith.constant true
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    scf.for %i = %lo to %hi step %one : i32 {
      %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
      nvvm.tcgen05.wait <load>
      mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
      mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
      mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
      nvvm.tcgen05.fence <after>
    }
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}
