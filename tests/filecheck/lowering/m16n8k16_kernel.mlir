// The expansion of one register atom kernel: lane id -> per-register element offsets (shifts and
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

// CHECK-LABEL: llvm.func @atom(
// A's lane base, in f16 elements of the row-major 16x16 tile: (lane & 3) * 2 + ((lane >> 2) & 7) * 16
// CHECK:      [[LANE:%.+]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: [[M3:%.+]] = arith.constant 3 : i32
// CHECK-NEXT: [[T:%.+]] = arith.andi [[LANE]], [[M3]]
// CHECK-NEXT: [[ONE:%.+]] = arith.constant 1 : i32
// CHECK-NEXT: [[COL:%.+]] = arith.shli [[T]], [[ONE]]
// CHECK-NEXT: [[TWO:%.+]] = arith.constant 2 : i32
// CHECK-NEXT: [[G:%.+]] = arith.shrui [[LANE]], [[TWO]]
// CHECK-NEXT: [[M7:%.+]] = arith.constant 7 : i32
// CHECK-NEXT: [[GROUP:%.+]] = arith.andi [[G]], [[M7]]
// CHECK-NEXT: [[FOUR:%.+]] = arith.constant 4 : i32
// CHECK-NEXT: [[ROW:%.+]] = arith.shli [[GROUP]], [[FOUR]]
// CHECK-NEXT: [[A_BASE:%.+]] = arith.addi [[COL]], [[ROW]]
// register 0 at the base; one 32-bit load (two f16) per register, byte offset = element * 2
// CHECK-NEXT: [[A0_B:%.+]] = arith.shli [[A_BASE]], [[ONE]]
// CHECK-NEXT: [[A0_X:%.+]] = arith.extui [[A0_B]] : i32 to i64
// CHECK-NEXT: [[A0_P:%.+]] = llvm.getelementptr %pa{{\[}}[[A0_X]]]
// CHECK-NEXT: [[A0:%.+]] = llvm.load [[A0_P]] : !llvm.ptr<1> -> vector<2xf16>
// registers 1..3 at element offsets 128 (row + 8), 8 (k + 8), 136
// CHECK-NEXT: [[A1_K:%.+]] = arith.constant 128 : i32
// CHECK-NEXT: [[A1_E:%.+]] = arith.addi [[A_BASE]], [[A1_K]]
// CHECK-NEXT: [[A1_B:%.+]] = arith.shli [[A1_E]], [[ONE]]
// CHECK-NEXT: [[A1_X:%.+]] = arith.extui [[A1_B]] : i32 to i64
// CHECK-NEXT: [[A1_P:%.+]] = llvm.getelementptr %pa{{\[}}[[A1_X]]]
// CHECK-NEXT: [[A1:%.+]] = llvm.load [[A1_P]] : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: [[A2_K:%.+]] = arith.constant 8 : i32
// CHECK-NEXT: [[A2_E:%.+]] = arith.addi [[A_BASE]], [[A2_K]]
// CHECK-NEXT: [[A2_B:%.+]] = arith.shli [[A2_E]], [[ONE]]
// CHECK-NEXT: [[A2_X:%.+]] = arith.extui [[A2_B]] : i32 to i64
// CHECK-NEXT: [[A2_P:%.+]] = llvm.getelementptr %pa{{\[}}[[A2_X]]]
// CHECK-NEXT: [[A2:%.+]] = llvm.load [[A2_P]] : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: [[A3_K:%.+]] = arith.constant 136 : i32
// CHECK-NEXT: [[A3_E:%.+]] = arith.addi [[A_BASE]], [[A3_K]]
// CHECK-NEXT: [[A3_B:%.+]] = arith.shli [[A3_E]], [[ONE]]
// CHECK-NEXT: [[A3_X:%.+]] = arith.extui [[A3_B]] : i32 to i64
// CHECK-NEXT: [[A3_P:%.+]] = llvm.getelementptr %pa{{\[}}[[A3_X]]]
// CHECK-NEXT: [[A3:%.+]] = llvm.load [[A3_P]] : !llvm.ptr<1> -> vector<2xf16>
// B (col-major 8x16, i.e. (8,16):(16,1)): the same lane base, registers at element offsets 0 and 8
// CHECK:      [[B_BASE:%.+]] = arith.addi
// CHECK-NEXT: [[B0_B:%.+]] = arith.shli [[B_BASE]]
// CHECK-NEXT: [[B0_X:%.+]] = arith.extui [[B0_B]]
// CHECK-NEXT: [[B0_P:%.+]] = llvm.getelementptr %pb{{\[}}[[B0_X]]]
// CHECK-NEXT: [[B0:%.+]] = llvm.load [[B0_P]] : !llvm.ptr<1> -> vector<2xf16>
// CHECK-NEXT: [[B1_K:%.+]] = arith.constant 8 : i32
// CHECK-NEXT: [[B1_E:%.+]] = arith.addi [[B_BASE]], [[B1_K]]
// CHECK:      [[B1_P:%.+]] = llvm.getelementptr %pb
// CHECK-NEXT: [[B1:%.+]] = llvm.load [[B1_P]] : !llvm.ptr<1> -> vector<2xf16>
// C (row-major 16x8 f32): lane base (lane & 3) * 2 + ((lane >> 2) & 7) * 8, one f32 per register at 0, 1, 64, 65
// CHECK:      [[C_LANE:%.+]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: [[C_THREE:%.+]] = arith.constant 3 : i32
// CHECK-NEXT: [[C_T:%.+]] = arith.andi [[C_LANE]], [[C_THREE]]
// CHECK-NEXT: [[C_ONE:%.+]] = arith.constant 1 : i32
// CHECK-NEXT: [[C_COL:%.+]] = arith.shli [[C_T]], [[C_ONE]]
// CHECK-NEXT: [[C_TWO:%.+]] = arith.constant 2 : i32
// CHECK-NEXT: [[C_G:%.+]] = arith.shrui [[C_LANE]], [[C_TWO]]
// CHECK-NEXT: [[C_M7:%.+]] = arith.constant 7 : i32
// CHECK-NEXT: [[C_GROUP:%.+]] = arith.andi [[C_G]], [[C_M7]]
// CHECK-NEXT: [[C_ROW:%.+]] = arith.shli [[C_GROUP]], [[C_THREE]]
// CHECK-NEXT: [[C_BASE:%.+]] = arith.addi [[C_COL]], [[C_ROW]]
// CHECK-NEXT: [[C_FOUR:%.+]] = arith.shli [[C_BASE]], [[C_TWO]] :
// CHECK-NEXT: [[C0_X:%.+]] = arith.extui [[C_FOUR]]
// CHECK-NEXT: [[C0_P:%.+]] = llvm.getelementptr %pc{{\[}}[[C0_X]]]
// CHECK-NEXT: [[C0:%.+]] = llvm.load [[C0_P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT: [[C1_E:%.+]] = arith.addi [[C_BASE]], [[C_ONE]]
// CHECK-NEXT: [[C1_B:%.+]] = arith.shli [[C1_E]], [[C_TWO]]
// CHECK-NEXT: [[C1_X:%.+]] = arith.extui [[C1_B]] : i32 to i64
// CHECK-NEXT: [[C1_P:%.+]] = llvm.getelementptr %pc{{\[}}[[C1_X]]]
// CHECK-NEXT: [[C1:%.+]] = llvm.load [[C1_P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT: [[C2_K:%.+]] = arith.constant 64 : i32
// CHECK-NEXT: [[C2_E:%.+]] = arith.addi [[C_BASE]], [[C2_K]]
// CHECK-NEXT: [[C2_B:%.+]] = arith.shli [[C2_E]], [[C_TWO]]
// CHECK-NEXT: [[C2_X:%.+]] = arith.extui [[C2_B]] : i32 to i64
// CHECK-NEXT: [[C2_P:%.+]] = llvm.getelementptr %pc{{\[}}[[C2_X]]]
// CHECK-NEXT: [[C2:%.+]] = llvm.load [[C2_P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT: [[C3_K:%.+]] = arith.constant 65 : i32
// CHECK-NEXT: [[C3_E:%.+]] = arith.addi [[C_BASE]], [[C3_K]]
// CHECK-NEXT: [[C3_B:%.+]] = arith.shli [[C3_E]], [[C_TWO]]
// CHECK-NEXT: [[C3_X:%.+]] = arith.extui [[C3_B]] : i32 to i64
// CHECK-NEXT: [[C3_P:%.+]] = llvm.getelementptr %pc{{\[}}[[C3_X]]]
// CHECK-NEXT: [[C3:%.+]] = llvm.load [[C3_P]] : !llvm.ptr<1> -> f32
// nvvm.mma.sync in upstream spelling, each operand slot bound to its registers in order
// CHECK-NEXT: [[D:%.+]] = nvvm.mma.sync A{{\[}}[[A0]], [[A1]], [[A2]], [[A3]]] B{{\[}}[[B0]], [[B1]]] C{{\[}}[[C0]], [[C1]], [[C2]], [[C3]]]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: [[D0:%.+]] = llvm.extractvalue [[D]][0]
// CHECK-NEXT: [[D1:%.+]] = llvm.extractvalue [[D]][1]
// CHECK-NEXT: [[D2:%.+]] = llvm.extractvalue [[D]][2]
// CHECK-NEXT: [[D3:%.+]] = llvm.extractvalue [[D]][3]
// D stored with C's addressing: values 0..3 at element offsets 0, 1, 64, 65
// CHECK:      [[D_ONE:%.+]] = arith.constant 1 : i32
// CHECK:      [[D_BASE:%.+]] = arith.addi
// CHECK-NEXT: [[S0_B:%.+]] = arith.shli [[D_BASE]], [[D_TWO:%.+]] :
// CHECK-NEXT: [[S0_X:%.+]] = arith.extui [[S0_B]]
// CHECK-NEXT: [[S0_P:%.+]] = llvm.getelementptr %pd{{\[}}[[S0_X]]]
// CHECK-NEXT: llvm.store [[D0]], [[S0_P]] : f32
// CHECK-NEXT: [[S1_E:%.+]] = arith.addi [[D_BASE]], [[D_ONE]]
// CHECK-NEXT: [[S1_B:%.+]] = arith.shli [[S1_E]], [[D_TWO]]
// CHECK-NEXT: [[S1_X:%.+]] = arith.extui [[S1_B]] : i32 to i64
// CHECK-NEXT: [[S1_P:%.+]] = llvm.getelementptr %pd{{\[}}[[S1_X]]]
// CHECK-NEXT: llvm.store [[D1]], [[S1_P]] : f32
// CHECK-NEXT: [[S2_K:%.+]] = arith.constant 64 : i32
// CHECK-NEXT: [[S2_E:%.+]] = arith.addi [[D_BASE]], [[S2_K]]
// CHECK-NEXT: [[S2_B:%.+]] = arith.shli [[S2_E]], [[D_TWO]]
// CHECK-NEXT: [[S2_X:%.+]] = arith.extui [[S2_B]] : i32 to i64
// CHECK-NEXT: [[S2_P:%.+]] = llvm.getelementptr %pd{{\[}}[[S2_X]]]
// CHECK-NEXT: llvm.store [[D2]], [[S2_P]] : f32
// CHECK-NEXT: [[S3_K:%.+]] = arith.constant 65 : i32
// CHECK-NEXT: [[S3_E:%.+]] = arith.addi [[D_BASE]], [[S3_K]]
// CHECK-NEXT: [[S3_B:%.+]] = arith.shli [[S3_E]], [[D_TWO]]
// CHECK-NEXT: [[S3_X:%.+]] = arith.extui [[S3_B]] : i32 to i64
// CHECK-NEXT: [[S3_P:%.+]] = llvm.getelementptr %pd{{\[}}[[S3_X]]]
// CHECK-NEXT: llvm.store [[D3]], [[S3_P]] : f32
// CHECK-NEXT: llvm.return
