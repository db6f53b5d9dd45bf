// SM120 warp-level atoms, the whole expansion: a block-scaled mxf4nvf4 4X atom (A/B packed e2m1, one
// .b32 scale register per lane for SFA and SFB, byte-id/thread-id as i16 immediates) becomes upstream's
// nvvm.mma.block_scale; dense kind::f8f6f4 (fp4/fp6 one per byte, in bits [5:2] / [5:0]) becomes
// nvvm.inline_ptx, since upstream's nvvm.mma.sync has no kind. Then the PTX lines of both atoms.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_120a>} {
  llvm.func @block_scaled(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>, %psfa: !llvm.ptr<1>, %psfb: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = mma.load_fragment %pa layout("(16,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">
    %b = mma.load_fragment %pb layout("(8,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %sfa = mma.load_fragment %psfa layout("(16,4):(4,1)") : !llvm.ptr<1> -> !mma.frag<SFA, ue4m3, "((2,2,8),(4)):((8,0,1),(16))">
    %sfb = mma.load_fragment %psfb layout("(8,4):(4,1)") : !llvm.ptr<1> -> !mma.frag<SFB, ue4m3, "((4,8),(4)):((0,1),(8))">
    %d = mma.block_scale <m16n8k64> "mxf4nvf4" "4X" %a, %b, %c, scales(%sfa, %sfb) {byte_id = 0 : i32, thread_id_a = 0 : i32, thread_id_b = 0 : i32} : !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">, !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<SFA, ue4m3, "((2,2,8),(4)):((8,0,1),(16))">, !mma.frag<SFB, ue4m3, "((4,8),(4)):((0,1),(8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @f8f6f4(%qa: !llvm.ptr<1>, %qb: !llvm.ptr<1>, %qc: !llvm.ptr<1>, %qd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %fa = mma.load_fragment %qa layout("(16,32):(32,1)") : !llvm.ptr<1> -> !mma.frag<A, e2m1_c8, "((4,8),(4,2,2)):((64,1),(16,8,256))">
    %fb = mma.load_fragment %qb layout("(8,32):(32,1)") : !llvm.ptr<1> -> !mma.frag<B, e3m2_c8, "((4,8),(4,2)):((32,1),(8,128))">
    %fc = mma.load_fragment %qc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %fd = mma.sync <m16n8k32> %fa, %fb, %fc {kind = "f8f6f4"} : !mma.frag<A, e2m1_c8, "((4,8),(4,2,2)):((64,1),(16,8,256))">, !mma.frag<B, e3m2_c8, "((4,8),(4,2)):((32,1),(8,128))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %fd, %qd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:      builtin.module attributes {mma.target = "sm_120a"} {
// CHECK-NEXT: llvm.func @block_scaled(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>, %psfa: !llvm.ptr<1>, %psfb: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK-NEXT: %a = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %a_1 = arith.constant 3 : i32
// CHECK-NEXT: %a_2 = arith.andi %a, %a_1 : i32
// CHECK-NEXT: %a_3 = arith.shli %a_2, %a_1 : i32
// CHECK-NEXT: %a_4 = arith.constant 2 : i32
// CHECK-NEXT: %a_5 = arith.shrui %a, %a_4 : i32
// CHECK-NEXT: %a_6 = arith.constant 7 : i32
// CHECK-NEXT: %a_7 = arith.andi %a_5, %a_6 : i32
// CHECK-NEXT: %a_8 = arith.constant 6 : i32
// CHECK-NEXT: %a_9 = arith.shli %a_7, %a_8 : i32
// CHECK-NEXT: %a_10 = arith.addi %a_3, %a_9 : i32
// CHECK-NEXT: %a_11 = arith.shli %a_10, %a_4 : i32
// CHECK-NEXT: %a_12 = arith.shrui %a_11, %a_1 : i32
// CHECK-NEXT: %a_13 = arith.extui %a_12 : i32 to i64
// CHECK-NEXT: %a_14 = llvm.getelementptr %pa[%a_13] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_15 = llvm.load %a_14 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %a_16 = arith.constant 512 : i32
// CHECK-NEXT: %a_17 = arith.addi %a_10, %a_16 : i32
// CHECK-NEXT: %a_18 = arith.shli %a_17, %a_4 : i32
// CHECK-NEXT: %a_19 = arith.shrui %a_18, %a_1 : i32
// CHECK-NEXT: %a_20 = arith.extui %a_19 : i32 to i64
// CHECK-NEXT: %a_21 = llvm.getelementptr %pa[%a_20] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_22 = llvm.load %a_21 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %a_23 = arith.constant 32 : i32
// CHECK-NEXT: %a_24 = arith.addi %a_10, %a_23 : i32
// CHECK-NEXT: %a_25 = arith.shli %a_24, %a_4 : i32
// CHECK-NEXT: %a_26 = arith.shrui %a_25, %a_1 : i32
// CHECK-NEXT: %a_27 = arith.extui %a_26 : i32 to i64
// CHECK-NEXT: %a_28 = llvm.getelementptr %pa[%a_27] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_29 = llvm.load %a_28 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %a_30 = arith.constant 544 : i32
// CHECK-NEXT: %a_31 = arith.addi %a_10, %a_30 : i32
// CHECK-NEXT: %a_32 = arith.shli %a_31, %a_4 : i32
// CHECK-NEXT: %a_33 = arith.shrui %a_32, %a_1 : i32
// CHECK-NEXT: %a_34 = arith.extui %a_33 : i32 to i64
// CHECK-NEXT: %a_35 = llvm.getelementptr %pa[%a_34] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_36 = llvm.load %a_35 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %b = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %b_1 = arith.constant 3 : i32
// CHECK-NEXT: %b_2 = arith.andi %b, %b_1 : i32
// CHECK-NEXT: %b_3 = arith.shli %b_2, %b_1 : i32
// CHECK-NEXT: %b_4 = arith.constant 2 : i32
// CHECK-NEXT: %b_5 = arith.shrui %b, %b_4 : i32
// CHECK-NEXT: %b_6 = arith.constant 7 : i32
// CHECK-NEXT: %b_7 = arith.andi %b_5, %b_6 : i32
// CHECK-NEXT: %b_8 = arith.constant 6 : i32
// CHECK-NEXT: %b_9 = arith.shli %b_7, %b_8 : i32
// CHECK-NEXT: %b_10 = arith.addi %b_3, %b_9 : i32
// CHECK-NEXT: %b_11 = arith.shli %b_10, %b_4 : i32
// CHECK-NEXT: %b_12 = arith.shrui %b_11, %b_1 : i32
// CHECK-NEXT: %b_13 = arith.extui %b_12 : i32 to i64
// CHECK-NEXT: %b_14 = llvm.getelementptr %pb[%b_13] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %b_15 = llvm.load %b_14 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %b_16 = arith.constant 32 : i32
// CHECK-NEXT: %b_17 = arith.addi %b_10, %b_16 : i32
// CHECK-NEXT: %b_18 = arith.shli %b_17, %b_4 : i32
// CHECK-NEXT: %b_19 = arith.shrui %b_18, %b_1 : i32
// CHECK-NEXT: %b_20 = arith.extui %b_19 : i32 to i64
// CHECK-NEXT: %b_21 = llvm.getelementptr %pb[%b_20] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %b_22 = llvm.load %b_21 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %c = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %c_1 = arith.constant 3 : i32
// CHECK-NEXT: %c_2 = arith.andi %c, %c_1 : i32
// CHECK-NEXT: %c_3 = arith.constant 1 : i32
// CHECK-NEXT: %c_4 = arith.shli %c_2, %c_3 : i32
// CHECK-NEXT: %c_5 = arith.constant 2 : i32
// CHECK-NEXT: %c_6 = arith.shrui %c, %c_5 : i32
// CHECK-NEXT: %c_7 = arith.constant 7 : i32
// CHECK-NEXT: %c_8 = arith.andi %c_6, %c_7 : i32
// CHECK-NEXT: %c_9 = arith.shli %c_8, %c_1 : i32
// CHECK-NEXT: %c_10 = arith.addi %c_4, %c_9 : i32
// CHECK-NEXT: %c_11 = arith.shli %c_10, %c_5 : i32
// CHECK-NEXT: %c_12 = arith.extui %c_11 : i32 to i64
// CHECK-NEXT: %c_13 = llvm.getelementptr %pc[%c_12] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %c_14 = llvm.load %c_13 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %c_15 = arith.addi %c_10, %c_3 : i32
// CHECK-NEXT: %c_16 = arith.shli %c_15, %c_5 : i32
// CHECK-NEXT: %c_17 = arith.extui %c_16 : i32 to i64
// CHECK-NEXT: %c_18 = llvm.getelementptr %pc[%c_17] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %c_19 = llvm.load %c_18 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %c_20 = arith.constant 64 : i32
// CHECK-NEXT: %c_21 = arith.addi %c_10, %c_20 : i32
// CHECK-NEXT: %c_22 = arith.shli %c_21, %c_5 : i32
// CHECK-NEXT: %c_23 = arith.extui %c_22 : i32 to i64
// CHECK-NEXT: %c_24 = llvm.getelementptr %pc[%c_23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %c_25 = llvm.load %c_24 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %c_26 = arith.constant 65 : i32
// CHECK-NEXT: %c_27 = arith.addi %c_10, %c_26 : i32
// CHECK-NEXT: %c_28 = arith.shli %c_27, %c_5 : i32
// CHECK-NEXT: %c_29 = arith.extui %c_28 : i32 to i64
// CHECK-NEXT: %c_30 = llvm.getelementptr %pc[%c_29] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %c_31 = llvm.load %c_30 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %sfa = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %sfa_1 = arith.constant 1 : i32
// CHECK-NEXT: %sfa_2 = arith.andi %sfa, %sfa_1 : i32
// CHECK-NEXT: %sfa_3 = arith.constant 5 : i32
// CHECK-NEXT: %sfa_4 = arith.shli %sfa_2, %sfa_3 : i32
// CHECK-NEXT: %sfa_5 = arith.constant 2 : i32
// CHECK-NEXT: %sfa_6 = arith.shrui %sfa, %sfa_5 : i32
// CHECK-NEXT: %sfa_7 = arith.constant 7 : i32
// CHECK-NEXT: %sfa_8 = arith.andi %sfa_6, %sfa_7 : i32
// CHECK-NEXT: %sfa_9 = arith.shli %sfa_8, %sfa_5 : i32
// CHECK-NEXT: %sfa_10 = arith.addi %sfa_4, %sfa_9 : i32
// CHECK-NEXT: %sfa_11 = arith.extui %sfa_10 : i32 to i64
// CHECK-NEXT: %sfa_12 = llvm.getelementptr %psfa[%sfa_11] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %sfa_13 = llvm.load %sfa_12 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %sfb = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %sfb_1 = arith.constant 2 : i32
// CHECK-NEXT: %sfb_2 = arith.shrui %sfb, %sfb_1 : i32
// CHECK-NEXT: %sfb_3 = arith.constant 7 : i32
// CHECK-NEXT: %sfb_4 = arith.andi %sfb_2, %sfb_3 : i32
// CHECK-NEXT: %sfb_5 = arith.shli %sfb_4, %sfb_1 : i32
// CHECK-NEXT: %sfb_6 = arith.extui %sfb_5 : i32 to i64
// CHECK-NEXT: %sfb_7 = llvm.getelementptr %psfb[%sfb_6] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %sfb_8 = llvm.load %sfb_7 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %d = arith.constant 0 : i16
// CHECK-NEXT: %d_1 = arith.constant 0 : i16
// CHECK-NEXT: %d_2 = arith.constant 0 : i16
// CHECK-NEXT: %d_3 = arith.constant 0 : i16
// CHECK-NEXT: %d_4 = nvvm.mma.block_scale A[%a_15, %a_22, %a_29, %a_36] B[%b_15, %b_22] C[%c_14, %c_19, %c_25, %c_31] scaleA[%sfa_13, %d, %d_1] scaleB[%sfb_8, %d_2, %d_3] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_5 = llvm.extractvalue %d_4[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_6 = llvm.extractvalue %d_4[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_7 = llvm.extractvalue %d_4[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_8 = llvm.extractvalue %d_4[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %0 = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %1 = arith.constant 3 : i32
// CHECK-NEXT: %2 = arith.andi %0, %1 : i32
// CHECK-NEXT: %3 = arith.constant 1 : i32
// CHECK-NEXT: %4 = arith.shli %2, %3 : i32
// CHECK-NEXT: %5 = arith.constant 2 : i32
// CHECK-NEXT: %6 = arith.shrui %0, %5 : i32
// CHECK-NEXT: %7 = arith.constant 7 : i32
// CHECK-NEXT: %8 = arith.andi %6, %7 : i32
// CHECK-NEXT: %9 = arith.shli %8, %1 : i32
// CHECK-NEXT: %10 = arith.addi %4, %9 : i32
// CHECK-NEXT: %11 = arith.shli %10, %5 : i32
// CHECK-NEXT: %12 = arith.extui %11 : i32 to i64
// CHECK-NEXT: %13 = llvm.getelementptr %pd[%12] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_5, %13 : f32, !llvm.ptr<1>
// CHECK-NEXT: %14 = arith.addi %10, %3 : i32
// CHECK-NEXT: %15 = arith.shli %14, %5 : i32
// CHECK-NEXT: %16 = arith.extui %15 : i32 to i64
// CHECK-NEXT: %17 = llvm.getelementptr %pd[%16] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_6, %17 : f32, !llvm.ptr<1>
// CHECK-NEXT: %18 = arith.constant 64 : i32
// CHECK-NEXT: %19 = arith.addi %10, %18 : i32
// CHECK-NEXT: %20 = arith.shli %19, %5 : i32
// CHECK-NEXT: %21 = arith.extui %20 : i32 to i64
// CHECK-NEXT: %22 = llvm.getelementptr %pd[%21] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_7, %22 : f32, !llvm.ptr<1>
// CHECK-NEXT: %23 = arith.constant 65 : i32
// CHECK-NEXT: %24 = arith.addi %10, %23 : i32
// CHECK-NEXT: %25 = arith.shli %24, %5 : i32
// CHECK-NEXT: %26 = arith.extui %25 : i32 to i64
// CHECK-NEXT: %27 = llvm.getelementptr %pd[%26] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_8, %27 : f32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @f8f6f4(%qa: !llvm.ptr<1>, %qb: !llvm.ptr<1>, %qc: !llvm.ptr<1>, %qd: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK-NEXT: %fa = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %fa_1 = arith.constant 3 : i32
// CHECK-NEXT: %fa_2 = arith.andi %fa, %fa_1 : i32
// CHECK-NEXT: %fa_3 = arith.constant 2 : i32
// CHECK-NEXT: %fa_4 = arith.shli %fa_2, %fa_3 : i32
// CHECK-NEXT: %fa_5 = arith.shrui %fa, %fa_3 : i32
// CHECK-NEXT: %fa_6 = arith.constant 7 : i32
// CHECK-NEXT: %fa_7 = arith.andi %fa_5, %fa_6 : i32
// CHECK-NEXT: %fa_8 = arith.constant 5 : i32
// CHECK-NEXT: %fa_9 = arith.shli %fa_7, %fa_8 : i32
// CHECK-NEXT: %fa_10 = arith.addi %fa_4, %fa_9 : i32
// CHECK-NEXT: %fa_11 = arith.extui %fa_10 : i32 to i64
// CHECK-NEXT: %fa_12 = llvm.getelementptr %qa[%fa_11] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fa_13 = llvm.load %fa_12 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %fa_14 = arith.constant 256 : i32
// CHECK-NEXT: %fa_15 = arith.addi %fa_10, %fa_14 : i32
// CHECK-NEXT: %fa_16 = arith.extui %fa_15 : i32 to i64
// CHECK-NEXT: %fa_17 = llvm.getelementptr %qa[%fa_16] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fa_18 = llvm.load %fa_17 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %fa_19 = arith.constant 16 : i32
// CHECK-NEXT: %fa_20 = arith.addi %fa_10, %fa_19 : i32
// CHECK-NEXT: %fa_21 = arith.extui %fa_20 : i32 to i64
// CHECK-NEXT: %fa_22 = llvm.getelementptr %qa[%fa_21] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fa_23 = llvm.load %fa_22 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %fa_24 = arith.constant 272 : i32
// CHECK-NEXT: %fa_25 = arith.addi %fa_10, %fa_24 : i32
// CHECK-NEXT: %fa_26 = arith.extui %fa_25 : i32 to i64
// CHECK-NEXT: %fa_27 = llvm.getelementptr %qa[%fa_26] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fa_28 = llvm.load %fa_27 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %fb = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %fb_1 = arith.constant 3 : i32
// CHECK-NEXT: %fb_2 = arith.andi %fb, %fb_1 : i32
// CHECK-NEXT: %fb_3 = arith.constant 2 : i32
// CHECK-NEXT: %fb_4 = arith.shli %fb_2, %fb_3 : i32
// CHECK-NEXT: %fb_5 = arith.shrui %fb, %fb_3 : i32
// CHECK-NEXT: %fb_6 = arith.constant 7 : i32
// CHECK-NEXT: %fb_7 = arith.andi %fb_5, %fb_6 : i32
// CHECK-NEXT: %fb_8 = arith.constant 5 : i32
// CHECK-NEXT: %fb_9 = arith.shli %fb_7, %fb_8 : i32
// CHECK-NEXT: %fb_10 = arith.addi %fb_4, %fb_9 : i32
// CHECK-NEXT: %fb_11 = arith.extui %fb_10 : i32 to i64
// CHECK-NEXT: %fb_12 = llvm.getelementptr %qb[%fb_11] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fb_13 = llvm.load %fb_12 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %fb_14 = arith.constant 16 : i32
// CHECK-NEXT: %fb_15 = arith.addi %fb_10, %fb_14 : i32
// CHECK-NEXT: %fb_16 = arith.extui %fb_15 : i32 to i64
// CHECK-NEXT: %fb_17 = llvm.getelementptr %qb[%fb_16] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fb_18 = llvm.load %fb_17 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %fc = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %fc_1 = arith.constant 3 : i32
// CHECK-NEXT: %fc_2 = arith.andi %fc, %fc_1 : i32
// CHECK-NEXT: %fc_3 = arith.constant 1 : i32
// CHECK-NEXT: %fc_4 = arith.shli %fc_2, %fc_3 : i32
// CHECK-NEXT: %fc_5 = arith.constant 2 : i32
// CHECK-NEXT: %fc_6 = arith.shrui %fc, %fc_5 : i32
// CHECK-NEXT: %fc_7 = arith.constant 7 : i32
// CHECK-NEXT: %fc_8 = arith.andi %fc_6, %fc_7 : i32
// CHECK-NEXT: %fc_9 = arith.shli %fc_8, %fc_1 : i32
// CHECK-NEXT: %fc_10 = arith.addi %fc_4, %fc_9 : i32
// CHECK-NEXT: %fc_11 = arith.shli %fc_10, %fc_5 : i32
// CHECK-NEXT: %fc_12 = arith.extui %fc_11 : i32 to i64
// CHECK-NEXT: %fc_13 = llvm.getelementptr %qc[%fc_12] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fc_14 = llvm.load %fc_13 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %fc_15 = arith.addi %fc_10, %fc_3 : i32
// CHECK-NEXT: %fc_16 = arith.shli %fc_15, %fc_5 : i32
// CHECK-NEXT: %fc_17 = arith.extui %fc_16 : i32 to i64
// CHECK-NEXT: %fc_18 = llvm.getelementptr %qc[%fc_17] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fc_19 = llvm.load %fc_18 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %fc_20 = arith.constant 64 : i32
// CHECK-NEXT: %fc_21 = arith.addi %fc_10, %fc_20 : i32
// CHECK-NEXT: %fc_22 = arith.shli %fc_21, %fc_5 : i32
// CHECK-NEXT: %fc_23 = arith.extui %fc_22 : i32 to i64
// CHECK-NEXT: %fc_24 = llvm.getelementptr %qc[%fc_23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fc_25 = llvm.load %fc_24 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %fc_26 = arith.constant 65 : i32
// CHECK-NEXT: %fc_27 = arith.addi %fc_10, %fc_26 : i32
// CHECK-NEXT: %fc_28 = arith.shli %fc_27, %fc_5 : i32
// CHECK-NEXT: %fc_29 = arith.extui %fc_28 : i32 to i64
// CHECK-NEXT: %fc_30 = llvm.getelementptr %qc[%fc_29] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %fc_31 = llvm.load %fc_30 : !llvm.ptr<1> -> f32
// CHECK-NEXT: %fd, %fd_1, %fd_2, %fd_3 = nvvm.inline_ptx "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};" ro(%fa_13, %fa_18, %fa_23, %fa_28, %fb_13, %fb_18, %fc_14, %fc_19, %fc_25, %fc_31 : i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> f32, f32, f32, f32
// CHECK-NEXT: %28 = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %29 = arith.constant 3 : i32
// CHECK-NEXT: %30 = arith.andi %28, %29 : i32
// CHECK-NEXT: %31 = arith.constant 1 : i32
// CHECK-NEXT: %32 = arith.shli %30, %31 : i32
// CHECK-NEXT: %33 = arith.constant 2 : i32
// CHECK-NEXT: %34 = arith.shrui %28, %33 : i32
// CHECK-NEXT: %35 = arith.constant 7 : i32
// CHECK-NEXT: %36 = arith.andi %34, %35 : i32
// CHECK-NEXT: %37 = arith.shli %36, %29 : i32
// CHECK-NEXT: %38 = arith.addi %32, %37 : i32
// CHECK-NEXT: %39 = arith.shli %38, %33 : i32
// CHECK-NEXT: %40 = arith.extui %39 : i32 to i64
// CHECK-NEXT: %41 = llvm.getelementptr %qd[%40] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %fd, %41 : f32, !llvm.ptr<1>
// CHECK-NEXT: %42 = arith.addi %38, %31 : i32
// CHECK-NEXT: %43 = arith.shli %42, %33 : i32
// CHECK-NEXT: %44 = arith.extui %43 : i32 to i64
// CHECK-NEXT: %45 = llvm.getelementptr %qd[%44] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %fd_1, %45 : f32, !llvm.ptr<1>
// CHECK-NEXT: %46 = arith.constant 64 : i32
// CHECK-NEXT: %47 = arith.addi %38, %46 : i32
// CHECK-NEXT: %48 = arith.shli %47, %33 : i32
// CHECK-NEXT: %49 = arith.extui %48 : i32 to i64
// CHECK-NEXT: %50 = llvm.getelementptr %qd[%49] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %fd_2, %50 : f32, !llvm.ptr<1>
// CHECK-NEXT: %51 = arith.constant 65 : i32
// CHECK-NEXT: %52 = arith.addi %38, %51 : i32
// CHECK-NEXT: %53 = arith.shli %52, %33 : i32
// CHECK-NEXT: %54 = arith.extui %53 : i32 to i64
// CHECK-NEXT: %55 = llvm.getelementptr %qd[%54] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %fd_3, %55 : f32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }

// PTX:      .version 8.7
// PTX-NEXT: .target sm_120a
// PTX:      mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 {%f5, %f6, %f7, %f8}, {%r14, %r19, %r24, %r29}, {%r43, %r48}, {%f1, %f2, %f3, %f4}, %r80, {0, 0}, %r87, {0, 0};
// PTX:      mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 {%f5, %f6, %f7, %f8}, {%r12, %r15, %r18, %r21}, {%r33, %r36}, {%f1, %f2, %f3, %f4};
