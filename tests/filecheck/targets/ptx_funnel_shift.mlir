// llvm.intr.fshr (upstream LLVM dialect's funnel shift right: the low word of hi:lo shifted right by the amount
// mod 32) is PTX's shf.r.wrap.b32, whose operands run low word first.
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @window(%p: !llvm.ptr<1>, %lo: i32, %hi: i32, %n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %w = llvm.intr.fshr %hi, %lo, %n : (i32, i32, i32) -> i32
    llvm.store %w, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry window(
// CHECK:      ld.param.u32 [[LO:%r[0-9]+]], [window_param_1];
// CHECK:      ld.param.u32 [[HI:%r[0-9]+]], [window_param_2];
// CHECK:      ld.param.u32 [[N:%r[0-9]+]], [window_param_3];
// CHECK:      shf.r.wrap.b32 [[W:%r[0-9]+]], [[LO]], [[HI]], [[N]];
// CHECK:      st.global.b32 [{{%rd[0-9]+}}], [[W]];
