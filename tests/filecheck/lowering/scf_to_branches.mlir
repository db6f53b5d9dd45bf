// mma-scf-to-branches: scf.for / scf.if / scf.while inside llvm.func -> blocks and cf branches, in source
// order, each block named for its PTX label: the loop test exits (sge, then ^end) and the step is added last;
// an scf.if without else keeps an empty ^else; scf.while forwards the condition's values (no block arguments
// on the after block or the exit).
// RUN: mmatom-opt %s --split-input-file -p mma-scf-to-branches | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @for_iter_args(%p: !llvm.ptr<1>, %n: i32, %x: f32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %c0) -> (f32, i32) : i32 {
      %a2 = arith.addf %a, %x : f32
      %b2 = arith.addi %b, %i : i32
      scf.yield %a2, %b2 : f32, i32
    }
    llvm.store %r#1, %p : i32, !llvm.ptr<1>
    llvm.store %r#0, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @for_iter_args(
// CHECK-NEXT:    [[C0:%[0-9a-z_]+]] = arith.constant 0 : i32
// CHECK-NEXT:    [[C1:%[0-9a-z_]+]] = arith.constant 1 : i32
// CHECK-NEXT:    cf.br [[FOR:\^for[0-9_]*]]([[C0]], %x, [[C0]] : i32, f32, i32)
// CHECK-NEXT:  [[FOR]]([[I:%[0-9a-z_]+]]: i32, [[A:%[0-9a-z_]+]]: f32, [[B:%[0-9a-z_]+]]: i32):
// CHECK-NEXT:    [[DONE:%[0-9a-z_]+]] = arith.cmpi sge, [[I]], %n : i32
// CHECK-NEXT:    cf.cond_br [[DONE]], [[END:\^end[0-9_]*]], [[BODY:\^body[0-9_]*]]
// CHECK-NEXT:  [[BODY]]:
// CHECK-NEXT:    [[A2:%[0-9a-z_]+]] = arith.addf [[A]], %x : f32
// CHECK-NEXT:    [[B2:%[0-9a-z_]+]] = arith.addi [[B]], [[I]] : i32
// CHECK-NEXT:    [[I_NEXT:%[0-9a-z_]+]] = arith.addi [[I]], [[C1]] : i32
// CHECK-NEXT:    cf.br [[FOR]]([[I_NEXT]], [[A2]], [[B2]] : i32, f32, i32)
// CHECK-NEXT:  [[END]]:
// CHECK-NEXT:    llvm.store [[B]], %p : i32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store [[A]], %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.return

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @nested_if(%p: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel} {
    %c = arith.cmpi slt, %x, %y : i32
    %d = arith.cmpi eq, %x, %y : i32
    %r = scf.if %c -> (i32) {
      %s = arith.addi %x, %y : i32
      scf.if %d {
        llvm.store %s, %p : i32, !llvm.ptr<1>
      }
      scf.yield %s : i32
    } else {
      %t = scf.if %d -> (i32) {
        scf.yield %x : i32
      } else {
        scf.yield %y : i32
      }
      scf.yield %t : i32
    }
    llvm.store %r, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @nested_if(
// CHECK-NEXT:    [[C:%[0-9a-z_]+]] = arith.cmpi slt, %x, %y : i32
// CHECK-NEXT:    [[D:%[0-9a-z_]+]] = arith.cmpi eq, %x, %y : i32
// CHECK-NEXT:    cf.cond_br [[C]], [[THEN:\^then[0-9_]*]], [[ELSE_1:\^else[0-9_]*]]
// CHECK-NEXT:  [[THEN]]:
// CHECK-NEXT:    [[S:%[0-9a-z_]+]] = arith.addi %x, %y : i32
// CHECK-NEXT:    cf.cond_br [[D]], [[THEN_1:\^then[0-9_]*]], [[ELSE:\^else[0-9_]*]]
// CHECK-NEXT:  [[THEN_1]]:
// CHECK-NEXT:    llvm.store [[S]], %p : i32, !llvm.ptr<1>
// CHECK-NEXT:    cf.br [[ENDIF:\^endif[0-9_]*]]
// CHECK-NEXT:  [[ELSE]]:
// CHECK-NEXT:    cf.br [[ENDIF]]
// CHECK-NEXT:  [[ENDIF]]:
// CHECK-NEXT:    cf.br [[ENDIF_2:\^endif[0-9_]*]]([[S]] : i32)
// CHECK-NEXT:  [[ELSE_1]]:
// CHECK-NEXT:    cf.cond_br [[D]], [[THEN_2:\^then[0-9_]*]], [[ELSE_2:\^else[0-9_]*]]
// CHECK-NEXT:  [[THEN_2]]:
// CHECK-NEXT:    cf.br [[ENDIF_1:\^endif[0-9_]*]](%x : i32)
// CHECK-NEXT:  [[ELSE_2]]:
// CHECK-NEXT:    cf.br [[ENDIF_1]](%y : i32)
// CHECK-NEXT:  [[ENDIF_1]]([[T:%[0-9a-z_]+]]: i32):
// CHECK-NEXT:    cf.br [[ENDIF_2]]([[T]] : i32)
// CHECK-NEXT:  [[ENDIF_2]]([[R:%[0-9a-z_]+]]: i32):
// CHECK-NEXT:    llvm.store [[R]], %p : i32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.return

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @while_loop(%p: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
      %go = arith.cmpi slt, %i, %n : i32
      %twice = arith.addi %s, %s : i32
      scf.condition(%go) %i, %twice : i32, i32
    } do {
    ^bb0(%j: i32, %t: i32):
      %j2 = arith.addi %j, %c1 : i32
      scf.yield %j2, %t : i32, i32
    }
    llvm.store %r#1, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @while_loop(
// CHECK-NEXT:    [[C0:%[0-9a-z_]+]] = arith.constant 0 : i32
// CHECK-NEXT:    [[C1:%[0-9a-z_]+]] = arith.constant 1 : i32
// CHECK-NEXT:    cf.br [[WHILE:\^while[0-9_]*]]([[C0]], [[C0]] : i32, i32)
// CHECK-NEXT:  [[WHILE]]([[I:%[0-9a-z_]+]]: i32, [[S:%[0-9a-z_]+]]: i32):
// CHECK-NEXT:    [[GO:%[0-9a-z_]+]] = arith.cmpi slt, [[I]], %n : i32
// CHECK-NEXT:    [[TWICE:%[0-9a-z_]+]] = arith.addi [[S]], [[S]] : i32
// CHECK-NEXT:    cf.cond_br [[GO]], [[DO:\^do[0-9_]*]], [[ENDWHILE:\^endwhile[0-9_]*]]
// CHECK-NEXT:  [[DO]]:
// CHECK-NEXT:    [[J2:%[0-9a-z_]+]] = arith.addi [[I]], [[C1]] : i32
// CHECK-NEXT:    cf.br [[WHILE]]([[J2]], [[TWICE]] : i32, i32)
// CHECK-NEXT:  [[ENDWHILE]]:
// CHECK-NEXT:    llvm.store [[TWICE]], %p : i32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.return
