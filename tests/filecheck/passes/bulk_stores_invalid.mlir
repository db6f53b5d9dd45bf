// One invalid case per diagnostic of verify-bulk-stores (passes/bulk_store_lifecycle.py), variations of the
// double-buffered epilogue in bulk_stores.mlir.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p verify-bulk-stores

// one box per trip with `wait_group.read 1`: the previous trip's store of the same box may still read it (the
// GEMM epilogue's race for tiles with an odd number of boxes)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @epilogue(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %v: i32, %n: i32) attributes {nvvm.kernel} {
    %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    %box0 = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %box1 = llvm.getelementptr %box0[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %issuer = arith.cmpi eq, %tid, %c0 : i32
    scf.for %t = %c0 to %n step %c1 : i32 {
      scf.if %issuer {
        nvvm.cp.async.bulk.wait_group 1 {read}
      }
      nvvm.barrier
      // expected-error@+1 {{llvm.store writes SMEM that mma.tma_store (line 26) may still be reading (its box); wait for it with `nvvm.cp.async.bulk.wait_group.read 0` before this write}}
      llvm.store %v, %box0 : i32, !llvm.ptr<3>
      nvvm.barrier
      scf.if %issuer {
        mma.tma_store %box0 into %md[%t, %c0] : !mma.tensor_map<bf16, 64x64, sw128>
        nvvm.cp.async.bulk.commit.group
      }
    }
    scf.if %issuer {
      nvvm.cp.async.bulk.wait_group 0
    }
    llvm.return
  }
}

// -----

// the issuing thread waits, but nothing orders its wait before the other threads' writes
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @epilogue(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %v: i32, %n: i32) attributes {nvvm.kernel} {
    %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    %box0 = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %box1 = llvm.getelementptr %box0[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %issuer = arith.cmpi eq, %tid, %c0 : i32
    scf.if %issuer {
      mma.tma_store %box0 into %md[%c0, %c0] : !mma.tensor_map<bf16, 64x64, sw128>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
    }
    // expected-error@+1 {{llvm.store writes SMEM that mma.tma_store (line 51) read; the issuing thread waited for it, but no barrier orders that wait before the other threads' writes: add `nvvm.barrier` (a named barrier of the threads that write) after the wait}}
    llvm.store %v, %box0 : i32, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// a store not yet in a bulk group: no wait can retire it
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @epilogue(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %v: i32, %n: i32) attributes {nvvm.kernel} {
    %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    %box0 = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %box1 = llvm.getelementptr %box0[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %issuer = arith.cmpi eq, %tid, %c0 : i32
    scf.if %issuer {
      mma.tma_store %box0 into %md[%c0, %c0] : !mma.tensor_map<bf16, 64x64, sw128>
      // expected-error@+1 {{llvm.store writes SMEM that mma.tma_store (line 75) may still be reading (its box); wait for it with first `nvvm.cp.async.bulk.commit.group`, then `nvvm.cp.async.bulk.wait_group.read 0` before this write}}
      llvm.store %v, %box0 : i32, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0
    }
    llvm.return
  }
}

// -----

// every trip commits a group and never waits
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @epilogue(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %v: i32, %n: i32) attributes {nvvm.kernel} {
    %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    %box0 = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %box1 = llvm.getelementptr %box0[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %issuer = arith.cmpi eq, %tid, %c0 : i32
    // expected-error@+1 {{scf.for: every iteration leaves one more bulk group of TMA stores pending (its body commits groups without waiting for them); add `nvvm.cp.async.bulk.wait_group.read N` in the body}}
    scf.for %t = %c0 to %n step %c1 : i32 {
      scf.if %issuer {
        mma.tma_store %box1 into %md[%t, %c0] : !mma.tensor_map<bf16, 64x64, sw128>
        nvvm.cp.async.bulk.commit.group
      }
    }
    llvm.return
  }
}

// -----

// the kernel ends with a store in no bulk group
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @epilogue(%d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %v: i32, %n: i32) attributes {nvvm.kernel} {
    %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    %box0 = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %box1 = llvm.getelementptr %box0[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %issuer = arith.cmpi eq, %tid, %c0 : i32
    scf.if %issuer {
      mma.tma_store %box1 into %md[%c0, %c0] : !mma.tensor_map<bf16, 64x64, sw128>
    }
    // expected-error@+1 {{the kernel returns with mma.tma_store in no bulk group; add `nvvm.cp.async.bulk.commit.group` (and a wait) before it}}
    llvm.return
  }
}
