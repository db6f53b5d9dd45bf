// One invalid case per wgmma async-protocol rule (passes/wgmma_lifecycle.py), each a variation of
// examples/wgmma_m64n64k16_f16.mlir.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p verify-wgmma-lifecycle

// D stored before the wait that retires its group
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    // expected-error@+1 {{mma.store_fragment uses %d, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// -----

// D stored with no commit: the wgmma is in no group yet
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{mma.store_fragment uses %d, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.commit.group.sync.aligned` then `nvvm.wgmma.wait.group.sync.aligned 0`}}
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// -----

// wait 1 leaves the only group in flight
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 1
    // expected-error@+1 {{mma.store_fragment uses %d, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// C loaded after the wgmma fence
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    nvvm.wgmma.fence.aligned
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{mma.wgmma: operand C %c was written after the last `nvvm.wgmma.fence.aligned` (or none was issued); insert `nvvm.wgmma.fence.aligned` between its definition and this wgmma}}
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// SMEM written by the generic proxy, no proxy fence
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    // expected-error@+1 {{mma.wgmma reads SMEM that mma.copy_to_smem wrote through the generic proxy; insert `nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}` and `nvvm.barrier` before it}}
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// proxy fence but no barrier: other threads' chunks may not be written yet
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    // expected-error@+1 {{mma.wgmma reads SMEM that other threads wrote (mma.copy_to_smem); insert `nvvm.barrier` after the proxy fence}}
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// the kernel returns with the wgmma in flight
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{the kernel returns with mma.wgmma in flight; add `nvvm.wgmma.commit.group.sync.aligned` then `nvvm.wgmma.wait.group.sync.aligned 0` before it}}
    llvm.return
  }
}

// -----

// two groups in flight: wait 1 retires the older one only (its D may be stored, the newer's not)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    %c2 = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    %d2 = mma.wgmma <m64n64k16> %da, %db, %c2 : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 1
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    // expected-error@+1 {{mma.store_fragment uses %d2, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
    mma.store_fragment %d2, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// -----

// D stored inside an scf.if before the wait (the region sees the wgmma in flight)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    scf.if %flag {
      // expected-error@+1 {{mma.store_fragment uses %d, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
      mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// -----

// D read in a loop body while in flight: on the second trip %acc is the first trip's D, and
// `wait 1` left that group in flight
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
      // expected-error@+1 {{mma.store_fragment uses %acc, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
      mma.store_fragment %acc, %pd layout("(64,64):(64,1)") : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
      %d = mma.wgmma <m64n64k16> %da, %db, %acc : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %d : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// -----

// the loop leaves a group in flight (wait 1), and the code after reads the loop's result
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    // expected-error@+1 {{mma.store_fragment uses %res, the accumulator of an mma.wgmma still in flight; retire it first with `nvvm.wgmma.wait.group.sync.aligned 0`}}
    mma.store_fragment %res, %pd layout("(64,64):(64,1)") : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// -----

// a loop body that commits groups without waiting: no fixed point
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    // expected-error@+1 {{scf.for: every iteration leaves one more wgmma group in flight (its body commits groups without waiting for them); add `nvvm.wgmma.wait.group.sync.aligned N` in the body so that at most N groups stay in flight}}
    %res = scf.for %i = %lo to %hi step %one iter_args(%acc = %c) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
      %d = mma.wgmma <m64n64k16> %da, %db, %acc : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      scf.yield %d : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %res, %pd layout("(64,64):(64,1)") : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// C written after the fence, read by a wgmma inside an scf.if
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    nvvm.wgmma.fence.aligned
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    scf.if %flag {
      // expected-error@+1 {{mma.wgmma: operand C %c was written after the last `nvvm.wgmma.fence.aligned` (or none was issued); insert `nvvm.wgmma.fence.aligned` between its definition and this wgmma}}
      %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    }
    llvm.return
  }
}

// -----

// SMEM written through the generic proxy on one branch of an scf.if, no proxy fence after it
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    scf.if %flag {
      mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    }
    nvvm.wgmma.fence.aligned
    // expected-error@+1 {{mma.wgmma reads SMEM that mma.copy_to_smem wrote through the generic proxy; insert `nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}` and `nvvm.barrier` before it}}
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// a wgmma issued on one branch only, still in flight at the return
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
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
    scf.if %flag {
      %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      nvvm.wgmma.commit.group.sync.aligned
    }
    // expected-error@+1 {{the kernel returns with mma.wgmma in flight; add `nvvm.wgmma.wait.group.sync.aligned 0` before it}}
    llvm.return
  }
}

// -----

// Branches between blocks are outside the structured model: a kernel with wgmma ops and two blocks is refused
// (was a ValueError from Region.block, found by fuzzing).
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // expected-error@+1 {{verify-wgmma-lifecycle: @branches has 2 blocks; the checker follows structured control flow (scf.for / scf.if / scf.while) only, so a kernel with branches between blocks cannot be proven safe}}
  llvm.func @branches() attributes {nvvm.kernel} {
    nvvm.wgmma.fence.aligned
    llvm.br ^bb1
  ^bb1:
    llvm.return
  }
}
