// Fragments crossing function and region boundaries carry their registers (mma-fragments-to-registers).
// RUN: mmatom-opt %s --split-input-file -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s --split-input-file -p mma-fragments-to-registers | filecheck %s --check-prefix=STEP

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  func.func @atom(%a: !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">,
                  %b: !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">,
                  %c: !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> {
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    func.return %d : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
  }
}

// CHECK-LABEL: func.func @atom(
// CHECK-SAME:    [[A0:%.+]]: vector<2xf16>, [[A1:%.+]]: vector<2xf16>, [[A2:%.+]]: vector<2xf16>, [[A3:%.+]]: vector<2xf16>, [[B0:%.+]]: vector<2xf16>, [[B1:%.+]]: vector<2xf16>, [[C0:%.+]]: f32, [[C1:%.+]]: f32, [[C2:%.+]]: f32, [[C3:%.+]]: f32) -> (f32, f32, f32, f32)
// CHECK-NEXT:    [[D:%.+]] = nvvm.mma.sync A[[[A0]], [[A1]], [[A2]], [[A3]]] B[[[B0]], [[B1]]] C[[[C0]], [[C1]], [[C2]], [[C3]]]
// CHECK-NEXT:    [[D0:%.+]] = llvm.extractvalue [[D]][0]
// CHECK-NEXT:    [[D1:%.+]] = llvm.extractvalue [[D]][1]
// CHECK-NEXT:    [[D2:%.+]] = llvm.extractvalue [[D]][2]
// CHECK-NEXT:    [[D3:%.+]] = llvm.extractvalue [[D]][3]
// CHECK-NEXT:    func.return [[D0]], [[D1]], [[D2]], [[D3]] : f32, f32, f32, f32

// STEP-LABEL: func.func @atom(
// STEP-SAME:    -> (f32, f32, f32, f32)
// STEP:         [[FA:%.+]] = builtin.unrealized_conversion_cast {{.*}} : vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16> to !mma.frag<A
// STEP:         [[FD:%.+]] = mma.sync <m16n8k16> [[FA]],
// STEP-NEXT:    [[R:%.+]], [[R1:%.+]], [[R2:%.+]], [[R3:%.+]] = builtin.unrealized_conversion_cast [[FD]] : !mma.frag<D, {{.*}}> to f32, f32, f32, f32
// STEP-NEXT:    func.return [[R]], [[R1]], [[R2]], [[R3]]

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @pick(%pa: !llvm.ptr<1>, %pd: !llvm.ptr<1>, %flag: i32) attributes {nvvm.kernel} {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %c0 = arith.constant 0 : i32
    %cond = arith.cmpi ne, %flag, %c0 : i32
    %r = scf.if %cond -> (!mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) {
      %x = mma.load_fragment %pa layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
      scf.yield %x : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    } else {
      %y = mma.fill %one : f32 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
      scf.yield %y : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    }
    mma.store_fragment %r, %pd layout("(16,8):(8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @pick(
// CHECK:         [[R0:%.+]], [[R1:%.+]], [[R2:%.+]], [[R3:%.+]] = scf.if %{{.+}} -> (f32, f32, f32, f32) {
// CHECK:           [[X0:%.+]] = llvm.load
// CHECK:           [[X1:%.+]] = llvm.load
// CHECK:           [[X2:%.+]] = llvm.load
// CHECK:           [[X3:%.+]] = llvm.load
// CHECK-NEXT:      scf.yield [[X0]], [[X1]], [[X2]], [[X3]] : f32, f32, f32, f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield [[ONE:%.+]], [[ONE]], [[ONE]], [[ONE]] : f32, f32, f32, f32
// CHECK-NEXT:    }
// CHECK:         llvm.store [[R0]],
// CHECK:         llvm.store [[R1]],
// CHECK:         llvm.store [[R2]],
// CHECK:         llvm.store [[R3]],
