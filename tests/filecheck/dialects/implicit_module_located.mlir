// Two top-level modules are read into an implicit module: its diagnostics are at 1:1 of the file, not at 0:0.
// RUN: not mmatom-opt %s -t ptx 2>&1 | filecheck %s

// CHECK: implicit_module_located.mlir:1:1: error: the module names no chip
builtin.module {
}
builtin.module {
}
