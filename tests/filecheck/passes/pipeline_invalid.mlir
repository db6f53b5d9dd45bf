// One invalid case per diagnostic of verify-pipeline (passes/pipeline_protocol.py), each a variation of the
// two-stage TMA -> mbarrier -> wgmma ring in pipeline.mlir (producer warpgroup 0, consumer warpgroup 1).
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p verify-pipeline

// expect_tx posts more bytes than the two boxes land: the phase never completes
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 24576 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          // expected-error@+1 {{nvvm.mbarrier.arrive.expect_tx: posts 24576 bytes on barrier @smem + 32768 + 8*%p_stage, but the mma.tma_load ops that complete on it after it land 16384: 8192 (!mma.tensor_map<bf16, 64x64, sw128>) + 8192 (!mma.tensor_map<bf16, 64x64, sw128>); the phase never completes (a hang)}}
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// a TMA load with no expect_tx on its barrier before it
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          // expected-error@+1 {{mma.tma_load: no nvvm.mbarrier.arrive.expect_tx on its barrier @smem + 32768 + 8*%p_stage before it in its block; the barrier's phase can complete before the box lands -- post the stage's bytes with expect_tx first}}
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// a 128B-swizzled box landing at an address that is not 1024-byte aligned
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_skew = arith.addi %p_off, %c64 : i32
          %p_db = llvm.getelementptr %sb[%p_skew] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          // expected-error@+1 {{mma.tma_load: its destination @smem + 16448 + 8192*%p_stage is not 1024-byte aligned (a 128b-swizzled box needs it; offset 16448 is not a multiple)}}
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// the consumer reads a stage without waiting on its full barrier
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        // expected-error@+1 {{mma.wgmma_tile: operand A reads a TMA-filled stage whose full barrier @smem + 32768 + 8*%c_stage is not waited on before it on every path; insert `nvvm.mbarrier.try_wait.parity` on that barrier (with the stage's phase) first}}
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// the consumer releases its stage before the wgmma reading it is retired
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        // expected-error@+1 {{nvvm.mbarrier.arrive: releases the stage of full barrier @smem + 32768 + 8*%c_stage while mma.wgmma_tile (line 386) may still read it; the producer can overwrite the stage under it -- retire that wgmma with `nvvm.wgmma.wait.group.sync.aligned 0` before the release}}
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        nvvm.wgmma.wait.group.sync.aligned 0
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// a pipelined consumer (wait_group 1: the previous step's wgmma retired, this one in flight) releases the
// previous step's stage before that wait: the wgmma of the earlier trip may still read it
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        %started = arith.cmpi sge, %c_it, %c1 : i32
        scf.if %started {
          %prev_it = arith.subi %c_it, %c1 : i32
          %prev_stage = arith.remui %prev_it, %c2 : i32
          %prev_slot = arith.muli %prev_stage, %c8 : i32
          %prev_empty_at = arith.addi %prev_slot, %c16 : i32
          %prev_empty = llvm.getelementptr %bars[%prev_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          // expected-error@+1 {{nvvm.mbarrier.arrive: releases the stage of full barrier @smem + 32768 + 8*%prev_stage while mma.wgmma_tile (line 464) may still read it, issued on an earlier trip round the loop on a stage that cannot be told apart from this one; the producer can overwrite the stage under it -- retire that wgmma with `nvvm.wgmma.wait.group.sync.aligned 1` before the release}}
          nvvm.mbarrier.arrive %prev_empty : !llvm.ptr<3>
        }
        nvvm.wgmma.wait.group.sync.aligned 1
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
      nvvm.wgmma.wait.group.sync.aligned 0
    }
    llvm.return
  }
}

// -----

