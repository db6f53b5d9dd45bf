// verify-bulk-stores: an epilogue that stages 64x64 bf16 boxes (8 KiB) in two SMEM buffers and TMA-stores
// them, one thread issuing: box b of a loop trip waits until at most one store is pending (the other
// buffer's), then a barrier, then every thread writes the box. Passes; bulk_stores_invalid.mlir varies it.
// RUN: mmatom-opt %s -p verify-bulk-stores | filecheck %s

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
      llvm.store %v, %box0 : i32, !llvm.ptr<3>
      nvvm.barrier
      scf.if %issuer {
        mma.tma_store %box0 into %md[%t, %c0] : !mma.tensor_map<bf16, 64x64, sw128>
        nvvm.cp.async.bulk.commit.group
      }
      scf.if %issuer {
        nvvm.cp.async.bulk.wait_group 1 {read}
      }
      nvvm.barrier
      llvm.store %v, %box1 : i32, !llvm.ptr<3>
      nvvm.barrier
      scf.if %issuer {
        mma.tma_store %box1 into %md[%t, %c1] : !mma.tensor_map<bf16, 64x64, sw128>
        nvvm.cp.async.bulk.commit.group
      }
    }
    scf.if %issuer {
      nvvm.cp.async.bulk.wait_group 0
    }
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @epilogue(
// CHECK: mma.tma_store %box1
