// Warp shuffles and fast math in upstream NVVM's spelling (dialects/nvvm_warp.py): they round-trip as upstream
// prints them, and the PTX target emits one instruction each -- shfl.sync.<kind>.b32 with the member mask last
// (upstream puts it first), ex2.approx.ftz.f32 (ex2.approx.f32 without ftz), rcp.approx.ftz.f32, bar.warp.sync; arith.maxnumf
// (mmatom.max_value on floats) is PTX max.f32.
// RUN: mmatom-opt %s | filecheck %s --check-prefix=IR
// RUN: mmatom-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s --check-prefix=IR
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @warp(%p: !llvm.ptr<1>, %x: f32, %i: i32, %lane: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %all = arith.constant -1 : i32
    %c31 = arith.constant 31 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %b = nvvm.shfl.sync bfly %all, %x, %c1, %c31 : f32 -> f32
    %m = arith.maxnumf %x, %b : f32
    %j = nvvm.shfl.sync idx %all, %i, %lane, %c31 : i32 -> i32
    %d = nvvm.shfl.sync down %all, %m, %c2, %c31 : f32 -> f32
    %u = nvvm.shfl.sync up %all, %d, %c2, %c0 : f32 -> f32
    %e = nvvm.ex2 %u {ftz = true} : f32
    %e2 = nvvm.ex2 %e : f32
    %r = nvvm.rcp.approx.ftz.f %e2 : f32
    nvvm.bar.warp.sync %all : i32
    llvm.store %r, %p : f32, !llvm.ptr<1>
    %q = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    llvm.store %j, %q : i32, !llvm.ptr<1>
    llvm.return
  }
}

// IR-LABEL: llvm.func @warp
// IR:      %b = nvvm.shfl.sync bfly %all, %x, %c1, %c31 : f32 -> f32
// IR:      %j = nvvm.shfl.sync idx %all, %i, %lane, %c31 : i32 -> i32
// IR:      %d = nvvm.shfl.sync down %all, %m, %c2, %c31 : f32 -> f32
// IR:      %u = nvvm.shfl.sync up %all, %d, %c2, %c0 : f32 -> f32
// IR-NEXT: %e = nvvm.ex2 %u {ftz = true} : f32
// IR-NEXT: %e2 = nvvm.ex2 %e : f32
// IR-NEXT: %r = nvvm.rcp.approx.ftz.f %e2 : f32
// IR-NEXT: nvvm.bar.warp.sync %all : i32

// the kind in the generic form parses back (it printed as #nvvm.shfl_kindbfly, which did not: fuzz seed 23)
// GENERIC: "nvvm.shfl.sync"(%all, %x, %c1, %c31) <{kind = #nvvm<shfl_kind bfly>}> : (i32, f32, i32, i32) -> f32
// GENERIC: <{kind = #nvvm<shfl_kind up>}>
// GENERIC: "nvvm.bar.warp.sync"(%all) : (i32) -> ()

// CHECK-LABEL: .entry warp(
// CHECK:      ld.param.f32 [[X:%f[0-9]+]], [warp_param_1];
// CHECK:      ld.param.u32 [[I:%r[0-9]+]], [warp_param_2];
// CHECK:      ld.param.u32 [[LANE:%r[0-9]+]], [warp_param_3];
// CHECK:      shfl.sync.bfly.b32 [[B:%f[0-9]+]], [[X]], 1, 31, -1;
// CHECK-NEXT: max.f32 [[M:%f[0-9]+]], [[X]], [[B]];
// CHECK-NEXT: shfl.sync.idx.b32 [[J:%r[0-9]+]], [[I]], [[LANE]], 31, -1;
// CHECK-NEXT: shfl.sync.down.b32 [[D:%f[0-9]+]], [[M]], 2, 31, -1;
// CHECK-NEXT: shfl.sync.up.b32 [[U:%f[0-9]+]], [[D]], 2, 0, -1;
// CHECK-NEXT: ex2.approx.ftz.f32 [[E:%f[0-9]+]], [[U]];
// CHECK-NEXT: ex2.approx.f32 [[E2:%f[0-9]+]], [[E]];
// CHECK-NEXT: rcp.approx.ftz.f32 [[R:%f[0-9]+]], [[E2]];
// CHECK-NEXT: bar.warp.sync -1;
// CHECK:      st.global.f32 [{{%rd[0-9]+}}], [[R]];
// CHECK:      st.global.b32 [{{%rd[0-9]+}}], [[J]];
