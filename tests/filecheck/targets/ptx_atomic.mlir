// A counter's publication between CTAs: gpu-scope fences, atomics that return the old word, and a named barrier
// that hands one thread's finding to the others (bar.red.or; popc counts).
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @count(%p: !llvm.ptr<1>, %v: i32, %w: i64) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %id = arith.constant 6 : i32
    %n = arith.constant 128 : i32
    llvm.fence syncscope("device") acq_rel
    %old = llvm.atomicrmw add %p, %v syncscope("device") monotonic : !llvm.ptr<1>, i32
    %was = llvm.atomicrmw xchg %p, %w acq_rel : !llvm.ptr<1>, i64
    llvm.fence syncscope("cluster") seq_cst
    %any = nvvm.barrier #nvvm.reduction<or> %old id = %id number_of_threads = %n -> i32
    %all = nvvm.barrier #nvvm.reduction<popc> %v -> i32
    llvm.return
  }
}

// CHECK-LABEL: .entry count(
// CHECK:      cvta.to.global.u64 [[P:%rd[0-9]+]],
// CHECK:      ld.param.u32 [[V:%r[0-9]+]], [count_param_1];
// CHECK:      ld.param.u64 [[W:%rd[0-9]+]], [count_param_2];
// CHECK:      fence.acq_rel.gpu;
// CHECK-NEXT: atom.relaxed.gpu.global.add.u32 [[OLD:%r[0-9]+]], [[[P]]], [[V]];
// CHECK-NEXT: atom.acq_rel.sys.global.exch.b64 %rd{{[0-9]+}}, [[[P]]], [[W]];
// CHECK-NEXT: fence.sc.cluster;
// CHECK-NEXT: setp.ne.b32 [[HELD:%p[0-9]+]], [[OLD]], 0;
// CHECK-NEXT: bar.red.or.pred [[ANY:%p[0-9]+]], 6, 128, [[HELD]];
// CHECK-NEXT: selp.u32 %r{{[0-9]+}}, 1, 0, [[ANY]];
// CHECK-NEXT: setp.ne.b32 [[ONE:%p[0-9]+]], [[V]], 0;
// CHECK-NEXT: bar.red.popc.u32 %r{{[0-9]+}}, 0, [[ONE]];
