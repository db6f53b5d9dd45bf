// The PTX target emits functions of several blocks: a block a branch jumps to gets a label named after the
// block, a branch to the next block falls through, block arguments are registers that each branch copies
// into (a parallel copy), and a conditional branch with arguments copies on each edge.
// RUN: mmatom-opt %s --split-input-file -p mma-scf-to-branches -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @count(%p: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^loop(%c0, %c0 : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %more = arith.cmpi slt, %i, %n : i32
    cf.cond_br %more, ^step, ^done
  ^step:
    %acc2 = arith.addi %acc, %i : i32
    %i2 = arith.addi %i, %c1 : i32
    cf.br ^loop(%i2, %acc2 : i32, i32)
  ^done:
    llvm.store %acc, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry count(
// CHECK:       ld.param.u32 [[N:%r[0-9]+]], [count_param_1];
// ^loop's arguments are registers, set on entry
// CHECK:       mov.b32 [[I:%r[0-9]+]], [[ZERO:%r[0-9]+]];
// CHECK-NEXT:  mov.b32 [[ACC:%r[0-9]+]], [[ZERO]];
// CHECK-NEXT:  [[LOOP:\$L_loop_[0-9]+]]:
// CHECK-NEXT:  setp.lt.s32 [[MORE:%p[0-9]+]], [[I]], [[N]];
// ^step is the next block: the branch goes to ^done only and ^step falls through
// CHECK-NEXT:  @![[MORE]] bra [[DONE:\$L_done_[0-9]+]];
// CHECK-NEXT:  add.s32 [[ACC2:%r[0-9]+]], [[ACC]], [[I]];
// the back edge copies into ^loop's registers
// CHECK-NEXT:  mov.b32 [[ACC]], [[ACC2]];
// CHECK-NEXT:  add.s32 [[I]], [[I]], {{%r[0-9]+}};
// CHECK-NEXT:  bra.uni [[LOOP]];
// CHECK-NEXT:  [[DONE]]:
// CHECK-NEXT:  st.global.b32 [{{%rd[0-9]+}}], [[ACC]];

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @swap_edges(%p: !llvm.ptr<1>, %x: i32, %y: i32) attributes {nvvm.kernel} {
    %c = arith.cmpi slt, %x, %y : i32
    llvm.cond_br %c, ^join(%x, %y : i32, i32), ^join(%y, %x : i32, i32)
  ^join(%lo: i32, %hi: i32):
    %d = arith.subi %hi, %lo : i32
    llvm.store %d, %p : i32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}

// CHECK-LABEL: .entry swap_edges(
// CHECK:       setp.lt.s32 [[C:%p[0-9]+]], [[X:%r[0-9]+]], [[Y:%r[0-9]+]];
// CHECK-NEXT:  @![[C]] bra [[ELSE:\$L_cond_[0-9]+]];
// each edge copies its own arguments into ^join's (lo, hi): (x, y) on the true edge, which jumps over the
// false edge's (y, x)
// CHECK-NEXT:  mov.b32 [[LO:%r[0-9]+]], [[X]];
// CHECK-NEXT:  mov.b32 [[HI:%r[0-9]+]], [[Y]];
// CHECK-NEXT:  bra.uni [[JOIN:\$L_join_[0-9]+]];
// CHECK-NEXT:  [[ELSE]]:
// CHECK-NEXT:  mov.b32 [[LO]], [[Y]];
// CHECK-NEXT:  mov.b32 [[HI]], [[X]];
// CHECK-NEXT:  [[JOIN]]:
// CHECK-NEXT:  sub.s32 [[D:%r[0-9]+]], [[HI]], [[LO]];
// ^exit is the next block: llvm.br ^exit falls through
// CHECK-NEXT:  st.global.b32 [{{%rd[0-9]+}}], [[D]];
// CHECK-NEXT:  ret;

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @rotate(%p: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    cf.br ^head(%c0, %c1, %c2 : i32, i32, i32)
  ^head(%a: i32, %b: i32, %k: i32):
    %go = arith.cmpi slt, %k, %n : i32
    cf.cond_br %go, ^body, ^exit
  ^exit:
    llvm.store %a, %p : i32, !llvm.ptr<1>
    llvm.return
  ^body:
    %k2 = arith.addi %k, %b : i32
    cf.br ^head(%b, %a, %k2 : i32, i32, i32)
  }
}

