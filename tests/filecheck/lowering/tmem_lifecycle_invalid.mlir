// One invalid case per tensor-memory lifecycle rule (passes/tmem_lifecycle.py), each a seeded mistake in
// the valid kernel of tests/filecheck/lowering/tcgen05_kernel.mlir.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p verify-tmem-lifecycle

// an allocation never freed
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    // expected-error@+1 {{mma.tmem_alloc: %t (64 columns) is not freed on every path: add mma.tmem_dealloc after its last use}}
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// a dealloc that runs on one path only (inside scf.if)
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    // expected-error@+1 {{mma.tmem_alloc: %t (64 columns) is not freed on every path: its mma.tmem_dealloc runs on some paths only (in a branch or a loop body that may not run); free it on every path}}
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    %first = arith.cmpi ult, %zero, %ticks : i32
    scf.if %first {
      mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    }
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// use after dealloc
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    // expected-error@+1 {{mma.tmem_load uses %t after its mma.tmem_dealloc}}
    %late = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// double dealloc
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    // expected-error@+1 {{mma.tmem_dealloc uses %t after its mma.tmem_dealloc}}
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// mixing cta_group 1 and 2 in one kernel
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    // expected-error@+1 {{mma.tcgen05_commit uses cta_group(2) but mma.tmem_alloc already used cta_group(1); one kernel uses one cta_group (ptxas rejects mixing .cta_group::1 and ::2)}}
    mma.tcgen05_commit %mbar cta_group(2) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// allocating after relinquishing the permit
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    mma.tmem_relinquish cta_group(1)
    // expected-error@+1 {{mma.tmem_alloc after mma.tmem_relinquish: this CTA gave up its permit to allocate}}
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// reading the load's registers before tcgen05.wait::ld
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    // expected-error@+1 {{mma.store_fragment reads the registers of an mma.tmem_load before `nvvm.tcgen05.wait <load>`; wait for the load first}}
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    nvvm.tcgen05.wait <load>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// reading D with the MMA not committed
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    // expected-error@+1 {{mma.tmem_load reads %t while the mma.tcgen05 writing it may still run; mma.tcgen05_commit and nvvm.mbarrier.try_wait.parity must come in between}}
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// reading D committed but not waited on
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.tcgen05.fence <after>
    // expected-error@+1 {{mma.tmem_load reads %t while the mma.tcgen05 writing it may still run; nvvm.mbarrier.try_wait.parity on the committed mbarrier must come in between}}
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// a dealloc inside a loop body of an allocation made before the loop: the second trip frees it again
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    scf.for %i = %lo to %hi step %one : i32 {
      // expected-error@+1 {{mma.tmem_dealloc may free %t twice: it runs again on a later trip of its loop, but the allocation is made once, before the loop}}
      mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    }
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// a loop body that reads D, then issues the next MMA and commits it without waiting on the mbarrier:
// on the second trip the load reads TMEM the previous trip's MMA may still write
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
      // expected-error@+1 {{mma.tmem_load reads %t while the mma.tcgen05 writing it may still run; nvvm.mbarrier.try_wait.parity on the committed mbarrier must come in between}}
      %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
      nvvm.tcgen05.wait <load>
      mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
      mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
      mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    }
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// -----

// a dealloc on the then branch, the allocation used after the scf.if
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    scf.if %flag {
      mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    }
    // expected-error@+1 {{mma.tmem_load uses %t after its mma.tmem_dealloc}}
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}
