// What the PTX target cannot emit is a located error (found by fuzzing: a declaration or a multi-block
// llvm.func was a ValueError from Region.block; blocks and branches are emitted now, a switch is not).
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -t ptx

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  // expected-error@+1 {{@helper is a declaration (no body); the PTX target emits functions it has the body of}}
  llvm.func @helper(i32) -> i32
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @branches(%x: i32) attributes {nvvm.kernel} {
    // expected-error@+1 {{the PTX target cannot emit 'cf.switch'}}
    cf.switch %x : i32, [
      default: ^bb1,
      0: ^bb1
    ]
  ^bb1:
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  // expected-error@+1 {{@wide parameter 0 has type i128; a PTX parameter is one of i8..i64, f16, bf16, f32, f64 or a pointer}}
  llvm.func @wide(%x: i128) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  // expected-error@+1 {{@flag parameter 0 has type i1; a PTX parameter is one of i8..i64, f16, bf16, f32, f64 or a pointer}}
  llvm.func @flag(%x: i1) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @exp2_f64(%x: f64) attributes {nvvm.kernel} {
    // expected-error@+1 {{'math.exp2' on f64 is not supported by the PTX target; it takes f32}}
    %e = math.exp2 %x : f64
    llvm.return
  }
}

// -----

// The PTX target runs no pass: structured control flow is lowered first (mma-scf-to-branches, lower-mma-to-ptx).
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @loop(%n: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-error@+1 {{scf.for: the PTX target prints blocks and branches, not structured control flow; run mma-scf-to-branches first (the last step of lower-mma-to-ptx: -p lower-mma-to-ptx -t ptx)}}
    scf.for %i = %c0 to %n step %c1 : i32 {
    }
    llvm.return
  }
}

// -----

// expected-error@+1 {{the module names no chip: add `mma.target = #mma.target<sm_..>`}}
builtin.module {
  llvm.func @kernel() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// i1 values are predicates: PTX has and/or/xor on .pred, no arithmetic
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @predicate_sum(%a: i32, %p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %x = arith.cmpi eq, %a, %c0 : i32
    // expected-error@+1 {{'arith.addi' on i1 is not supported by the PTX target (and, or, xor are)}}
    %y = arith.addi %x, %x : i1
    %r = arith.select %y, %a, %c0 : i32
    llvm.store %r, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}
