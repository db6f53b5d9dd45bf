// arith-pow2-strength-reduce: unsigned / and % by a constant power of two become a shift and a mask (ptxas
// turned a register-held `% 4` into a reciprocal division); other divisors, signed ops and non-constant
// divisors are left alone.
// RUN: mmatom-opt %s -p arith-pow2-strength-reduce | filecheck %s

func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c4 = arith.constant 4 : i32
  %c6 = arith.constant 6 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.divui %x, %c4 : i32
  %r = arith.remui %x, %c4 : i32
  %q6 = arith.divui %x, %c6 : i32
  %s = arith.divsi %x, %c4 : i32
  %v = arith.remui %x, %y : i32
  %one = arith.remui %x, %c1 : i32
  func.return %q, %r, %q6, %s, %v, %one : i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @f
// CHECK:      %[[K2:.*]] = arith.constant 2 : i32
// CHECK:      %[[Q:.*]] = arith.shrui %x, %[[K2]] : i32
// CHECK:      %[[M3:.*]] = arith.constant 3 : i32
// CHECK:      %[[R:.*]] = arith.andi %x, %[[M3]] : i32
// CHECK:      %[[Q6:.*]] = arith.divui %x, %c6 : i32
// CHECK:      %[[S:.*]] = arith.divsi %x, %c4 : i32
// CHECK:      %[[V:.*]] = arith.remui %x, %y : i32
// CHECK:      %[[M0:.*]] = arith.constant 0 : i32
// CHECK:      %[[ONE:.*]] = arith.andi %x, %[[M0]] : i32
// CHECK:      func.return %[[Q]], %[[R]], %[[Q6]], %[[S]], %[[V]], %[[ONE]]