// CHECK-LABEL: .entry rotate(
// CHECK:       mov.b32 [[A:%r[0-9]+]], {{%r[0-9]+}};
// CHECK-NEXT:  mov.b32 [[B:%r[0-9]+]], {{%r[0-9]+}};
// CHECK-NEXT:  mov.b32 [[K:%r[0-9]+]], {{%r[0-9]+}};
// CHECK-NEXT:  [[HEAD:\$L_head_[0-9]+]]:
// CHECK-NEXT:  setp.lt.s32 [[GO:%p[0-9]+]], [[K]], {{%r[0-9]+}};
// ^exit comes before ^body: the branch goes to ^body and ^exit falls through
// CHECK-NEXT:  @[[GO]] bra [[BODY:\$L_body_[0-9]+]];
// CHECK-NEXT:  st.global.b32 [{{%rd[0-9]+}}], [[A]];
// CHECK-NEXT:  ret;
// CHECK-NEXT:  [[BODY]]:
// CHECK-NEXT:  add.s32 [[K2:%r[0-9]+]], [[K]], [[B]];
// (a, b, k) <- (b, a, k2) is a parallel copy: every source is read into a temporary before any is written
// CHECK-NEXT:  mov.b32 [[T0:%r[0-9]+]], [[B]];
// CHECK-NEXT:  mov.b32 [[T1:%r[0-9]+]], [[A]];
// CHECK-NEXT:  mov.b32 [[T2:%r[0-9]+]], [[K2]];
// CHECK-NEXT:  mov.b32 [[A]], [[T0]];
// CHECK-NEXT:  mov.b32 [[B]], [[T1]];
// CHECK-NEXT:  mov.b32 [[K]], [[T2]];
// CHECK-NEXT:  bra.uni [[HEAD]];

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

// CHECK-LABEL: .entry while_loop(
// CHECK:       [[WHILE:\$L_while_[0-9]+]]:
// CHECK-NEXT:  setp.lt.s32 [[GO:%p[0-9]+]], [[I:%r[0-9]+]], {{%r[0-9]+}};
// CHECK-NEXT:  add.s32 [[TWICE:%r[0-9]+]], [[S:%r[0-9]+]], [[S]];
// CHECK-NEXT:  @![[GO]] bra [[END:\$L_endwhile_[0-9]+]];
// the do-region's arguments are scf.condition's operands: twice is carried into s
// CHECK-NEXT:  mov.b32 [[S]], [[TWICE]];
// CHECK-NEXT:  add.s32 [[I]], [[I]], {{%r[0-9]+}};
// CHECK-NEXT:  bra.uni [[WHILE]];
// CHECK-NEXT:  [[END]]:
// the loop's result #1 is scf.condition's operand, not the carried register
// CHECK-NEXT:  st.global.b32 [{{%rd[0-9]+}}], [[TWICE]];

// -----

// Logic on predicates (two compares combined: a mask's condition) is .pred logic; PTX has no and.b1.
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @both(%p: !llvm.ptr<1>, %a: i32, %b: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %x = arith.cmpi eq, %a, %c0 : i32
    %y = arith.cmpi slt, %b, %a : i32
    %both = arith.andi %x, %y : i1
    %either = arith.ori %x, %both : i1
    %r = arith.select %either, %a, %b : i32
    llvm.store %r, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: .entry both(
// CHECK:       setp.eq.s32 [[X:%p[0-9]+]],
// CHECK:       setp.lt.s32 [[Y:%p[0-9]+]],
// CHECK:       and.pred [[BOTH:%p[0-9]+]], [[X]], [[Y]];
// CHECK:       or.pred {{%p[0-9]+}}, [[X]], [[BOTH]];
