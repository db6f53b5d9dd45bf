// Offsets that cannot wrap: an i64 offset operand (here 3 * 2^30 elements, 12 GiB of f32 past %p) gets 64-bit
// address arithmetic from the thread index on: no arith.trunci of the offset, no 32-bit byte offset widened
// with extui before the getelementptr. Tiles with i32 offsets and small layouts keep 32-bit arithmetic.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @far_tile(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %off = arith.constant 3221225472 : i64
    %c = mma.load_fragment %p [%off] layout("(16,8):(8,1)") : !llvm.ptr<1>, i64 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %c, %p [%off] layout("(16,8):(8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>, i64
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @far_tile
// CHECK:      [[OFF:%.+]] = arith.constant 3221225472 : i64
// CHECK-NEXT: [[LANE:%.+]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: [[T:%.+]] = arith.extui [[LANE]] : i32 to i64
// CHECK-NEXT: {{%.+}} = arith.constant 3 : i64
// CHECK-NEXT: {{%.+}} = arith.andi [[T]], {{%.+}} : i64
// CHECK:      [[THREAD:%.+]] = arith.addi {{%.+}}, {{%.+}} : i64
// CHECK-NEXT: [[BASE:%.+]] = arith.addi [[THREAD]], [[OFF]] : i64
// CHECK-NEXT: [[BYTES:%.+]] = arith.shli [[BASE]], {{%.+}} : i64
// CHECK-NEXT: {{%.+}} = llvm.getelementptr %p{{\[}}[[BYTES]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NOT:  arith.trunci
// CHECK:      llvm.store {{%.+}}, {{%.+}} : f32, !llvm.ptr<1>
// CHECK-NOT:  arith.trunci
// CHECK:      llvm.return
