// SM80's cp.async prints as it is read, in the custom and the generic form (upstream's syntax).
// RUN: mmatom-opt %s | filecheck %s
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s

llvm.func @copies(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i32) {
  nvvm.cp.async.shared.global %s, %g, 16, cache = cg, %n : !llvm.ptr<3>, !llvm.ptr<1>, i32
  nvvm.cp.async.shared.global %s, %g, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.commit.group
  nvvm.cp.async.wait.group 3
  llvm.return
}

// CHECK-LABEL: llvm.func @copies(
// CHECK:      nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 3
