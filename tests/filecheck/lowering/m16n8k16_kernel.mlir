// The whole expansion of one register atom kernel: lane id -> per-register element offsets (shifts and
// masks read off the TV layout and the memory layout), one 32-bit load per register, nvvm.mma.sync
// in upstream spelling, the D struct unpacked and stored.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @atom(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = mma.load_fragment %pa layout("(16,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    %b = mma.load_fragment %pb layout("(8,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:      builtin.module attributes {mma.target = "sm_80"} {
// CHECK-NEXT: llvm.func @atom(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK-NEXT: %a = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %a_1 = arith.constant 3 : i32
// CHECK-NEXT: %a_2 = arith.andi %a, %a_1 : i32
// CHECK-NEXT: %a_3 = arith.constant 1 : i32
// CHECK-NEXT: %a_4 = arith.shli %a_2, %a_3 : i32
// CHECK-NEXT: %a_5 = arith.constant 2 : i32
// CHECK-NEXT: %a_6 = arith.shrui %a, %a_5 : i32
// CHECK-NEXT: %a_7 = arith.constant 7 : i32
// CHECK-NEXT: %a_8 = arith.andi %a_6, %a_7 : i32
// CHECK-NEXT: %a_9 = arith.constant 4 : i32
// CHECK-NEXT: %a_10 = arith.shli %a_8, %a_9 : i32
// CHECK-NEXT: %a_11 = arith.addi %a_4, %a_10 : i32
// CHECK-NEXT: %a_12 = arith.shli %a_11, %a_3 : i32
// CHECK-NEXT: %a_13 = arith.extui %a_12 : i32 to i64
// CHECK-NEXT: %a_14 = llvm.getelementptr %pa[%a_13] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_15 = llvm.load %a_14 : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: %a_16 = arith.constant 128 : i32
// CHECK-NEXT: %a_17 = arith.addi %a_11, %a_16 : i32
// CHECK-NEXT: %a_18 = arith.shli %a_17, %a_3 : i32
// CHECK-NEXT: %a_19 = arith.extui %a_18 : i32 to i64
// CHECK-NEXT: %a_20 = llvm.getelementptr %pa[%a_19] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_21 = llvm.load %a_20 : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: %a_22 = arith.constant 8 : i32
// CHECK-NEXT: %a_23 = arith.addi %a_11, %a_22 : i32
// CHECK-NEXT: %a_24 = arith.shli %a_23, %a_3 : i32
// CHECK-NEXT: %a_25 = arith.extui %a_24 : i32 to i64
// CHECK-NEXT: %a_26 = llvm.getelementptr %pa[%a_25] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_27 = llvm.load %a_26 : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: %a_28 = arith.constant 136 : i32
// CHECK-NEXT: %a_29 = arith.addi %a_11, %a_28 : i32
// CHECK-NEXT: %a_30 = arith.shli %a_29, %a_3 : i32
// CHECK-NEXT: %a_31 = arith.extui %a_30 : i32 to i64
// CHECK-NEXT: %a_32 = llvm.getelementptr %pa[%a_31] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_33 = llvm.load %a_32 : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: %b = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %b_1 = arith.constant 3 : i32
// CHECK-NEXT: %b_2 = arith.andi %b, %b_1 : i32
// CHECK-NEXT: %b_3 = arith.constant 1 : i32
// CHECK-NEXT: %b_4 = arith.shli %b_2, %b_3 : i32
// CHECK-NEXT: %b_5 = arith.constant 2 : i32
// CHECK-NEXT: %b_6 = arith.shrui %b, %b_5 : i32
// CHECK-NEXT: %b_7 = arith.constant 7 : i32
// CHECK-NEXT: %b_8 = arith.andi %b_6, %b_7 : i32
// CHECK-NEXT: %b_9 = arith.constant 4 : i32
// CHECK-NEXT: %b_10 = arith.shli %b_8, %b_9 : i32
// CHECK-NEXT: %b_11 = arith.addi %b_4, %b_10 : i32
// CHECK-NEXT: %b_12 = arith.shli %b_11, %b_3 : i32
// CHECK-NEXT: %b_13 = arith.extui %b_12 : i32 to i64
// CHECK-NEXT: %b_14 = llvm.getelementptr %pb[%b_13] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %b_15 = llvm.load %b_14 : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: %b_16 = arith.constant 8 : i32
// CHECK-NEXT: %b_17 = arith.addi %b_11, %b_16 : i32
// CHECK-NEXT: %b_18 = arith.shli %b_17, %b_3 : i32
// CHECK-NEXT: %b_19 = arith.extui %b_18 : i32 to i64
// CHECK-NEXT: %b_20 = llvm.getelementptr %pb[%b_19] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %b_21 = llvm.load %b_20 : !llvm.ptr<1> -> vector<2xf16>
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
// CHECK-NEXT: %d = nvvm.mma.sync A[%a_15, %a_21, %a_27, %a_33] B[%b_15, %b_21] C[%c_14, %c_19, %c_25, %c_31] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_1 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_2 = llvm.extractvalue %d[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_3 = llvm.extractvalue %d[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_4 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32)>
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
// CHECK-NEXT: llvm.store %d_1, %13 : f32, !llvm.ptr<1>
// CHECK-NEXT: %14 = arith.addi %10, %3 : i32
// CHECK-NEXT: %15 = arith.shli %14, %5 : i32
// CHECK-NEXT: %16 = arith.extui %15 : i32 to i64
// CHECK-NEXT: %17 = llvm.getelementptr %pd[%16] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_2, %17 : f32, !llvm.ptr<1>
// CHECK-NEXT: %18 = arith.constant 64 : i32
// CHECK-NEXT: %19 = arith.addi %10, %18 : i32
// CHECK-NEXT: %20 = arith.shli %19, %5 : i32
// CHECK-NEXT: %21 = arith.extui %20 : i32 to i64
// CHECK-NEXT: %22 = llvm.getelementptr %pd[%21] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_3, %22 : f32, !llvm.ptr<1>
// CHECK-NEXT: %23 = arith.constant 65 : i32
// CHECK-NEXT: %24 = arith.addi %10, %23 : i32
// CHECK-NEXT: %25 = arith.shli %24, %5 : i32
// CHECK-NEXT: %26 = arith.extui %25 : i32 to i64
// CHECK-NEXT: %27 = llvm.getelementptr %pd[%26] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_4, %27 : f32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
