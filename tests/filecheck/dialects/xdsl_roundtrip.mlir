// RUN: mmatom-opt %s | mmatom-opt | filecheck %s
// Printed IR parses back: scf.execute_region keeps its scf.yield (xDSL 0.74 omitted it when the region has no
// results, and the output did not parse) and its attribute dictionary (xDSL's parser dropped it); a non-ASCII
// attribute name or string, which xDSL prints escaped ("\C3\BF"), lexes back as a string (xDSL took the escaped
// UTF-8 for a bytes literal; found by fuzzing).

builtin.module {
  func.func @no_results() {
    scf.execute_region {
      %c = arith.constant 1 : i32
      scf.yield
    } {tag = 1 : i32}
    func.return
  }
  func.func @unicode() attributes {"ÿname" = "café"} {
    func.return
  }
  func.func @one_result() -> i32 {
    %0 = scf.execute_region -> (i32) {
      %c = arith.constant 2 : i32
      scf.yield %c : i32
    }
    func.return %0 : i32
  }
}

// CHECK-LABEL: func.func @no_results() {
// CHECK-NEXT:    scf.execute_region {
// CHECK-NEXT:      %{{.*}} = arith.constant 1 : i32
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {tag = 1 : i32}
// CHECK-LABEL: func.func @unicode() attributes {"\C3\BFname" = "caf\C3\A9"} {
// CHECK-LABEL: func.func @one_result() -> i32 {
// CHECK-NEXT:    %[[R:.*]] = scf.execute_region -> (i32) {
// CHECK-NEXT:      %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT:      scf.yield %[[C]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : i32
