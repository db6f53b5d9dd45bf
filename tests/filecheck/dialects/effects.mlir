// RUN: mmatom-opt %s -p cse,dce | filecheck %s
// The effect traits let xDSL's generic passes work on mma ops: cse merges two identical register atoms and
// two identical fills, dce drops an atom and a conversion nobody uses, while memory writes (store_fragment)
// and SMEM readers with their own effects stay.

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %zero = arith.constant 0.000000e+00 : f32
    %a = mma.load_fragment %pa layout("(16,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    %b = mma.load_fragment %pb layout("(8,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
    %c1 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %c2 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %d1 = mma.sync <m16n8k16> %a, %b, %c1 : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %d2 = mma.sync <m16n8k16> %a, %b, %c2 : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %unused = mma.sync <m16n8k16> %a, %b, %c1 : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %h = mma.convert %d1 : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d1, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    mma.store_fragment %d2, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
  // A load after a store to memory may see new data: the two loads stay two.
  llvm.func @reload(%p: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %x = mma.load_fragment %p layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %x, %pd layout("(16,8):(8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    %y = mma.load_fragment %p layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %y, %pd layout("(16,8):(8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @k(
// One of each: adjacency is the point (cse merged the pairs, dce dropped the unused sync and convert).
// CHECK:      [[A:%.+]] = mma.load_fragment
// CHECK-NEXT: [[B:%.+]] = mma.load_fragment
// CHECK-NEXT: [[C:%.+]] = mma.fill
// CHECK-NEXT: [[D:%.+]] = mma.sync <m16n8k16> [[A]], [[B]], [[C]]
// CHECK-NOT:  mma.sync
// CHECK-NOT:  mma.convert
// CHECK-NEXT: mma.store_fragment [[D]], %pd
// CHECK-NEXT: mma.store_fragment [[D]], %pd
// CHECK-NEXT: llvm.return

// CHECK-LABEL: llvm.func @reload
// CHECK:       [[X:%.+]] = mma.load_fragment %p
// CHECK-NEXT:  mma.store_fragment [[X]], %pd
// CHECK-NEXT:  [[Y:%.+]] = mma.load_fragment %p
// CHECK-NEXT:  mma.store_fragment [[Y]], %pd
