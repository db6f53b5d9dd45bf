// Launch bounds on a kernel's llvm.func (upstream NVVM spelling): one invalid case per diagnostic.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.reqntid must be an array of 1 to 3 thread counts, such as array<i32: 128>; got 128 : i32}}
  llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = 128 : i32} {
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.reqntid = array<i32: 32, 0>: expected 1 to 3 thread counts, each at least 1}}
  llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 0>} {
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.maxntid = array<i32: 64, 32> asks for 2048 threads; a CTA has at most 1024}}
  llvm.func @k() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 64, 32>} {
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.minctasm must be an integer in [1, 32], such as nvvm.minctasm = 1 : i32; got 0 : i32}}
  llvm.func @k() attributes {nvvm.kernel, nvvm.minctasm = 0 : i32} {
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.maxnreg must be an integer in [1, 255], such as nvvm.maxnreg = 1 : i32; got 256 : i32}}
  llvm.func @k() attributes {nvvm.kernel, nvvm.maxnreg = 256 : i32} {
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.reqntid and nvvm.maxntid together: ptxas rejects the pair as conflicting directives; declare the exact count with nvvm.reqntid alone}}
  llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>, nvvm.maxntid = array<i32: 128>} {
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{'llvm.func' op nvvm.reqntid: launch bounds belong on a kernel (an llvm.func with nvvm.kernel); PTX has them only on .entry functions}}
  llvm.func @helper() attributes {nvvm.reqntid = array<i32: 32>} {
    llvm.return
  }
}