// setmaxnreg without nvvm.minctasm: ptxas ignores it
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      // expected-error@+1 {{nvvm.setmaxregister: the kernel has no `nvvm.minctasm`; ptxas ignores setmaxnreg without it (warning C7508) -- declare nvvm.minctasm = 1 : i32 on @ring}}
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// the producer role split inside a warpgroup (threads 0-63 vs 64-127)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %is_producer = arith.cmpi ult, %tid, %c64 : i32
    scf.if %is_producer {
      // expected-error@+1 {{nvvm.setmaxregister: threads 0 and 64 of warpgroup 0 take different setmaxregister paths; every warp of a warpgroup must execute the same setmaxnreg}}
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// two CTAs per SM at 40 + 256 registers per thread do not fit the register file
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 2 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      // expected-error@+1 {{nvvm.setmaxregister: the warpgroups' register budgets (warpgroup 0: 40, warpgroup 1: 256) need 37888 registers; the CTA is launched with 128 a thread x 256 threads = 32768 (2 CTA(s) per SM of 65536): an increase would wait for registers no warpgroup frees, and the kernel hang}}
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 256
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// a box that ends past the shared memory the kernel declares
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @one(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>, mma.shared_bytes = 8200 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %box = llvm.getelementptr %s[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bar = llvm.getelementptr %s[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %tx = arith.constant 8192 : i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    // expected-error@+1 {{mma.tma_load: its 8192-byte box at @smem + 1024 ends at byte 9216 of shared memory; the kernel declares mma.shared_bytes = 8200}}
    mma.tma_load %ma[%c0, %c0] into %box barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
    llvm.return
  }
}

// -----

// a box loaded in a loop of three trips lands three times its bytes: 32768 against the 24576 posted
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @ring(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32, mma.shared_bytes = 32800 : i32} {
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 64x64, sw128>
    %mb = mma.as_tensor_map %b : !mma.tensor_map<bf16, 64x64, sw128>
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sb = llvm.getelementptr %sa[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %bars = llvm.getelementptr %sa[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %stage_bytes = arith.constant 8192 : i32
    %tx = arith.constant 24576 : i32
    %ticks = arith.constant 10000000 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is_producer = arith.cmpi eq, %wg, %c0 : i32
    scf.if %is_producer {
      nvvm.setmaxregister decrease 40
      %leader = arith.cmpi eq, %tid, %c0 : i32
      scf.if %leader {
        scf.for %p_it = %c0 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          // expected-error@+1 {{nvvm.mbarrier.arrive.expect_tx: posts 24576 bytes on barrier @smem + 32768 + 8*%p_stage, but the mma.tma_load ops that complete on it after it land 32768: 3 x 8192 (!mma.tensor_map<bf16, 64x64, sw128>) + 8192 (!mma.tensor_map<bf16, 64x64, sw128>); the phase completes before the data lands (a race)}}
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %c3 = arith.constant 3 : i32
          scf.for %box = %c0 to %c3 step %c1 : i32 {
            mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          }
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
        }
      }
    } else {
      nvvm.setmaxregister increase 232
      %zero = arith.constant 0.000000e+00 : f32
      %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      %acc = scf.for %c_it = %c0 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %c_off = arith.muli %c_stage, %stage_bytes : i32
        %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
        %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc_in : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
    }
    llvm.return
  }
}

// -----

// a remote expect_tx posts bytes no st.async before it sends: the peer's phase never completes
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @hand_over(%w: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>, nvvm.cluster_dim = array<i32: 2, 1, 1>, mma.shared_bytes = 2056 : i32} {
    %buf = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %bar = llvm.getelementptr %buf[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %one = arith.constant 1 : i32
    %bytes = arith.constant 4096 : i32
    %peer_buf = nvvm.mapa %buf, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    %peer_bar = nvvm.mapa %bar, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    %other = nvvm.mapa %buf, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.st.async %peer_buf, %other, %w, %w, %w, %w : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32
    // expected-error@+1 {{nvvm.mbarrier.arrive.expect_tx: posts 4096 bytes on a remote barrier, but the nvvm.st.async ops of its phase send 0 x 16 bytes}}
    nvvm.mbarrier.arrive.expect_tx %peer_bar, %bytes : !llvm.ptr<7>, i32
    llvm.return
  }
}
