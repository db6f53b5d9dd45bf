// llvm.atomicrmw, llvm.fence and nvvm.barrier's reduction: one invalid case per diagnostic, with its exact text.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

llvm.func @rmw_op(%p: !llvm.ptr<1>, %v: i32) {
  // expected-error@+1 {{llvm.atomicrmw: operation fadd; one of add, xchg}}
  %r = llvm.atomicrmw fadd %p, %v acq_rel : !llvm.ptr<1>, i32
  llvm.return
}

// -----

llvm.func @rmw_ordering(%p: !llvm.ptr<1>, %v: i32) {
  // expected-error@+1 {{llvm.atomicrmw: ordering seq_cst; one of monotonic, acquire, release, acq_rel}}
  %r = llvm.atomicrmw add %p, %v seq_cst : !llvm.ptr<1>, i32
  llvm.return
}

// -----

llvm.func @rmw_scope(%p: !llvm.ptr<1>, %v: i32) {
  // expected-error@+1 {{llvm.atomicrmw: syncscope("agent"); one of 'block', 'cluster', 'device' (none: the system)}}
  %r = llvm.atomicrmw add %p, %v syncscope("agent") acq_rel : !llvm.ptr<1>, i32
  llvm.return
}

// -----

llvm.func @rmw_not_global(%s: !llvm.ptr<3>, %v: i32) {
  // expected-error@+1 {{'llvm.atomicrmw' op llvm.atomicrmw: the pointer must be !llvm.ptr<1> (global memory), not !llvm.ptr<3>}}
  %r = llvm.atomicrmw add %s, %v acq_rel : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.func @rmw_type(%p: !llvm.ptr<1>, %v: i16) {
  // expected-error@+1 {{'llvm.atomicrmw' op llvm.atomicrmw: the value is i16 and the result i16; both i32 or both i64}}
  %r = llvm.atomicrmw add %p, %v acq_rel : !llvm.ptr<1>, i16
  llvm.return
}

// -----

llvm.func @rmw_ordering_generic(%p: !llvm.ptr<1>, %v: i32) {
  // expected-error@+1 {{'llvm.atomicrmw' op llvm.atomicrmw: ordering seq_cst; one of monotonic, acquire, release, acq_rel (PTX atom has no seq_cst: a fence before it)}}
  %r = "llvm.atomicrmw"(%p, %v) <{bin_op = "add", ordering = "seq_cst"}> : (!llvm.ptr<1>, i32) -> i32
  llvm.return
}

// -----

llvm.func @fence_ordering() {
  // expected-error@+1 {{llvm.fence: ordering monotonic; one of acquire, release, acq_rel, seq_cst}}
  llvm.fence syncscope("device") monotonic
  llvm.return
}

// -----

llvm.func @fence_scope_generic() {
  // expected-error@+1 {{'llvm.fence' op llvm.fence: syncscope("gpu"); one of 'block', 'cluster', 'device' (none: the system)}}
  "llvm.fence"() <{ordering = "acq_rel", syncscope = "gpu"}> : () -> ()
  llvm.return
}

// -----

llvm.func @barrier_not_a_reduction(%v: i32) {
  // expected-error@+1 {{nvvm.barrier: #nvvm.mma_layout<row> is not a reduction; #nvvm.reduction<and|or|popc>}}
  %r = nvvm.barrier #nvvm.mma_layout<row> %v -> i32
  llvm.return
}

// -----

llvm.func @barrier_reduction_result(%v: i32) {
  // expected-error@+1 {{nvvm.barrier: a reduction's result is i32}}
  %r = nvvm.barrier #nvvm.reduction<or> %v -> i1
  llvm.return
}

// -----

llvm.func @barrier_reduction_parts(%v: i32) {
  // expected-error@+1 {{'nvvm.barrier' op nvvm.barrier: a reduction takes its kind, a predicate and an i32 result together (`#nvvm.reduction<or> %pred -> i32`)}}
  "nvvm.barrier"(%v) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (i32) -> ()
  llvm.return
}
