// arith.cmpi on i1 operands: PTX has no setp on predicates, so each is first a 32-bit register (selp: true is -1
// where the comparison is signed, as i1's signed value, and 1 where unsigned), then compared like any integer.
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @predicates(%p: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %a = arith.cmpi slt, %x, %y : i32
    %b = arith.cmpi eq, %x, %y : i32
    %same = arith.cmpi eq, %a, %b : i1
    %less = arith.cmpi ult, %a, %b : i1
    %both = arith.andi %same, %less : i1
    %r = arith.extui %both : i1 to i32
    llvm.store %r, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry predicates(
// CHECK:      setp.lt.s32 [[A:%p[0-9]+]],
// CHECK:      setp.eq.s32 [[B:%p[0-9]+]],
// CHECK:      selp.b32 [[SA:%r[0-9]+]], -1, 0, [[A]];
// CHECK-NEXT: selp.b32 [[SB:%r[0-9]+]], -1, 0, [[B]];
// CHECK-NEXT: setp.eq.s32 {{%p[0-9]+}}, [[SA]], [[SB]];
// CHECK:      selp.b32 [[UA:%r[0-9]+]], 1, 0, [[A]];
// CHECK-NEXT: selp.b32 [[UB:%r[0-9]+]], 1, 0, [[B]];
// CHECK-NEXT: setp.lt.u32 {{%p[0-9]+}}, [[UA]], [[UB]];
// CHECK-NOT:  .s1
