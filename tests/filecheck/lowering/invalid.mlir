// One case per lowering / kernel-op diagnostic.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p lower-mma-to-nvvm -t ptx

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @unknown_producer(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
    %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    // expected-error@+1 {{mma.sync: fragment operand %a is not produced in this kernel}}
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d, %p layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @tile_size(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: memory layout (16,8):(8,1) covers 128 elements; the fragment's TV layout ((4,8),(2,2,2)):((32,1),(16,8,128)) indexes a tile of 256}}
    %a = mma.load_fragment %p layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @subbyte_strided(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{4-bit values must be contiguous in memory within a register}}
    %a = mma.load_fragment %p layout("(16,64):(1,16)") : !llvm.ptr<1> -> !mma.frag<A, s4, "((4,8),(8,2,2)):((128,1),(16,8,512))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @fill_type(%x: f16) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.fill: a f16 fragment cannot be filled; fill takes f32, s32, f64 fragments}}
    %c = mma.fill %x : f16 -> !mma.frag<C, f16, "((4,8),2):((16,1),8)">
    llvm.return
  }
}

// -----

// expected-error@+1 {{the module names no chip}}
builtin.module {
  llvm.func @no_target(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  // expected-error@+1 {{kernel @local has internal linkage; a kernel entry must be external}}
  llvm.func internal @local(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @rank(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: memory layout 128:1 must have rank 2, (rows, cols) of the tile}}
    %c = mma.load_fragment %p layout("128:1") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    llvm.return
  }
}
