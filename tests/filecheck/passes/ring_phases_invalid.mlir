// One invalid case per diagnostic of verify-pipeline's ring-phase check (passes/ring_phases.py): a parity wait
// cannot tell a phase from the one two before it, so each wait's ring counter must visit every iteration once,
// in order, from 0 (or, for a consumer that skips, take turns with the consumer it follows). Each case varies
// the ring of pipeline.mlir.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p verify-pipeline

// the producer's wait sits under a condition inside its loop: a trip without it still advances the counter
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
          %p_go = arith.cmpi ult, %p_it, %c7 : i32
          scf.if %p_go {
            %p_stage = arith.remui %p_it, %c2 : i32
            %p_round = arith.divui %p_it, %c2 : i32
            %p_phase = arith.andi %p_round, %c1 : i32
            %p_free = arith.xori %p_phase, %c1 : i32
            %p_slot = arith.muli %p_stage, %c8 : i32
            %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %p_empty_at = arith.addi %p_slot, %c16 : i32
            %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage advances on trips of its loop that do not wait (the wait is under a condition inside it); a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
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

// the producer walks every other iteration (induction step 2)
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
        scf.for %p_it = %c0 to %c8 step %c2 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage is an induction variable with step 2, not 1; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
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

// the producer starts at iteration 1
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
        scf.for %p_it = %c1 to %c8 step %c1 : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage is an induction variable starting at 1, not 0; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
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

// the producer restarts its induction variable at 0 for each of two tiles
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
        scf.for %p_t = %c0 to %c2 step %c1 : i32 {
          scf.for %p_it = %c0 to %c8 step %c1 : i32 {
            %p_stage = arith.remui %p_it, %c2 : i32
            %p_round = arith.divui %p_it, %c2 : i32
            %p_phase = arith.andi %p_round, %c1 : i32
            %p_free = arith.xori %p_phase, %c1 : i32
            %p_slot = arith.muli %p_stage, %c8 : i32
            %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %p_empty_at = arith.addi %p_slot, %c16 : i32
            %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage is an induction variable that restarts at 0 at every trip of an enclosing loop; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
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

// a carried counter that advances by 2 per trip
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
        %p_end = scf.for %p_i = %c0 to %c8 step %c1 iter_args(%p_it = %c0) -> (i32) : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage advances by 2 per trip, not 1; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          %p_next = arith.addi %p_it, %c2 : i32
          scf.yield %p_next : i32
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

// a carried counter re-initialised to 0 for each of two tiles
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
        scf.for %p_t = %c0 to %c2 step %c1 : i32 {
          %p_end = scf.for %p_i = %c0 to %c8 step %c1 iter_args(%p_it = %c0) -> (i32) : i32 {
            %p_stage = arith.remui %p_it, %c2 : i32
            %p_round = arith.divui %p_it, %c2 : i32
            %p_phase = arith.andi %p_round, %c1 : i32
            %p_free = arith.xori %p_phase, %c1 : i32
            %p_slot = arith.muli %p_stage, %c8 : i32
            %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %p_empty_at = arith.addi %p_slot, %c16 : i32
            %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage restarts at 0 at every trip of an enclosing loop while the barriers' phases go on; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
            nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
            nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
            %p_k = arith.muli %p_it, %c64 : i32
            %p_off = arith.muli %p_stage, %stage_bytes : i32
            %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
            mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
            %p_next = arith.addi %p_it, %c1 : i32
            scf.yield %p_next : i32
          }
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

// a carried counter that enters the ring at iteration 1
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
        %p_end = scf.for %p_i = %c0 to %c8 step %c1 iter_args(%p_it = %c1) -> (i32) : i32 {
          %p_stage = arith.remui %p_it, %c2 : i32
          %p_round = arith.divui %p_it, %c2 : i32
          %p_phase = arith.andi %p_round, %c1 : i32
          %p_free = arith.xori %p_phase, %c1 : i32
          %p_slot = arith.muli %p_stage, %c8 : i32
          %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_empty_at = arith.addi %p_slot, %c16 : i32
          %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage enters its loop at 1: neither 0 nor where the thread's previous waits stopped, so it skips the fills between; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
          nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
          %p_k = arith.muli %p_it, %c64 : i32
          %p_off = arith.muli %p_stage, %stage_bytes : i32
          %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
          %p_next = arith.addi %p_it, %c1 : i32
          scf.yield %p_next : i32
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

// a counter carried from tile to tile with 8 iterations skipped between (as a ping-pong consumer's is)
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
        %p_out = scf.for %p_t = %c0 to %c2 step %c1 iter_args(%p_base = %c0) -> (i32) : i32 {
          %p_end = scf.for %p_i = %c0 to %c8 step %c1 iter_args(%p_it = %p_base) -> (i32) : i32 {
            %p_stage = arith.remui %p_it, %c2 : i32
            %p_round = arith.divui %p_it, %c2 : i32
            %p_phase = arith.andi %p_round, %c1 : i32
            %p_free = arith.xori %p_phase, %c1 : i32
            %p_slot = arith.muli %p_stage, %c8 : i32
            %p_full = llvm.getelementptr %bars[%p_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %p_empty_at = arith.addi %p_slot, %c16 : i32
            %p_empty = llvm.getelementptr %bars[%p_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32784 + 8*%p_stage is carried round the enclosing loop as 8 + 1*%p_end, not the count the inner loop reached, so it skips the fills between; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- walk every iteration of the ring, from 0, in order}}
            nvvm.mbarrier.try_wait.parity %p_empty, %p_free, %ticks : !llvm.ptr<3>, i32, i32
            nvvm.mbarrier.arrive.expect_tx %p_full, %tx : !llvm.ptr<3>, i32
            %p_k = arith.muli %p_it, %c64 : i32
            %p_off = arith.muli %p_stage, %stage_bytes : i32
            %p_da = llvm.getelementptr %sa[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %p_db = llvm.getelementptr %sb[%p_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            mma.tma_load %ma[%c0, %p_k] into %p_da barrier %p_full as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
            mma.tma_load %mb[%c0, %p_k] into %p_db barrier %p_full as !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
            %p_next = arith.addi %p_it, %c1 : i32
            scf.yield %p_next : i32
          }
          %p_skip = arith.addi %p_end, %c8 : i32
          scf.yield %p_skip : i32
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

// a consumer that starts at iteration 1, with no other consumer it takes turns with
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
      %acc = scf.for %c_it = %c1 to %c8 step %c1 iter_args(%acc_in = %acc0) -> (!mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32768 + 8*%c_stage is an induction variable starting at 1, not 0; a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- order this loop after the consumer that waits the skipped fills: a named barrier before it (`nvvm.barrier id = X`) that the other consumer warpgroup arrives on after its own loop (`nvvm.barrier.arrive id = X`)}}
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

// a consumer's count carried through an scf.if whose else branch moves it on without waiting (ring_phases_if.mlir
// has both branches wait): that trip's fill is never waited for
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
      %end = scf.for %t = %c0 to %c8 step %c1 iter_args(%c_it = %c0) -> (i32) : i32 {
        %c_stage = arith.remui %c_it, %c2 : i32
        %c_round = arith.divui %c_it, %c2 : i32
        %c_phase = arith.andi %c_round, %c1 : i32
        %c_slot = arith.muli %c_stage, %c8 : i32
        %c_full = llvm.getelementptr %bars[%c_slot] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_empty_at = arith.addi %c_slot, %c16 : i32
        %c_empty = llvm.getelementptr %bars[%c_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %c_next = arith.addi %c_it, %c1 : i32
        %live = arith.cmpi ult, %t, %c7 : i32
        %walked = scf.if %live -> (i32) {
            // expected-error@+1 {{nvvm.mbarrier.try_wait.parity: the ring counter of barrier @smem + 32768 + 8*%c_stage advances on paths that do not wait (a wait under scf.if that does not carry the count); a parity wait cannot tell a phase from the one two before it, so this wait may pass on a fill two behind the one it wants -- order this loop after the consumer that waits the skipped fills: a named barrier before it (`nvvm.barrier id = X`) that the other consumer warpgroup arrives on after its own loop (`nvvm.barrier.arrive id = X`)}}
          nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
          %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
          nvvm.wgmma.fence.aligned
          %c_off = arith.muli %c_stage, %stage_bytes : i32
          %c_pa = llvm.getelementptr %sa[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %c_pb = llvm.getelementptr %sb[%c_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %desc_a = mma.make_desc %c_pa : !llvm.ptr<3> -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
          %desc_b = mma.make_desc %c_pb : !llvm.ptr<3> -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
          %d = mma.wgmma_tile <m64n64k64> %desc_a, %desc_b, %acc0 : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 0
          nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
          scf.yield %c_next : i32
        } else {
          scf.yield %c_next : i32
        }
        scf.yield %walked : i32
      }
    }
    llvm.return
  }
}
