// A fragment carried by scf.for becomes its registers as iter_args (the cast pairs fold away), and
// mma.convert unpacks, converts and repacks registers: f32 -> bf16 pairs go through i16 bit casts.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @carry(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %zero = arith.constant 0.000000e+00 : f32
    %lo = arith.constant 0 : i32
    %hi = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %a = mma.load_fragment %pa layout("(16,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<A, bf16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    %b = mma.load_fragment %pb layout("(8,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<B, bf16, "((4,8),(2,2)):((16,1),(8,64))">
    %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %acc = scf.for %i = %lo to %hi step %one iter_args(%c = %acc0) -> (!mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) : i32 {
      %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, bf16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, bf16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
      %next = mma.convert %d : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
      scf.yield %next : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    }
    %h = mma.convert %acc : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, bf16, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %h, %pd layout("(16,8):(8,1)") : !mma.frag<D, bf16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:      builtin.module attributes {mma.target = "sm_80"} {
// CHECK-NEXT: llvm.func @carry(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %lo = arith.constant 0 : i32
// CHECK-NEXT: %hi = arith.constant 4 : i32
// CHECK-NEXT: %one = arith.constant 1 : i32
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
// CHECK-NEXT: %a_15 = llvm.load %a_14 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %a_16 = arith.constant 128 : i32
// CHECK-NEXT: %a_17 = arith.addi %a_11, %a_16 : i32
// CHECK-NEXT: %a_18 = arith.shli %a_17, %a_3 : i32
// CHECK-NEXT: %a_19 = arith.extui %a_18 : i32 to i64
// CHECK-NEXT: %a_20 = llvm.getelementptr %pa[%a_19] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_21 = llvm.load %a_20 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %a_22 = arith.constant 8 : i32
// CHECK-NEXT: %a_23 = arith.addi %a_11, %a_22 : i32
// CHECK-NEXT: %a_24 = arith.shli %a_23, %a_3 : i32
// CHECK-NEXT: %a_25 = arith.extui %a_24 : i32 to i64
// CHECK-NEXT: %a_26 = llvm.getelementptr %pa[%a_25] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_27 = llvm.load %a_26 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %a_28 = arith.constant 136 : i32
// CHECK-NEXT: %a_29 = arith.addi %a_11, %a_28 : i32
// CHECK-NEXT: %a_30 = arith.shli %a_29, %a_3 : i32
// CHECK-NEXT: %a_31 = arith.extui %a_30 : i32 to i64
// CHECK-NEXT: %a_32 = llvm.getelementptr %pa[%a_31] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %a_33 = llvm.load %a_32 : !llvm.ptr<1> -> i32
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
// CHECK-NEXT: %b_15 = llvm.load %b_14 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %b_16 = arith.constant 8 : i32
// CHECK-NEXT: %b_17 = arith.addi %b_11, %b_16 : i32
// CHECK-NEXT: %b_18 = arith.shli %b_17, %b_3 : i32
// CHECK-NEXT: %b_19 = arith.extui %b_18 : i32 to i64
// CHECK-NEXT: %b_20 = llvm.getelementptr %pb[%b_19] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %b_21 = llvm.load %b_20 : !llvm.ptr<1> -> i32
// CHECK-NEXT: %0, %1, %2, %3 = scf.for %i = %lo to %hi step %one iter_args(%4 = %zero, %5 = %zero, %6 = %zero, %7 = %zero) -> (f32, f32, f32, f32) : i32 {
// CHECK-NEXT: %d = nvvm.mma.sync A[%a_15, %a_21, %a_27, %a_33] B[%b_15, %b_21] C[%4, %5, %6, %7] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_1 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_2 = llvm.extractvalue %d[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_3 = llvm.extractvalue %d[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %d_4 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: scf.yield %d_1, %d_2, %d_3, %d_4 : f32, f32, f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: %h = arith.truncf %0 : f32 to bf16
// CHECK-NEXT: %h_1 = arith.truncf %1 : f32 to bf16
// CHECK-NEXT: %h_2 = arith.truncf %2 : f32 to bf16
// CHECK-NEXT: %h_3 = arith.truncf %3 : f32 to bf16
// CHECK-NEXT: %h_4 = arith.bitcast %h : bf16 to i16
// CHECK-NEXT: %h_5 = arith.extui %h_4 : i16 to i32
// CHECK-NEXT: %h_6 = arith.bitcast %h_1 : bf16 to i16
// CHECK-NEXT: %h_7 = arith.extui %h_6 : i16 to i32
// CHECK-NEXT: %h_8 = arith.constant 16 : i32
// CHECK-NEXT: %h_9 = arith.shli %h_7, %h_8 : i32
// CHECK-NEXT: %h_10 = arith.ori %h_5, %h_9 : i32
// CHECK-NEXT: %h_11 = arith.bitcast %h_2 : bf16 to i16
// CHECK-NEXT: %h_12 = arith.extui %h_11 : i16 to i32
// CHECK-NEXT: %h_13 = arith.bitcast %h_3 : bf16 to i16
// CHECK-NEXT: %h_14 = arith.extui %h_13 : i16 to i32
// CHECK-NEXT: %h_15 = arith.shli %h_14, %h_8 : i32
// CHECK-NEXT: %h_16 = arith.ori %h_12, %h_15 : i32
// CHECK-NEXT: %8 = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %9 = arith.constant 3 : i32
// CHECK-NEXT: %10 = arith.andi %8, %9 : i32
// CHECK-NEXT: %11 = arith.constant 1 : i32
// CHECK-NEXT: %12 = arith.shli %10, %11 : i32
// CHECK-NEXT: %13 = arith.constant 2 : i32
// CHECK-NEXT: %14 = arith.shrui %8, %13 : i32
// CHECK-NEXT: %15 = arith.constant 7 : i32
// CHECK-NEXT: %16 = arith.andi %14, %15 : i32
// CHECK-NEXT: %17 = arith.shli %16, %9 : i32
// CHECK-NEXT: %18 = arith.addi %12, %17 : i32
// CHECK-NEXT: %19 = arith.shli %18, %11 : i32
// CHECK-NEXT: %20 = arith.extui %19 : i32 to i64
// CHECK-NEXT: %21 = llvm.getelementptr %pd[%20] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %h_10, %21 : i32, !llvm.ptr<1>
// CHECK-NEXT: %22 = arith.constant 64 : i32
// CHECK-NEXT: %23 = arith.addi %18, %22 : i32
// CHECK-NEXT: %24 = arith.shli %23, %11 : i32
// CHECK-NEXT: %25 = arith.extui %24 : i32 to i64
// CHECK-NEXT: %26 = llvm.getelementptr %pd[%25] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %h_16, %26 : i32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
