// Malformed input found by fuzzing: each is a located diagnostic, never a Python exception.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

builtin.module {
  // expected-error@+1 {{expected ROWSxCOLS of tensor memory, at most 128x512 (lanes x 32-bit columns), such as 128x256}}
  %a = "test.op"() : () -> !mma.tmem<f32, 128x>
}

// -----

builtin.module {
  // expected-error@+1 {{expected ROWSxCOLS of tensor memory, at most 128x512}}
  %a = "test.op"() : () -> !mma.tmem<f32, 99999999999999999999x4>
}

// -----

builtin.module {
  llvm.func @k() attributes {nvvm.kernel} {
    // expected-error@+1 {{wgmma.wait_group 9223372036854775808: the pending-group count is an i64, at most 9223372036854775807}}
    nvvm.wgmma.wait.group.sync.aligned 9223372036854775808
    llvm.return
  }
}

// -----

builtin.module {
  llvm.func @k() attributes {nvvm.kernel} {
    // expected-error@+1 {{-1 pending groups is not legal; N is in [0, 9223372036854775807]}}
    "nvvm.wgmma.wait.group.sync.aligned"() <{group = -1 : i64}> : () -> ()
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{nesting deeper than 100 levels of brackets}}
  %a = "test.op"() {x = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))} : () -> ()
}

// -----

builtin.module {
  // expected-error@+1 {{nests deeper than 32 levels}}
  %a = "test.op"() : () -> !mma.frag<C, f32, "((((((((((((((((((((((((((((((((((((((((4)))))))))))))))))))))))))))))))))))))))):1">
}

// -----

builtin.module {
  // expected-error@+1 {{integer type i99999999999 is wider than 128 bits}}
  %a = "test.op"() : () -> i99999999999
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    // expected-error@+1 {{operand #3 (%later) is used before its definition (it does not dominate this use)}}
    %r = scf.for %i = %c0 to %c4 step %c4 iter_args(%acc = %later) -> (i32) : i32 {
      scf.yield %acc : i32
    }
    %later = arith.constant 1 : i32
    llvm.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{integer literal of 120 characters; the widest integer type (i128) needs at most 39 digits}}
  %a = "test.op"() {x = 100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 : i32} : () -> ()
}

// -----

builtin.module {
  // expected-error@+1 {{float literal 1.0e39 is out of range for its type (it would be +-inf)}}
  %a = arith.constant 1.0e39 : f32
}

// -----

builtin.module {
  // expected-error@+1 {{llvm.mlir.global: 'addr_space' and 'alignment' must be integer attributes (e.g. addr_space = 3 : i32) and 'section' a string}}
  llvm.mlir.global external @smem() {addr_space = "shared"} : !llvm.array<0 x i8>
}

// -----

// A type left open is reported where its '>' is missing, not at the next op.
builtin.module {
  // expected-error@+1 {{'>' expected}}
  %a = "test.op"() : () -> !mma.frag<A, bf16, "((4,8),(2,2,2)):((64,1),(32,8,256))"
  %b = "test.op"() : () -> ()
}

// -----

builtin.module {
  func.func @f() {
    func.return
  // expected-error@+1 {{expected an operation, a block label (^name) or '}' closing the region opened at 105:18; found ']'}}
  ]
}

// -----

// The module's '}' is missing: reported after the last token, naming where the region began.
builtin.module {
  func.func @f() {
    func.return
  // expected-error@+1 {{expected '}' to close the region opened at 114:16; the input ends inside it}}
  }

// -----

builtin.module {
  llvm.func @f() {
    // expected-error@+1 {{'^0' is not a block name mmatom can hold: a letter, '_', '$', '.' or '-' first, as in ^bb0}}
    llvm.br ^0
  }
}

// -----

// A block defined twice after a forward reference (found by fuzzing: a KeyError inside xDSL's block bookkeeping).
builtin.module {
  llvm.func @f() {
    llvm.br ^bb1
  ^bb1:
    llvm.br ^bb1
  // expected-error@+1 {{block ^bb1 is defined twice in this region (first at}}
  ^bb1:
    llvm.return
  }
}
