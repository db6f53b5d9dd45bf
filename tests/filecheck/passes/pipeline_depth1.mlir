// A pipelined consumer: it keeps one wgmma group in flight (wait_group 1) and releases the previous K step's
// stage after that wait, the accumulator carried into the next step's wgmma while in flight (a role-only
// mma.convert, no instruction). verify-pipeline and the wgmma lifecycle accept it; in the PTX the carried
// accumulator stays in the wgmma's own registers: no copy reads them while the wgmma is in flight (ptxas would
// serialize the wgmma, C7514). pipeline_invalid.mlir has the release before the wait.
// RUN: mmatom-opt %s -p verify-pipeline,verify-wgmma-lifecycle | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func @ring(
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %prev_empty

// PTX-LABEL: .entry ring(
// PTX: wgmma.fence.sync.aligned;
// PTX-NOT: mov.b32 %f
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {[[ACC:%f[0-9]+]],
// PTX-NOT: mov.b32 %f
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// PTX-NOT: mov.b32 %f
// PTX: mbarrier.arrive.shared::cta.b64
// PTX-NOT: mov.b32 %f
// PTX: wgmma.wait_group.sync.aligned 0;

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
        nvvm.wgmma.wait.group.sync.aligned 1
        %started = arith.cmpi sge, %c_it, %c1 : i32
        scf.if %started {
          %prev_it = arith.subi %c_it, %c1 : i32
          %prev_stage = arith.remui %prev_it, %c2 : i32
          %prev_slot = arith.muli %prev_stage, %c8 : i32
          %prev_empty_at = arith.addi %prev_slot, %c16 : i32
          %prev_empty = llvm.getelementptr %bars[%prev_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          nvvm.mbarrier.arrive %prev_empty : !llvm.ptr<3>
        }
        %next = mma.convert %d : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
        scf.yield %next : !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      %last_stage = arith.constant 1 : i32
      %last_slot = arith.muli %last_stage, %c8 : i32
      %last_empty_at = arith.addi %last_slot, %c16 : i32
      %last_empty = llvm.getelementptr %bars[%last_empty_at] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      nvvm.mbarrier.arrive %last_empty : !llvm.ptr<3>
    }
    llvm.return
  }
}

