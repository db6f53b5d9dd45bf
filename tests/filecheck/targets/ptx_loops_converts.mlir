// PTX for loop-carried values and conversions: a yield that swaps carried registers copies through
// temporaries (a parallel copy), and each float conversion is one cvt with its rounding (to f16 / bf16: one
// cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 per register pair, the upper half's value first).
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @swap(%p: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %a = arith.constant 1 : i32
    %b = arith.constant 2 : i32
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 3 : i32
    %x, %y = scf.for %k = %k0 to %k1 step %a iter_args(%u = %a, %v = %b) -> (i32, i32) : i32 {
      scf.yield %v, %u : i32, i32
    }
    llvm.store %x, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry swap(
// CHECK:      [[FOR:\$L_for_[0-9]+]]:
// CHECK-NEXT: setp.ge.s32 [[P:%p[0-9]+]], [[K:%r[0-9]+]], {{%r[0-9]+}};
// CHECK-NEXT: @[[P]] bra [[END:\$L_end_[0-9]+]];
// yield %v, %u swaps the carried registers: both are read into temporaries before either is written
// CHECK-NEXT: mov.b32 [[T0:%r[0-9]+]], [[V:%r[0-9]+]];
// CHECK-NEXT: mov.b32 [[T1:%r[0-9]+]], [[U:%r[0-9]+]];
// CHECK-NEXT: mov.b32 [[U]], [[T0]];
// CHECK-NEXT: mov.b32 [[V]], [[T1]];
// CHECK-NEXT: add.s32 [[K]], [[K]], {{%r[0-9]+}};
// CHECK-NEXT: bra.uni [[FOR]];
// CHECK-NEXT: [[END]]:

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @converts(%pc: !llvm.ptr<1>, %ph: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pi: !llvm.ptr<1>, %pf: !llvm.ptr<1>, %pg: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %h = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))">
    %bf = mma.convert %h : !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))">
    %i = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))">
    %f = mma.convert %i : !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %wide = mma.convert %f : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f64, "((4,8),(2,2)):((32,1),(16,8))">
    %back = mma.convert %wide : !mma.frag<C, f64, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %bf32 = mma.convert %bf : !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %bf32, %pg layout("(16,8):(8,1)") : !mma.frag<A, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %h, %ph layout("(16,8):(8,1)") : !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %bf, %pb layout("(16,8):(8,1)") : !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %i, %pi layout("(16,8):(8,1)") : !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %back, %pf layout("(16,8):(8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry converts(
// f32 -> f16: one cvt.rn.f16x2.f32 per register pair, the pair's upper value first
// CHECK:      cvt.rn.f16x2.f32 [[H01:%r[0-9]+]], [[C1:%f[0-9]+]], [[C0:%f[0-9]+]];
// CHECK-NEXT: cvt.rn.f16x2.f32 {{%r[0-9]+}}, {{%f[0-9]+}}, {{%f[0-9]+}};
// f16 -> bf16: each half widened to f32 (exact), then rounded a pair per cvt
// CHECK:      cvt.u16.u32 [[H0:%rs[0-9]+]], [[H01]];
// CHECK:      cvt.f32.f16 [[W0:%f[0-9]+]], [[H0]];
// CHECK-NEXT: cvt.f32.f16 [[W1:%f[0-9]+]], {{%rs[0-9]+}};
// CHECK:      cvt.rn.bf16x2.f32 [[BF01:%r[0-9]+]], [[W1]], [[W0]];
// one cvt per value: f32 -> s32 truncates (rzi), s32 -> f32 and f64 -> f32 round to nearest, f32 -> f64 is exact
// CHECK:      cvt.rzi.s32.f32 [[I0:%r[0-9]+]], [[C0]];
// CHECK:      cvt.rn.f32.s32 [[F0:%f[0-9]+]], [[I0]];
// CHECK:      cvt.f64.f32 [[D0:%fd[0-9]+]], [[F0]];
// CHECK:      cvt.rn.f32.f64 {{%f[0-9]+}}, [[D0]];
// bf16 -> f32 is exact: the half moves into the upper 16 bits
// CHECK:      cvt.u16.u32 [[B0:%rs[0-9]+]], [[BF01]];
// CHECK:      cvt.u32.u16 [[U0:%r[0-9]+]], [[B0]];
// CHECK-NEXT: shl.b32 [[S0:%r[0-9]+]], [[U0]], {{%r[0-9]+}};
// CHECK-NEXT: mov.b32 {{%f[0-9]+}}, [[S0]];
