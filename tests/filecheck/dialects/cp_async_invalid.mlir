// SM80's cp.async in the nvvm dialect (upstream's op names and syntax): one invalid case per diagnostic, with its
// exact text.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

llvm.func @dst_not_shared(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i32) {
  // expected-error@+1 {{'nvvm.cp.async.shared.global' op nvvm.cp.async.shared.global: the destination must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  nvvm.cp.async.shared.global %g, %g, 16, cache = cg : !llvm.ptr<1>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @src_not_global(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i32) {
  // expected-error@+1 {{'nvvm.cp.async.shared.global' op nvvm.cp.async.shared.global: the source must be !llvm.ptr<1> (a global-memory pointer), not !llvm.ptr<3>}}
  nvvm.cp.async.shared.global %s, %s, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @size_not_legal(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i32) {
  // expected-error@+1 {{'nvvm.cp.async.shared.global' op nvvm.cp.async.shared.global: a copy of 12 bytes; cp.async copies one of 4, 8, 16}}
  nvvm.cp.async.shared.global %s, %g, 12, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @cg_not_16(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i32) {
  // expected-error@+1 {{'nvvm.cp.async.shared.global' op nvvm.cp.async.shared.global: cache = cg copies 16 bytes, not 8 (ca takes 4, 8, 16)}}
  nvvm.cp.async.shared.global %s, %g, 8, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @src_size_not_i32(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %n: i64) {
  // expected-error@+1 {{'nvvm.cp.async.shared.global' op nvvm.cp.async.shared.global: the source size must be i32 (the bytes read; the rest zero-filled), not i64}}
  nvvm.cp.async.shared.global %s, %g, 16, cache = cg, %n : !llvm.ptr<3>, !llvm.ptr<1>, i64
  llvm.return
}

// -----

llvm.func @cache_unknown(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) {
  // expected-error@+1 {{nvvm.cp.async.shared.global: cache = cs; one of ca, cg}}
  nvvm.cp.async.shared.global %s, %g, 16, cache = cs : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @types_not_one_per_operand(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) {
  // expected-error@+1 {{nvvm.cp.async.shared.global: 2 operands and 1 types}}
  nvvm.cp.async.shared.global %s, %g, 16, cache = cg : !llvm.ptr<3>
  llvm.return
}
