// arith-div-strength-reduce: unsigned / and % by a constant power of two become a shift and a mask, by another
// 32-bit constant with a 32-bit magic number a high multiply and a shift (ptxas turned a register-held `% 4` or
// `% 6` into a reciprocal division); divisors whose magic needs 33 bits (7), signed ops, 64-bit and non-constant
// divisors are left alone.
// RUN: mmatom-opt %s -p arith-div-strength-reduce | filecheck %s

func.func @f(%x: i32, %y: i32, %w: i64) -> (i32, i32, i32, i32, i32, i32, i32, i32, i64) {
  %c4 = arith.constant 4 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c1 = arith.constant 1 : i32
  %c6w = arith.constant 6 : i64
  %q = arith.divui %x, %c4 : i32
  %r = arith.remui %x, %c4 : i32
  %q6 = arith.divui %x, %c6 : i32
  %r6 = arith.remui %x, %c6 : i32
  %q7 = arith.divui %x, %c7 : i32
  %s = arith.divsi %x, %c4 : i32
  %v = arith.remui %x, %y : i32
  %one = arith.remui %x, %c1 : i32
  %wide = arith.divui %w, %c6w : i64
  func.return %q, %r, %q6, %r6, %q7, %s, %v, %one, %wide : i32, i32, i32, i32, i32, i32, i32, i32, i64
}

// CHECK-LABEL: func.func @f
// CHECK:      %[[K2:.*]] = arith.constant 2 : i32
// CHECK:      %[[Q:.*]] = arith.shrui %x, %[[K2]] : i32
// CHECK:      %[[M3:.*]] = arith.constant 3 : i32
// CHECK:      %[[R:.*]] = arith.andi %x, %[[M3]] : i32
// 6: m = ceil(2^34 / 6) = 0xAAAAAAAB (-1431655765 as i32), s = 2
// CHECK:      %[[M6:.*]] = arith.constant -1431655765 : i32
// CHECK-NEXT: %[[S6:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %{{.*}}, %[[HI:.*]] = arith.mului_extended %x, %[[M6]] : i32
// CHECK-NEXT: %[[Q6:.*]] = arith.shrui %[[HI]], %[[S6]] : i32
// CHECK:      %{{.*}}, %[[HI2:.*]] = arith.mului_extended %x, %{{.*}} : i32
// CHECK-NEXT: %[[QR:.*]] = arith.shrui %[[HI2]], %{{.*}} : i32
// CHECK-NEXT: %[[D6:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[BACK:.*]] = arith.muli %[[QR]], %[[D6]] : i32
// CHECK-NEXT: %[[R6:.*]] = arith.subi %x, %[[BACK]] : i32
// CHECK:      %[[Q7:.*]] = arith.divui %x, %c7 : i32
// CHECK:      %[[S:.*]] = arith.divsi %x, %c4 : i32
// CHECK:      %[[V:.*]] = arith.remui %x, %y : i32
// CHECK:      %[[M0:.*]] = arith.constant 0 : i32
// CHECK:      %[[ONE:.*]] = arith.andi %x, %[[M0]] : i32
// CHECK:      %[[WIDE:.*]] = arith.divui %w, %c6w : i64
// CHECK:      func.return %[[Q]], %[[R]], %[[Q6]], %[[R6]], %[[Q7]], %[[S]], %[[V]], %[[ONE]], %[[WIDE]]
