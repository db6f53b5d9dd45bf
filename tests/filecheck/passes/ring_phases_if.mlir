// verify-pipeline follows a ring counter through an scf.if that carries it: a consumer warpgroup that either
// computes on its fill or, with nothing to compute (a tile's rows past the sequence's end, say), only waits for the
// fill and releases it -- both branches yielding the count they walked to -- walks every fill once, in order
// (passes/ring_phases.py, _if_carrying). ring_phases_invalid.mlir has a branch that advances without waiting.
// RUN: mmatom-opt %s -p verify-pipeline | filecheck %s

// CHECK-LABEL: llvm.func @ring(
// CHECK:      %walked = scf.if %live -> (i32) {
// CHECK:        mma.wgmma_tile
// CHECK:      } else {
// CHECK-NEXT:   nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks
// CHECK-NEXT:   nvvm.mbarrier.arrive %c_empty
// CHECK:      scf.yield %walked : i32

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
          nvvm.mbarrier.try_wait.parity %c_full, %c_phase, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3>
          scf.yield %c_next : i32
        }
        scf.yield %walked : i32
      }
    }
    llvm.return
  }
}
