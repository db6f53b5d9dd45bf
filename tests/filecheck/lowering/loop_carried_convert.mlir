// A fragment carried by scf.for becomes its registers as iter_args (the cast pairs fold away), and
// mma.convert unpacks, converts and repacks registers: f32 -> bf16 is one packed cvt per register pair.
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

// CHECK-LABEL: llvm.func @carry(
// CHECK:      [[ZERO:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK:      [[A0:%.+]] = llvm.load {{%.+}} : !llvm.ptr<1> -> i32
// CHECK:      [[A1:%.+]] = llvm.load {{%.+}} : !llvm.ptr<1> -> i32
// CHECK:      [[A2:%.+]] = llvm.load {{%.+}} : !llvm.ptr<1> -> i32
// CHECK:      [[A3:%.+]] = llvm.load {{%.+}} : !llvm.ptr<1> -> i32
// CHECK:      [[B0:%.+]] = llvm.load {{%.+}} : !llvm.ptr<1> -> i32
// CHECK:      [[B1:%.+]] = llvm.load {{%.+}} : !llvm.ptr<1> -> i32
// the fragment is carried as its four f32 registers, each starting at the fill value
// CHECK-NEXT: [[ACC0:%.+]], [[ACC1:%.+]], [[ACC2:%.+]], [[ACC3:%.+]] = scf.for {{%.+}} = {{%.+}} to {{%.+}} step {{%.+}} iter_args([[C0:%.+]] = [[ZERO]], [[C1:%.+]] = [[ZERO]], [[C2:%.+]] = [[ZERO]], [[C3:%.+]] = [[ZERO]]) -> (f32, f32, f32, f32) : i32 {
// CHECK-NEXT: [[D:%.+]] = nvvm.mma.sync A{{\[}}[[A0]], [[A1]], [[A2]], [[A3]]] B{{\[}}[[B0]], [[B1]]] C{{\[}}[[C0]], [[C1]], [[C2]], [[C3]]]
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-NEXT: [[D0:%.+]] = llvm.extractvalue [[D]][0]
// CHECK-NEXT: [[D1:%.+]] = llvm.extractvalue [[D]][1]
// CHECK-NEXT: [[D2:%.+]] = llvm.extractvalue [[D]][2]
// CHECK-NEXT: [[D3:%.+]] = llvm.extractvalue [[D]][3]
// the D -> C convert and the cast pairs fold away: D's registers are yielded as they are
// CHECK-NEXT: scf.yield [[D0]], [[D1]], [[D2]], [[D3]] : f32, f32, f32, f32
// CHECK-NEXT: }
// f32 -> bf16: one packed cvt per register pair, the pair's upper value first, bitcast to the i32 register
// CHECK-NEXT: [[H01:%.+]] = nvvm.convert.f32x2.to.bf16x2 [[ACC1]], [[ACC0]] {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-NEXT: [[R01:%.+]] = llvm.bitcast [[H01]] : vector<2xbf16> to i32
// CHECK-NEXT: [[H23:%.+]] = nvvm.convert.f32x2.to.bf16x2 [[ACC3]], [[ACC2]] {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-NEXT: [[R23:%.+]] = llvm.bitcast [[H23]] : vector<2xbf16> to i32
// the packed registers stored in order (rows g and g + 8 of the 16x8 bf16 tile)
// CHECK:      llvm.store [[R01]], {{%.+}} : i32, !llvm.ptr<1>
// CHECK:      [[ROW8:%.+]] = arith.constant 64 : i32
// CHECK:      llvm.store [[R23]], {{%.+}} : i32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
