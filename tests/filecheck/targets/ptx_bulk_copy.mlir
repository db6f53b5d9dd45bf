// A bulk copy without a tensor map (cp.async.bulk): a runtime byte count from global memory to SMEM, completing
// on an mbarrier; it prints as it is read.
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --check-prefix=ROUND

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @rows(%dst: !llvm.ptr<3>, %src: !llvm.ptr<1>, %bar: !llvm.ptr<3>, %n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %bar, %n : !llvm.ptr<3>, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry rows(
// CHECK:      ld.param.u64 [[DST:%rd[0-9]+]], [rows_param_0];
// CHECK:      cvta.to.global.u64 [[SRC:%rd[0-9]+]], {{%rd[0-9]+}};
// CHECK:      ld.param.u64 [[BAR:%rd[0-9]+]], [rows_param_2];
// CHECK:      ld.param.u32 [[N:%r[0-9]+]], [rows_param_3];
// CHECK:      cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [[[DST]]], [[[SRC]]], [[N]], [[[BAR]]];

// ROUND: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>
