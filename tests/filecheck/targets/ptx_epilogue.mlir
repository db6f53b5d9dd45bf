// An epilogue on accumulator elements: mma.extract reads value v of the thread's fragment (its register, or a
// half of a packed f16 register), arith/math ops map it, mma.insert writes it back; the PTX target emits
// neg, setp + selp, fma.rn, ex2.approx, abs, sqrt.rn, lg2.approx.ftz; f32 -> f16 rounds a pair per cvt.rn.f16x2.f32.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @epilogue(%pd: !llvm.ptr<1>, %ph: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %one = arith.constant 1.500000e+00 : f32
    %acc = mma.fill %one : f32 -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %x = mma.extract %acc[2] : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> f32
    %n = arith.negf %x : f32
    %e = math.exp2 %n : f32
    %f = math.fma %e, %x, %n : f32
    %a = math.absf %f : f32
    %sq = math.sqrt %a : f32
    %s = math.log2 %sq : f32
    %zero = arith.constant 0.000000e+00 : f32
    %gt = arith.cmpf ogt, %s, %zero : f32
    %r = arith.select %gt, %s, %zero : f32
    %d = mma.insert %r, %acc[2] : f32, !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    %h = mma.convert %d : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
    %y = mma.extract %h[1] : !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))"> -> f16
    %ny = arith.negf %y : f16
    %h2 = mma.insert %ny, %h[1] : f16, !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %h2, %ph layout("(16,8):(8,1)") : !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .visible .entry epilogue(
// value 2 of the f32 fragment is its own register: each op maps it, one instruction each
// CHECK:       mov.f32 [[X:%f[0-9]+]], 0f3FC00000;
// CHECK:       neg.f32 [[N:%f[0-9]+]], [[X]];
// CHECK:       ex2.approx.f32 [[E:%f[0-9]+]], [[N]];
// CHECK:       fma.rn.f32 [[F:%f[0-9]+]], [[E]], [[X]], [[N]];
// CHECK:       abs.f32 [[A:%f[0-9]+]], [[F]];
// CHECK:       sqrt.rn.f32 [[SQ:%f[0-9]+]], [[A]];
// CHECK:       lg2.approx.ftz.f32 [[S:%f[0-9]+]], [[SQ]];
// CHECK:       mov.f32 [[ZERO:%f[0-9]+]], 0f00000000;
// CHECK:       setp.gt.f32 [[GT:%p[0-9]+]], [[S]], [[ZERO]];
// CHECK:       selp.b32 [[R:%f[0-9]+]], [[S]], [[ZERO]], [[GT]];
// mma.insert put it back as value 2 of the stored fragment
// CHECK:       st.global.f32 [{{%rd[0-9]+}}], [[R]];
// f32 -> f16 rounds a pair per cvt (upper value first): values (0,1) and (2,3), the inserted one in the lower half
// CHECK:       cvt.rn.f16x2.f32 [[H01:%r[0-9]+]], [[X]], [[X]];
// CHECK:       cvt.rn.f16x2.f32 {{%r[0-9]+}}, [[X]], [[R]];
// f16 value 1 is the upper half of the first register: shifted out, negated, put back beside the lower half
// CHECK:       shr.u32 [[UP32:%r[0-9]+]], [[H01]], {{%r[0-9]+}};
// CHECK:       cvt.u16.u32 [[UP:%rs[0-9]+]], [[UP32]];
// CHECK:       neg.f16 [[NEG:%rs[0-9]+]], [[UP]];
// CHECK:       cvt.u16.u32 [[LO:%rs[0-9]+]], [[H01]];
// CHECK:       cvt.u32.u16 [[LO32:%r[0-9]+]], [[LO]];
// CHECK:       cvt.u32.u16 [[NEG32:%r[0-9]+]], [[NEG]];
// CHECK:       shl.b32 [[NEG_HI:%r[0-9]+]], [[NEG32]], {{%r[0-9]+}};
// CHECK:       or.b32 [[PACKED:%r[0-9]+]], [[LO32]], [[NEG_HI]];
// CHECK:       st.global.b32 [{{%rd[0-9]+}}], [[PACKED]];
