// SM80's cp.async: a thread's 16-byte copy global -> SMEM, its source size register (the rest zero-filled), its
// groups and the wait for all but the newest N of them.
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @copy(%dst: !llvm.ptr<3>, %src: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    nvvm.cp.async.shared.global %dst, %src, 16, cache = cg, %n : !llvm.ptr<3>, !llvm.ptr<1>, i32
    nvvm.cp.async.shared.global %dst, %src, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
    nvvm.cp.async.commit.group
    nvvm.cp.async.wait.group 1
    llvm.return
  }
}

// CHECK-LABEL: .entry copy(
// CHECK:      ld.param.u64 [[DST:%rd[0-9]+]], [copy_param_0];
// CHECK:      ld.param.u64 [[SRC_PARAM:%rd[0-9]+]], [copy_param_1];
// CHECK:      cvta.to.global.u64 [[SRC:%rd[0-9]+]], [[SRC_PARAM]];
// CHECK:      ld.param.u32 [[N:%r[0-9]+]], [copy_param_2];
// CHECK:      cp.async.cg.shared.global [[[DST]]], [[[SRC]]], 16, [[N]];
// CHECK-NEXT: cp.async.ca.shared.global [[[DST]]], [[[SRC]]], 8;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
