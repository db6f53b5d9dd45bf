// Programmatic dependent launch in upstream NVVM's spelling (dialects/nvvm_hopper.py): nvvm.griddepcontrol.wait and
// nvvm.griddepcontrol.launch.dependents round-trip as upstream prints them, and the PTX target emits one instruction
// each, where the kernel put them: the set-up before the wait, the global load after it.
// RUN: mmatom-opt %s | filecheck %s --check-prefix=IR
// RUN: mmatom-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s --check-prefix=IR
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @dependent(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    nvvm.griddepcontrol.wait
    %x = llvm.load %p : !llvm.ptr<1> -> f32
    nvvm.griddepcontrol.launch.dependents
    llvm.store %x, %q : f32, !llvm.ptr<1>
    llvm.return
  }
}

// IR-LABEL: llvm.func @dependent
// IR:      %tid = nvvm.read.ptx.sreg.tid.x : i32
// IR-NEXT: nvvm.griddepcontrol.wait
// IR-NEXT: %x = llvm.load %p : !llvm.ptr<1> -> f32
// IR-NEXT: nvvm.griddepcontrol.launch.dependents

// GENERIC: "nvvm.griddepcontrol.wait"() : () -> ()
// GENERIC: "nvvm.griddepcontrol.launch.dependents"() : () -> ()

// CHECK-LABEL: .visible .entry dependent(
// CHECK:      mov.u32 {{%r[0-9]+}}, %tid.x;
// CHECK:      griddepcontrol.wait;
// CHECK-NEXT: ld.global.f32 [[X:%f[0-9]+]], [{{%rd[0-9]+}}];
// CHECK-NEXT: griddepcontrol.launch_dependents;
// CHECK-NEXT: st.global.f32 [{{%rd[0-9]+}}], [[X]];
