// The LLVM dialect's atomics (upstream's llvm.atomicrmw / llvm.fence, which xDSL lacks) and nvvm.barrier's
// reduction form print as they are read, in the custom and the generic form.
// RUN: mmatom-opt %s | filecheck %s
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s

llvm.func @count(%p: !llvm.ptr<1>, %v: i32, %w: i64, %id: i32, %n: i32) {
  llvm.fence syncscope("device") acq_rel
  %old = llvm.atomicrmw add %p, %v syncscope("device") monotonic : !llvm.ptr<1>, i32
  %was = llvm.atomicrmw xchg %p, %w acq_rel : !llvm.ptr<1>, i64
  llvm.fence syncscope("block") seq_cst
  %any = nvvm.barrier #nvvm.reduction<or> %old id = %id number_of_threads = %n -> i32
  %all = nvvm.barrier #nvvm.reduction<popc> %v -> i32
  llvm.return
}

// CHECK-LABEL: llvm.func @count(
// CHECK:      llvm.fence syncscope("device") acq_rel
// CHECK-NEXT: %[[OLD:.*]] = llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT: llvm.atomicrmw xchg %{{.*}}, %{{.*}} acq_rel : !llvm.ptr<1>, i64
// CHECK-NEXT: llvm.fence syncscope("block") seq_cst
// CHECK-NEXT: nvvm.barrier #nvvm.reduction<or> %[[OLD]] id = %{{.*}} number_of_threads = %{{.*}} -> i32
// CHECK-NEXT: nvvm.barrier #nvvm.reduction<popc> %{{.*}} -> i32
