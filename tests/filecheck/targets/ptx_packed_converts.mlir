// The packed f32 -> f16x2 / bf16x2 conversions: one cvt per register pair, srcA to the upper half, with the
// rounding, relu and satfinite modifiers in PTX's order; ptxas accepts each for sm_80 (tests/unit/targets).
// RUN: mmatom-opt %s -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @pairs(%p: !llvm.ptr<1>, %a: f32, %b: f32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %h = nvvm.convert.f32x2.to.f16x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
    %bf = nvvm.convert.f32x2.to.bf16x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rz>, relu = true} : vector<2xbf16>
    %sat = nvvm.convert.f32x2.to.bf16x2 %b, %a {rnd = #nvvm.fp_rnd_mode<rn>, relu = true, sat = #nvvm.sat_mode<satfinite>} : vector<2xbf16>
    %hw = llvm.bitcast %h : vector<2xf16> to i32
    %bw = llvm.bitcast %bf : vector<2xbf16> to i32
    %sw = llvm.bitcast %sat : vector<2xbf16> to i32
    %x = arith.xori %hw, %bw : i32
    %y = arith.xori %x, %sw : i32
    llvm.store %y, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry pairs(
// CHECK: ld.param.f32 [[A:%f[0-9]+]], [pairs_param_1];
// CHECK: ld.param.f32 [[B:%f[0-9]+]], [pairs_param_2];
// CHECK: cvt.rn.f16x2.f32 [[H:%r[0-9]+]], [[A]], [[B]];
// CHECK-NEXT: cvt.rz.relu.bf16x2.f32 [[BF:%r[0-9]+]], [[A]], [[B]];
// CHECK-NEXT: cvt.rn.relu.satfinite.bf16x2.f32 [[SAT:%r[0-9]+]], [[B]], [[A]];
// CHECK-NEXT: xor.b32 [[X:%r[0-9]+]], [[H]], [[BF]];
// CHECK-NEXT: xor.b32 {{%r[0-9]+}}, [[X]], [[SAT]];
